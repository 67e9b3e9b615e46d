import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxSystem

/// One HTTP request as pushbox answered it, accepted or refused, on any listener: what a sender
/// most needs to see when a push did not arrive. Never holds a token or a secret header.
public struct RequestRecord: Sendable {
    /// When it was answered.
    public var time: Date
    /// `unix …`, `tcp 127.0.0.1:2197`, `tcp … via CONNECT host:443`.
    public var listener: String
    /// `h2`, `h2c`, `http/1.1`.
    public var protocolName: String
    /// Whether the connection was TLS.
    public var tls: Bool
    /// The method and path.
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The status answered.
    public var status: Int
    /// APNs' reason or Google's status, when refused.
    public var reason: String?
    /// pushbox's cause for a refusal (which check, which key), never sent.
    public var cause: String?
    /// The apns-id answered.
    public var apnsID: String?
    /// What became of an accepted push.
    public var acceptance: Acceptance?
    /// The request's headers, secrets left out (`authorization`, `cookie`, `proxy-authorization`).
    public var headers: [(name: String, value: String)]
    /// The body's size in bytes.
    public var bodyBytes: Int
    /// The chaos rule that made the answer, when one did.
    public var chaos: String?
    /// Which message the push carries, the same for each of its retries.
    public var messageKey: String?
    /// `Retry-After` answered, in seconds (an HTTP date counted from the answer).
    public var retryAfter: Double?
    /// A push answered with a failure although it was stored and delivered (chaos `accepted`).
    public var deliveredDespiteFailure: Bool

    /// The reason of an answer that never came: what the connection did instead.
    static let noAnswer = "NO_ANSWER"

    /// Headers never kept.
    static let secretHeaders = ["authorization", "proxy-authorization", "cookie", "x-goog-api-key"]

    /// Whether a (lower-case) header name is one of `secretHeaders`: lengths first, as a request's
    /// other headers (apns-topic, content-length…) never have theirs; a set hashed each header.
    static func isSecret(_ name: String) -> Bool {
        let length = name.utf8.count
        return secretHeaders.contains { $0.utf8.count == length && $0 == name }
    }

    /// The record of `head` answered with `response` at `time`.
    public init(head: RequestHead, response: HTTPResponse, time: Date = Date()) {
        self.time = time
        listener = head.connection.listener
        protocolName = head.connection.protocolName
        tls = head.connection.tls
        method = head.method
        path = head.path
        status = response.status
        // APNs' {"reason": …}, or Google's {"error": {"status": …}}; an answer of 200 has none.
        let body = response.status < 400 ? nil : (try? JSONParser.parse(response.body))?.objectValue
        // OAuth's token endpoint says {"error": "invalid_grant"}.
        reason =
            body?["reason"]?.stringValue ?? Self.fcmErrorCode(body) ?? body?["error"]?.objectValue?["status"]?.stringValue
            ?? body?["error"]?.stringValue
        cause = response.cause
        apnsID = response.headers.first { PushHeaders.lowered($0.0) == PushHeaders.id }?.1
        acceptance = response.acceptance
        // Grown once: `filter` reallocated as it went, three times a request.
        var kept: [(name: String, value: String)] = []
        kept.reserveCapacity(head.headers.count)
        for header in head.headers where !Self.isSecret(header.name) { kept.append(header) }
        headers = kept
        bodyBytes = head.bodyBytes
        chaos = response.chaos
        messageKey = response.messageKey
        if let fault = response.connectionFault { reason = fault.name }
        if response.status == 0, reason == nil { reason = Self.noAnswer }
        retryAfter = response.headers.first { PushHeaders.lowered($0.0) == "retry-after" }.flatMap { Self.seconds(retryAfter: $0.1, at: time) }
        deliveredDespiteFailure = response.status >= 400 && response.acceptance != nil
    }

    /// `Retry-After` in seconds: a number, or an HTTP date counted from `time`.
    static func seconds(retryAfter value: String, at time: Date) -> Double? {
        if let s = Double(value.trimmingCharacters(in: .whitespaces)) { return s }
        return HTTPDate.date(value).map { max(0, $0.timeIntervalSince(time)) }
    }

    /// FCM's own error code in a Google error's details (`UNREGISTERED` for a 404 `NOT_FOUND`),
    /// the name the Admin SDKs raise and the inbox uses.
    static func fcmErrorCode(_ body: JSONObject?) -> String? {
        let details = body?["error"]?.objectValue?["details"]?.arrayValue ?? []
        return details.lazy.compactMap(\.objectValue).first { $0["@type"]?.stringValue?.hasSuffix("google.firebase.fcm.v1.FcmError") == true }?[
            "errorCode"]?
            .stringValue
    }

    /// Whether it was a read of this log (`GET /requests`, `GET /requests/summary`): what
    /// `pushbox requests` and `pushbox exec` ask, not what the backend sent.
    public var isOwnRead: Bool { method == "GET" && (path == "/requests" || path.hasPrefix("/requests/")) }

    /// Whether pushbox refused it.
    public var refused: Bool { status >= 400 }

