import Foundation
import PushboxJSON

/// The verdict on a backend's retries, from the request log: each message (APNs: its
/// `apns-id`, else the token and payload; FCM: the message body) that met a failure, its
/// attempts, the spacing between them against the `Retry-After` given, and what went wrong — a
/// permanent refusal sent again, a retry with no backoff or sooner than `Retry-After`, giving
/// up on a failure that was worth retrying, a message delivered twice.
public struct RetryVerdict: Sendable, Equatable {
    /// What a backend's retries got wrong.
    public enum Finding: String, Sendable, CaseIterable {
        /// A permanent refusal (400, 403 but an expired token, 404, 405, 410, 413) sent again unchanged.
        case retriedPermanent = "retried-permanent"
        /// A retry within 100 ms of a 429 or 5xx that gave no `Retry-After`.
        case noBackoff = "no-backoff"
        /// A retry sooner than the `Retry-After` answered.
        case ignoredRetryAfter = "ignored-retry-after"
        /// The last attempt met a failure worth retrying (429, 5xx, no answer): never delivered.
        case gaveUp = "gave-up"
        /// Delivered more than once (a failure answered for a message that was delivered, then retried).
        case duplicate
    }

    /// One attempt at a message.
    public struct Attempt: Sendable, Equatable {
        public var time: Date
        /// 0: no answer (GOAWAY, RST_STREAM, a reset, a hang).
        public var status: Int
        public var reason: String?
        public var retryAfter: Double?
        public var chaos: String?
        /// Answered with a failure although it was delivered.
        public var deliveredDespiteFailure: Bool

        /// Whether the device got it from this attempt.
        var delivered: Bool { status == 200 || deliveredDespiteFailure }
        /// Worth retrying: no answer, 429, 5xx.
        var transient: Bool { status == 0 || status == 429 || status >= 500 }
        /// Never worth sending again unchanged.
        var permanent: Bool {
            switch status {
            case 400, 404, 405, 410, 413: return true
            case 403: return reason != "ExpiredProviderToken"
            default: return false
            }
        }
    }

    /// A message that met a failure, with its attempts and findings.
    public struct Message: Sendable, Equatable {
        public var key: String
        public var path: String
        public var attempts: [Attempt]
        public var findings: [(finding: Finding, detail: String)]

        public static func == (a: Message, b: Message) -> Bool {
            a.key == b.key && a.attempts == b.attempts && a.findings.map(\.finding) == b.findings.map(\.finding)
        }
    }

    /// Messages that met at least one failure, in the order their first attempt came.
    public var messages: [Message]
    /// Messages seen in all.
    public var total: Int

    /// How many messages have `finding`.
    public func count(_ finding: Finding) -> Int { messages.filter { $0.findings.contains { $0.finding == finding } }.count }

