import Foundation
import PushboxCore
import PushboxStore
import PushboxText

/// The HTTP API shaped like APNs': `POST /3/device/<token>` answered as APNs answers, and
/// `GET /inbox` for scripts. Only `apns-*` headers reach the payload's envelope.
public final class APNsEndpoint: HTTPRequestHandler, Sendable {
    /// The intake requests are handed to.
    public let service: IntakeService
    /// Local notifications of the running instance (`/pushbox/…` paths), when it keeps them.
    public let scheduler: LocalScheduler?
    /// Judges provider tokens and client certificates on connections that require them.
    public let authenticator: ProviderAuthenticator
    /// FCM HTTP v1 and the OAuth token endpoint, on the same listeners.
    public let fcm: FCMEndpoint
    /// Told of every answer (`serve`'s access log); set before any server starts.
    public let accessLog: (@Sendable (RequestHead, HTTPResponse) -> Void)?
    static let devicePrefix = "/3/device/"
    /// Notifications per `GET /inbox` page unless `limit` says otherwise.
    static let inboxPage = 100
    /// A header a replaying pushbox sets so the stored source says "replay".
    public static let sourceHeader = "x-pushbox-source"

    /// The API in front of `service`, with the scheduler's paths when there is one.
    public init(
        service: IntakeService, scheduler: LocalScheduler? = nil, authenticator: ProviderAuthenticator = ProviderAuthenticator(keys: []),
        fcm: FCMEndpoint? = nil, accessLog: (@Sendable (RequestHead, HTTPResponse) -> Void)? = nil
    ) {
        self.service = service
        self.fcm = fcm ?? FCMEndpoint(service: service)
        self.scheduler = scheduler
        self.authenticator = authenticator
        self.accessLog = accessLog
    }

    static func reasonResponse(_ reason: APNsReason, apnsID: String? = nil) -> HTTPResponse {
        var headers = [("Content-Type", "application/json")]
        if let apnsID { headers.append(("apns-id", apnsID)) }
        return HTTPResponse(status: reason.status, headers: headers, body: Array("{\"reason\":\"\(reason.rawValue)\"}".utf8))
    }

    /// The id APNs echoes on every answer: the one sent when it is a canonical UUID, else a new one.
    static func answerID(_ headers: [(name: String, value: String)]) -> String {
        IntakeService.answerID(sent: headers.last(where: { $0.name == PushHeaders.id })?.value)
    }