    /// The record as `GET /requests` and `pushbox requests --json` give it.
    public func json(dates: ISO8601DateFormatter) -> JSONValue {
        .object(
            JSONObject([
                ("time", .string(dates.string(from: time))), ("listener", .string(listener)), ("protocol", .string(protocolName)),
                ("tls", .bool(tls)), ("method", .string(method)), ("path", .string(path)), ("status", .number(String(status))),
                ("reason", .optionalString(reason)), ("cause", .optionalString(cause)), ("apnsId", .optionalString(apnsID)),
                ("outcome", .string(outcome.name)),
                ("bodyBytes", .number(String(bodyBytes))), ("chaos", .optionalString(chaos)),
                ("retryAfter", retryAfter.map { .number(String(format: "%g", $0)) } ?? .null),
                ("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })),
            ]))
    }
}

/// The most recent requests of a running pushbox, newest last, bounded: `GET /requests`; and
/// every request counted by listener, unbounded in time: `GET /requests/summary`.
public final class RequestLog: Sendable {
    /// How many are kept.
    public static let limit = 1000
    /// How many listeners are counted apart (each `pushbox exec` relay is one).
    static let tallyLimit = 256
    /// The records, the counts and who listens, behind one lock: a record is one lock, not three.
    private struct State {
        /// The newest records, at most `limit`: once full, the oldest slot (`next`) takes the new
        /// one, so each record frees one old one (dropping a quarter of the log at once freed
        /// 250 records' strings in one go, every 250 pushes).
        var ring: [RequestRecord] = []
        var next = 0
        var tallies: [String: RequestTally] = [:]
        var listeners: [@Sendable (RequestRecord) -> Void] = []

        /// The records kept, oldest first.
        var inOrder: ArraySlice<RequestRecord> { next == 0 ? ring[...] : ring[next...] + ring[..<next] }
    }
    private let state = Locked(State())

    /// Calls `listener` with each record kept from now on (the event stream's `request`).
    public func onRecord(_ listener: @escaping @Sendable (RequestRecord) -> Void) { state.withLock { $0.listeners.append(listener) } }

    /// An empty log.
    public init() {}

    /// Keeps the record of one answer (the oldest goes when the log is full), and gives it.
    @discardableResult
    public func record(_ head: RequestHead, _ response: HTTPResponse) -> RequestRecord {
        let record = RequestRecord(head: head, response: response)
        // What exec's summary counts is the backend's requests, not the log's own reads.
        let outcome = record.isOwnRead ? nil : record.outcome
        let listeners = state.withLock { state in
            if state.ring.count < Self.limit {
                state.ring.append(record)
            } else {
                state.ring[state.next] = record
                state.next = (state.next + 1) % Self.limit
            }
            if let outcome {
                if state.tallies.count >= Self.tallyLimit, state.tallies[record.listener] == nil { state.tallies.removeAll() }
                state.tallies[record.listener, default: RequestTally()].add(outcome)
            }
            return state.listeners
        }
        for listener in listeners { listener(record) }
        return record
    }

    /// Every request answered on a listener whose name starts with `prefix`, counted.
    public func tally(listenerPrefix prefix: String) -> RequestTally {
        state.withLock { state in
            state.tallies.filter { $0.key.hasPrefix(prefix) }.values.reduce(into: RequestTally()) { $0.merge($1) }
        }
    }

    /// `GET /requests/summary?listener=PREFIX`: the counts of `tally(listenerPrefix:)`.
    static func summaryRoute(_ log: RequestLog) -> Route {
        Route(
            "requests summary", methods: ["GET"], paths: .exact("/requests/summary"), maxBody: { _ in 0 },
            refusal: APNsEndpoint.refusalWithoutID,
            handle: { request in
                let tally = log.tally(listenerPrefix: request.query["listener"] ?? "")
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(tally.json).utf8))
            })
    }

    /// The records, newest first, at most `limit`; only the refused ones when `refusedOnly`;
    /// the log's own reads (`GET /requests…`, what `pushbox requests` asks) only with `ownReads`.
    public func recent(limit: Int = RequestLog.limit, refusedOnly: Bool = false, ownReads: Bool = false) -> [RequestRecord] {
        let all = state.withLock { $0.inOrder }
        return Array(all.reversed().filter { (!refusedOnly || $0.refused) && (ownReads || !$0.isOwnRead) }.prefix(limit))
    }

    /// `GET /requests`: newest first; `limit` (default 100), `refused=1`, and `all=1` for the
    /// log's own reads too.
    static func route(_ log: RequestLog) -> Route {
        Route(
            "requests", methods: ["GET"], paths: .exact("/requests"), maxBody: { _ in 0 }, refusal: APNsEndpoint.refusalWithoutID,
            handle: { request in
                let limit = min(max(Int(request.query["limit"] ?? "") ?? 100, 1), RequestLog.limit)
                let dates = InboxListing.dateFormatter()
                let list = log.recent(limit: limit, refusedOnly: request.query["refused"] == "1", ownReads: request.query["all"] == "1").map {
                    $0.json(dates: dates)
                }
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(.array(list)).utf8))
            })
    }
}