    /// The verdict on these records (pushes only; requests without a message key are left out).
    public static func judge(_ records: [RequestRecord]) -> RetryVerdict {
        var order: [String] = []
        var byKey: [String: (path: String, attempts: [Attempt])] = [:]
        for r in records.sorted(by: { $0.time < $1.time }) {
            guard let key = r.messageKey else { continue }
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: (r.path, [])].attempts.append(
                Attempt(
                    time: r.time, status: r.status, reason: r.reason, retryAfter: r.retryAfter, chaos: r.chaos,
                    deliveredDespiteFailure: r.deliveredDespiteFailure))
        }
        var messages: [Message] = []
        for key in order {
            let (path, attempts) = byKey[key]!
            guard attempts.contains(where: { $0.status != 200 }) else { continue }
            messages.append(Message(key: key, path: path, attempts: attempts, findings: findings(attempts)))
        }
        return RetryVerdict(messages: messages, total: order.count)
    }

    /// What went wrong in one message's attempts.
    static func findings(_ attempts: [Attempt]) -> [(finding: Finding, detail: String)] {
        var out: [(Finding, String)] = []
        for (a, b) in zip(attempts, attempts.dropFirst()) {
            let gap = b.time.timeIntervalSince(a.time)
            let answered = a.status == 0 ? a.reason ?? "no answer" : "\(a.status) \(a.reason ?? "")"
            if a.permanent {
                out.append((.retriedPermanent, "sent again after \(answered), which no retry changes"))
            } else if a.transient, let wait = a.retryAfter, gap < wait * 0.9 {
                out.append((.ignoredRetryAfter, String(format: "retried %.2f s after %@, which said Retry-After %g s", gap, answered, wait)))
            } else if a.transient, a.retryAfter == nil, a.status != 0, gap < 0.1 {
                out.append((.noBackoff, String(format: "retried %.3f s after %@, with no backoff", gap, answered)))
            }
        }
        if let last = attempts.last, last.transient, !last.deliveredDespiteFailure {
            let answered = last.status == 0 ? last.reason ?? "no answer" : "\(last.status) \(last.reason ?? "")"
            out.append((.gaveUp, "the last of \(attempts.count) attempt\(attempts.count == 1 ? "" : "s") met \(answered); never delivered"))
        }
        let deliveries = attempts.filter(\.delivered).count
        if deliveries > 1 { out.append((.duplicate, "delivered \(deliveries) times")) }
        var seen = Set<Finding>()
        return out.filter { seen.insert($0.0).inserted }
    }

    /// As `GET /requests/retries` and `pushbox requests --retries --json` give it.
    public var json: JSONValue {
        let dates = InboxListing.dateFormatter()
        return .object(
            JSONObject([
                ("messages", .number(String(total))),
                ("counts", .object(JSONObject(Finding.allCases.map { ($0.rawValue, .number(String(count($0)))) }))),
                (
                    "failed",
                    .array(
                        messages.map { m in
                            .object(
                                JSONObject([
                                    ("key", .string(m.key)), ("path", .string(m.path)),
                                    (
                                        "attempts",
                                        .array(
                                            m.attempts.map { a in
                                                .object(
                                                    JSONObject([
                                                        ("time", .string(dates.string(from: a.time))), ("status", .number(String(a.status))),
                                                        ("reason", .optionalString(a.reason)),
                                                        ("retryAfter", a.retryAfter.map { .number(String(format: "%g", $0)) } ?? .null),
                                                        ("chaos", .optionalString(a.chaos)),
                                                        ("deliveredDespiteFailure", .bool(a.deliveredDespiteFailure)),
                                                    ]))
                                            })
                                    ),
                                    (
                                        "findings",
                                        .array(
                                            m.findings.map {
                                                .object(JSONObject([("finding", .string($0.finding.rawValue)), ("detail", .string($0.detail))]))
                                            })
                                    ),
                                ]))
                        })
                ),
            ]))
    }

    /// A verdict read back from its JSON (what `pushbox requests --retries` and `exec` get).
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let total = o["messages"]?.intValue, let failed = o["failed"]?.arrayValue else { return nil }
        let dates = InboxListing.dateFormatter()
        self.total = total
        messages = failed.compactMap { item in
            guard let m = item.objectValue, let key = m["key"]?.stringValue else { return nil }
            let attempts = (m["attempts"]?.arrayValue ?? []).compactMap { value -> Attempt? in
                guard let a = value.objectValue, let time = a["time"]?.stringValue.flatMap(dates.date(from:)), let status = a["status"]?.intValue
                else { return nil }
                return Attempt(
                    time: time, status: status, reason: a["reason"]?.stringValue, retryAfter: a["retryAfter"]?.doubleValue,
                    chaos: a["chaos"]?.stringValue, deliveredDespiteFailure: a["deliveredDespiteFailure"] == .bool(true))
            }
            let findings = (m["findings"]?.arrayValue ?? []).compactMap { value -> (finding: Finding, detail: String)? in
                guard let f = value.objectValue, let finding = f["finding"]?.stringValue.flatMap(Finding.init(rawValue:)) else { return nil }
                return (finding, f["detail"]?.stringValue ?? "")
            }
            return Message(key: key, path: m["path"]?.stringValue ?? "", attempts: attempts, findings: findings)
        }
    }

    init(messages: [Message], total: Int) {
        self.messages = messages
        self.total = total
    }

    /// The verdict in lines for people: one line per finding kind counted, then each message's
    /// attempts (`503 ServiceUnavailable` → `+1.02 s 200`) and findings.
    public var lines: [String] {
        var out = ["\(messages.count) of \(total) message\(total == 1 ? "" : "s") met a failure"]
        for finding in Finding.allCases where count(finding) > 0 { out.append("  \(finding.rawValue) \(count(finding))") }
        for m in messages {
            let start = m.attempts.first?.time ?? Date()
            let steps = m.attempts.map { a in
                let answer = a.status == 0 ? (a.reason ?? "no answer") : "\(a.status)\(a.reason.map { " " + $0 } ?? "")"
                let wait = a.retryAfter.map { String(format: " (Retry-After %g)", $0) } ?? ""
                return String(format: "+%.2fs ", a.time.timeIntervalSince(start)) + answer + wait + (a.chaos != nil ? " [chaos]" : "")
            }
            out.append("  \(m.path): \(steps.joined(separator: " → "))")
            for f in m.findings { out.append("    \(f.finding.rawValue): \(f.detail)") }
        }
        return out
    }
}

extension RequestLog {
    /// `GET /requests/retries?listener=PREFIX`: the verdict on the retries of the requests
    /// answered on listeners whose name begins with PREFIX (exec's run), of those still kept.
    static func retriesRoute(_ log: RequestLog) -> Route {
        Route(
            "requests retries", methods: ["GET"], paths: .exact("/requests/retries"), maxBody: { _ in 0 }, refusal: APNsEndpoint.refusalWithoutID,
            handle: { request in
                let prefix = request.query["listener"] ?? ""
                let verdict = RetryVerdict.judge(log.recent().filter { $0.listener.hasPrefix(prefix) })
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(verdict.json).utf8))
            })
    }
}
