import Foundation
import PushboxCore
import PushboxStore
import PushboxText

/// The HTTP API shaped like APNs': `POST /3/device/<token>` answered as APNs answers, and
/// `GET /inbox` for scripts. Only `apns-*` headers reach the payload's envelope.
public final class APNsEndpoint: HTTPRequestHandler, @unchecked Sendable {
    public let service: IntakeService
    /// Local notifications of the running instance (`/pushbox/…` paths), when it keeps them.
    public var scheduler: LocalScheduler?
    static let devicePrefix = "/3/device/"
    /// A header a replaying pushbox sets so the stored source says "replay".
    public static let sourceHeader = "x-pushbox-source"

    public init(service: IntakeService) {
        self.service = service
    }

    static func reasonResponse(_ reason: APNsReason, apnsID: String? = nil) -> HTTPResponse {
        var headers = [("Content-Type", "application/json")]
        if let apnsID { headers.append(("apns-id", apnsID)) }
        return HTTPResponse(status: reason.status, headers: headers, body: Array("{\"reason\":\"\(reason.rawValue)\"}".utf8))
    }

    public func early(method: String, path: String, headers: [(name: String, value: String)]) -> (HTTPResponse?, maxBody: Int) {
        if path == "/inbox" {
            return (method == "GET" ? nil : Self.reasonResponse(.methodNotAllowed), 0)
        }
        if path.hasPrefix(ScheduleEndpoint.prefix) {
            guard ScheduleEndpoint.isKnown(path) else { return (Self.reasonResponse(.badPath), 0) }
            guard ScheduleEndpoint.allowed(method: method, path: path) else { return (Self.reasonResponse(.methodNotAllowed), 0) }
            return (nil, ScheduleEndpoint.maxBody)
        }
        guard path.hasPrefix(Self.devicePrefix) else { return (Self.reasonResponse(.badPath), 0) }
        guard method == "POST" else { return (Self.reasonResponse(.methodNotAllowed), 0) }
        if path.count == Self.devicePrefix.count { return (Self.reasonResponse(.missingDeviceToken), 0) }
        let type = headers.last { $0.name == PushHeaders.pushType }?.value
        let limit = PushType(rawValue: type ?? "")?.maxPayloadBytes ?? PushType.alert.maxPayloadBytes
        if let length = headers.last(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }), length > limit {
            return (Self.reasonResponse(.payloadTooLarge), limit)
        }
        return (nil, limit)
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        if request.path == "/inbox" {
            let items = (try? service.store.inbox()) ?? []
            let dates = InboxListing.dateFormatter()
            let json = JSONValue.array(items.map { n in InboxListing.json(n, rendered: service.processor?.stored(id: n.id), dates: dates) })
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(json).utf8))
        }
        if request.path.hasPrefix(ScheduleEndpoint.prefix) {
            return ScheduleEndpoint.handle(request, scheduler: scheduler)
        }
        let token = String(request.path.dropFirst(Self.devicePrefix.count)).removingPercentEncoding ?? ""
        var headers = PushHeaders()
        for h in request.headers where h.name.hasPrefix("apns-") { headers.add(h.name, h.value) }
        let replay = request.headers.contains { $0.name == Self.sourceHeader && $0.value == "replay" }
        let envelope = Envelope(source: replay ? .replay : .socket, headers: headers, deviceToken: token)
        let result = service.receive(RawPayload(bytes: request.body, envelope: envelope))
        guard let reason = result.reason else {
            return HTTPResponse(status: 200, headers: [("apns-id", result.apnsID)])
        }
        let body = JSONWriter.compact(.object(JSONObject([("reason", .string(reason))])))
        return HTTPResponse(status: result.status, headers: [("Content-Type", "application/json"), ("apns-id", result.apnsID)], body: Array(body.utf8))
    }
}

/// A stored notification as scripts read it (`GET /inbox`, `pushbox list --json`).
public enum InboxListing {
    /// The formatter for `receivedAt`: make one per listing and pass it to every `json` call.
    public static func dateFormatter() -> ISO8601DateFormatter {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return iso
    }

    public static func json(_ n: StoredNotification, rendered: JSONObject?, dates: ISO8601DateFormatter) -> JSONValue {
        .object(JSONObject([
            ("id", .number(String(n.id))),
            ("apnsId", .string(n.apnsID)),
            ("receivedAt", .string(dates.string(from: n.receivedAt))),
            ("source", .string(n.source.rawValue)),
            ("file", .optionalString(n.file)),
            ("status", .optionalInt(n.status)),
            ("reason", .optionalString(n.reason)),
            ("collapseId", .optionalString(n.collapseID)),
            ("title", rendered?["title"] ?? .null),
            ("subtitle", rendered?["subtitle"] ?? .null),
            ("body", rendered?["body"] ?? .null),
            ("language", rendered?["language"] ?? .null),
            ("delivered", rendered?["delivered"] ?? (n.reason != nil ? .string("rejected") : .null)),
            ("attachments", rendered?["attachments"] ?? .array([])),
            ("warnings", rendered?["warnings"] ?? .array([])),
        ]))
    }
}
