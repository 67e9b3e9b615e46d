import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload

/// iOS 18's broadcast push for Live Activities: the channel-management API
/// (`/1/apps/<bundle>/channels`, `/1/apps/<bundle>/all-channels`; Apple's hosts
/// api-manage-broadcast[.sandbox].push.apple.com) and `POST /4/broadcasts/apps/<bundle>` with
/// `apns-channel-id`. The channels are the device's (`LiveActivityDevice`); a broadcast is taken
/// in as any push is and applied to every activity subscribed to its channel.
struct BroadcastEndpoint: Sendable {
    let service: IntakeService
    let authenticator: ProviderAuthenticator
    static let managePrefix = "/1/apps/"
    static let sendPrefix = "/4/broadcasts/apps/"
    /// A broadcast's largest body: 5 KB (third-party documentation only; unconfirmed).
    static let maxBroadcastBytes = 5120

    var routes: [Route] {
        let check: @Sendable (RequestHead) -> Result<Arrival.Authentication, Refusal> = { [authenticator] head in
            APNsEndpoint.check(head, authenticator: authenticator)
        }
        return [
            Route(
                "apns-channels", methods: ["POST", "GET", "DELETE"], paths: .prefix(Self.managePrefix), maxBody: { _ in 4096 }, check: check,
                refusal: APNsEndpoint.refusal, handle: { [service] request in Self.manage(request, service: service) }),
            Route(
                "apns-broadcast", methods: ["POST"], paths: .prefix(Self.sendPrefix), maxBody: { _ in Self.maxBroadcastBytes }, check: check,
                refusal: APNsEndpoint.refusal, handle: { [service] request in Self.send(request, service: service) }),
        ]
    }

    /// A refusal with APNs' shape and pushbox's reason for it.
    static func refuse(_ reason: APNsReason, _ cause: String) -> HTTPResponse {
        var r = APNsEndpoint.reasonResponse(reason, apnsID: nil)
        r.headers.append(("apns-request-id", FastUUID.make()))
        r.cause = cause
        return r
    }

    /// The refusal of a path naming another app than the device's; nil when it is the device's.
    static func otherApp(_ bundle: Substring, service: IntakeService) -> HTTPResponse? {
        guard let own = service.phone.context.bundleID, own != bundle else { return nil }
        return refuse(.topicDisallowed, "this device's app is \(own), not \(bundle)")
    }

    /// The `apns-channel-id` given, or the refusal of a missing (`missing` says why it is needed)
    /// or malformed one.
    static func channel(_ id: String?, _ missing: String) -> Result<String, Refusal> {
        guard let id else { return .failure(Refusal(refuse(.missingChannelId, missing))) }
        return Data(base64Encoded: id) == nil ? .failure(Refusal(refuse(.badChannelId, "apns-channel-id is base64"))) : .success(id)
    }