    /// Judges a request from its line and headers alone: path, method, token, authentication, size.
    public func early(_ head: RequestHead) -> EarlyAnswer {
        let path = head.path
        let method = head.method
        if FCMEndpoint.handles(path) { return fcm.early(head) }
        if path == "/inbox" {
            return EarlyAnswer(response: method == "GET" ? nil : Self.reasonResponse(.methodNotAllowed), maxBody: 0)
        }
        if path.hasPrefix(ScheduleEndpoint.prefix) {
            guard ScheduleEndpoint.isKnown(path) else { return EarlyAnswer(response: Self.reasonResponse(.badPath), maxBody: 0) }
            guard ScheduleEndpoint.allowed(method: method, path: path) else {
                return EarlyAnswer(response: Self.reasonResponse(.methodNotAllowed), maxBody: 0)
            }
            return EarlyAnswer(response: nil, maxBody: ScheduleEndpoint.maxBody)
        }
        let refuse = { (reason: APNsReason) in EarlyAnswer(response: Self.reasonResponse(reason, apnsID: Self.answerID(head.headers)), maxBody: 0) }
        guard path.hasPrefix(Self.devicePrefix) else { return refuse(.badPath) }
        guard method == "POST" else { return refuse(.methodNotAllowed) }
        var authentication = Arrival.Authentication.none
        if head.connection.requiresAuth {
            switch authenticator.judge(
                authorization: head.headers.last { $0.name == "authorization" }?.value,
                certificate: head.connection.certificate, connection: head.connection.auth)
            {
            case .refused(let reason, _): return refuse(reason)
            case .accepted(let how): authentication = how
            }
            if case .certificate(_, let certTopic?) = authentication,
                let topic = head.headers.last(where: { $0.name == PushHeaders.topic })?.value,
                topic != certTopic, !topic.hasPrefix(certTopic + ".")
            {
                return refuse(.topicDisallowed)
            }
        }
        if path.count == Self.devicePrefix.count { return refuse(.missingDeviceToken) }
        let limit = Self.bodyLimit(head.headers)
        if let length = head.headers.last(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }), length > limit {
            return EarlyAnswer(response: Self.reasonResponse(.payloadTooLarge, apnsID: Self.answerID(head.headers)), maxBody: limit)
        }
        return EarlyAnswer(response: nil, maxBody: limit, authentication: authentication)
    }

    static func bodyLimit(_ headers: [(name: String, value: String)]) -> Int {
        let type = headers.last { $0.name == PushHeaders.pushType }?.value
        return PushType(rawValue: type ?? "")?.maxPayloadBytes ?? PushType.alert.maxPayloadBytes
    }

    /// 413 PayloadTooLarge for a body that outgrew the limit while it was read.
    public func tooLarge(_ head: RequestHead) -> HTTPResponse {
        if FCMEndpoint.handles(head.path) {
            return FCMEndpoint.googleError(413, "INVALID_ARGUMENT", "The request body is larger than \(FCMEndpoint.maxBody) bytes.")
        }
        return Self.reasonResponse(.payloadTooLarge, apnsID: Self.answerID(head.headers))
    }

    /// Hears every answer given (the access log).
    public func answered(_ head: RequestHead, _ response: HTTPResponse) {
        accessLog?(head, response)
    }

    /// Answers a whole request: a push, `GET /inbox`, the scheduler's paths, or FCM's.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        if FCMEndpoint.handles(request.path) { return fcm.handle(request) }
        if request.path == "/inbox" {
            // One page at a time, newest first: `limit` (default 100, at most 1000) and `before`
            // (an id), so a huge inbox is never read whole under the store's lock.
            let limit = min(max(Int(request.query["limit"] ?? "") ?? Self.inboxPage, 1), 1000)
            let items: [StoredNotification]
            do {
                if let before = request.query["before"].flatMap({ Int64($0) }) {
                    items = try service.store.inbox(limit: limit, before: before)
                } else {
                    items = try service.store.inbox(limit: limit)
                }
            } catch {
                return Self.reasonResponse(.internalServerError)
            }
            let dates = InboxListing.dateFormatter()
            // A rendering still waiting behind a burst is made now, as the TUI and `list` do.
            let json = JSONValue.array(
                items.map { n in InboxListing.json(n, rendered: service.renderings?.rendering(id: n.id, row: n), dates: dates) })
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(json).utf8))
        }
        if request.path.hasPrefix(ScheduleEndpoint.prefix) {
            return ScheduleEndpoint.handle(request, scheduler: scheduler)
        }
        let rawToken = String(request.path.dropFirst(Self.devicePrefix.count))
        let token = rawToken.utf8.contains(UInt8(ascii: "%")) ? rawToken.removingPercentEncoding ?? "" : rawToken
        var headers = PushHeaders()
        for h in request.headers where h.name.hasPrefix("apns-") { headers.add(h.name, h.value) }
        // A certificate for one app stands for its topic when the request names none.
        if case .certificate(_, let topic?)? = request.arrival?.authentication, headers[PushHeaders.topic] == nil {
            headers.add(PushHeaders.topic, topic)
        }
        let replay = request.headers.contains { $0.name == Self.sourceHeader && $0.value == "replay" }
        let envelope = Envelope(source: replay ? .replay : .socket, headers: headers, deviceToken: token, arrival: request.arrival)
        let result = service.receive(RawPayload(bytes: request.body, envelope: envelope))
        guard let reason = result.reason else {
            // The development host also names the notification for its delivery log.
            return HTTPResponse(status: 200, headers: [("apns-id", result.apnsID), ("apns-unique-id", FastUUID.make())])
        }
        let body = JSONWriter.compact(.object(JSONObject([("reason", .string(reason))])))
        return HTTPResponse(
            status: result.status, headers: [("Content-Type", "application/json"), ("apns-id", result.apnsID)], body: Array(body.utf8))
    }
}