    /// Create, read, delete a channel; list them all.
    static func manage(_ request: HTTPRequest, service: IntakeService) -> HTTPResponse {
        guard let device = service.phone.liveActivities else { return refuse(.badPath, "this pushbox keeps no Live Activities") }
        let parts = request.path.dropFirst(managePrefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, ["channels", "all-channels"].contains(parts[1]) else {
            return refuse(.badPath, "the channel API's paths are /1/apps/<bundle>/channels and /1/apps/<bundle>/all-channels")
        }
        if let refusal = otherApp(parts[0], service: service) { return refusal }
        let channelID = request.headers.last { $0.name == PushHeaders.channelID }?.value
        let requestID = request.headers.last { $0.name == "apns-request-id" }?.value ?? FastUUID.make()
        func json(_ status: Int, _ value: JSONValue?, _ extra: [(String, String)] = []) -> HTTPResponse {
            HTTPResponse(
                status: status, headers: [("apns-request-id", requestID)] + extra + (value == nil ? [] : [("Content-Type", "application/json")]),
                body: value.map { Array(JSONWriter.compact($0).utf8) } ?? [])
        }
        do {
            switch (request.method, String(parts[1])) {
            case ("GET", "all-channels"):
                let ids = device.file.current().book.channels.map { JSONValue.string($0.id) }
                return json(200, .object(JSONObject([("channels", .array(ids))])))
            case ("POST", "channels"):
                guard let body = try? JSONParser.parse(request.body).objectValue else {
                    return refuse(
                        .cannotCreateChannelConfig, "the body must be {\"message-storage-policy\": 0 or 1, \"push-type\": \"liveactivity\"}")
                }
                guard let policy = body["message-storage-policy"]?.intValue, policy == 0 || policy == 1 else {
                    return refuse(.cannotCreateChannelConfig, "message-storage-policy must be 0 or 1")
                }
                guard body["push-type"]?.stringValue == PushType.liveactivity.rawValue else {
                    return refuse(.missingPushType, "push-type must be liveactivity")
                }
                let made: String? = try device.change { book, now in
                    book.channels.count >= ActivityBook.maxChannels ? nil : book.createChannel(storagePolicy: policy, now: now)
                }
                guard let id = made else {
                    return refuse(.cannotCreateChannelConfig, "the app has \(ActivityBook.maxChannels) channels already (unconfirmed limit)")
                }
                return json(201, nil, [(PushHeaders.channelID, id)])
            case ("GET", "channels"), ("DELETE", "channels"):
                let id: String
                switch channel(channelID, "apns-channel-id names the channel") {
                case .failure(let r): return r.response
                case .success(let c): id = c
                }
                if request.method == "GET" {
                    guard let channel = device.file.current().book.channel(id) else {
                        return refuse(.channelNotRegistered, "the app has no channel \(id)")
                    }
                    return json(200, channel.json)
                }
                guard try device.change({ book, _ in book.deleteChannel(id) }) else {
                    return refuse(.channelNotRegistered, "the app has no channel \(id)")
                }
                return json(204, nil)
            default:
                return refuse(.methodNotAllowed, "\(request.method) is not taken on \(parts[1])")
            }
        } catch {
            return refuse(.internalServerError, "\(error)")
        }
    }

    /// A broadcast to a channel: checked, then taken in as a push with no device token.
    static func send(_ request: HTTPRequest, service: IntakeService) -> HTTPResponse {
        guard let device = service.phone.liveActivities else { return refuse(.badPath, "this pushbox keeps no Live Activities") }
        let rest = request.path.dropFirst(sendPrefix.count)
        guard !rest.isEmpty, !rest.contains("/") else { return refuse(.badPath, "the path is /4/broadcasts/apps/<bundle>") }
        if let refusal = otherApp(rest, service: service) { return refusal }
        let bundle = String(rest)
        var headers = PushHeaders()
        for h in request.headers where PushHeaders.isAPNsName(h.name) && h.name != "apns-request-id" { headers.add(h.name, h.value) }
        let id: String
        switch channel(headers[PushHeaders.channelID], "a broadcast names its channel in apns-channel-id") {
        case .failure(let r): return r.response
        case .success(let c): id = c
        }
        guard device.file.current().book.channel(id) != nil else {
            return refuse(.channelNotRegistered, "the app has no channel \(id) (create it with POST /1/apps/\(bundle)/channels)")
        }
        guard let type = headers[PushHeaders.pushType] else { return refuse(.missingPushType, "a broadcast is apns-push-type liveactivity") }
        guard type == PushType.liveactivity.rawValue else { return refuse(.invalidPushType, "a broadcast is apns-push-type liveactivity") }
        if headers[PushHeaders.topic] == nil { headers.add(PushHeaders.topic, bundle + (PushType.liveactivity.topicSuffix ?? "")) }
        let envelope = Envelope(source: APNsEndpoint.source(request), headers: headers, deviceToken: nil, arrival: request.arrival)
        let (result, arrival) = service.receiveBeforeAnswer(RawPayload(bytes: request.body, envelope: envelope))
        var response = APNsEndpoint.answer(result, arrival: arrival)
        response.headers.append(("apns-request-id", FastUUID.make()))
        return response
    }
}
