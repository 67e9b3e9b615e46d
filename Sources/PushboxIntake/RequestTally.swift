import PushboxInbox
import PushboxJSON
import PushboxPayload

/// What one request came to, as a CI verdict counts it.
public enum RequestOutcome: Sendable, Equatable {
    /// A push accepted and shown (`delivered`), kept or dropped for an offline device, or not
    /// addressed to this device.
    case accepted(Acceptance)
    /// A push refused for what it was (APNs' reason, Google's status).
    case rejected(String)
    /// A request refused for its credentials: a provider token, an access token, an OAuth
    /// assertion.
    case refused(String)
    /// Anything else: an OAuth token issued, a topic subscription, a listing.
    case other

    /// The outcome's name in JSON: `delivered`, `stored`, `discarded`, `not-targeted`,
    /// `rejected`, `refused`, `other`.
    public var name: String {
        switch self {
        case .accepted(let a): a.rawValue
        case .rejected: "rejected"
        case .refused: "refused"
        case .other: "other"
        }
    }
}

extension RequestRecord {
    /// Google's OAuth token paths.
    static let tokenPaths: Set<String> = ["/token", "/oauth2/v4/token", "/o/oauth2/token"]

    /// Whether it was a push: APNs' `/3/device/…` or FCM's `messages:send`.
    public var isPush: Bool { path.hasPrefix("/3/device/") || (path.hasPrefix("/v1/projects/") && path.hasSuffix("/messages:send")) }

    /// What it came to: 401 and 403 (and the token endpoint's 400) are credentials refused,
    /// a push's other refusals are rejections by reason.
    public var outcome: RequestOutcome {
        // FCM's 403 SENDER_ID_MISMATCH is about the target's project, not the credentials.
        let refusedCredentials =
            status == 401 || (status == 403 && reason != APNsReason.fcmSenderIDMismatch.rawValue)
            || (status == 400 && Self.tokenPaths.contains(path))  // the status first: hashing every path cost each push
        if refusedCredentials { return .refused(reason ?? String(status)) }
        guard isPush else { return .other }
        // No answer at all (GOAWAY, RST_STREAM, a reset): what the connection did is the reason.
        if status == 0 { return .rejected(reason ?? Self.noAnswer) }
        if status < 300 { return .accepted(acceptance ?? .delivered) }
        return .rejected(reason ?? String(status))
    }
}

/// Requests counted by outcome: what `pushbox exec` prints at the end, and
/// `GET /requests/summary` answers.
public struct RequestTally: Sendable, Equatable {
    /// Every request answered.
    public var requests = 0
    /// Those that were pushes.
    public var pushes = 0
    /// Accepted pushes by what became of them (`delivered`, `stored`, …).
    public var accepted: [String: Int] = [:]
    /// Pushes refused, by reason.
    public var rejected: [String: Int] = [:]
    /// Requests refused for their credentials, by reason.
    public var refused: [String: Int] = [:]

    /// No request yet.
    public init() {}

    /// Counts one more request.
    mutating func add(_ outcome: RequestOutcome) {
        requests += 1
        switch outcome {
        case .accepted(let a):
            pushes += 1
            accepted[a.rawValue, default: 0] += 1
        case .rejected(let reason):
            pushes += 1
            rejected[reason, default: 0] += 1
        case .refused(let reason): refused[reason, default: 0] += 1
        case .other: break
        }
    }

    /// Adds another tally's counts.
    public mutating func merge(_ other: RequestTally) {
        requests += other.requests
        pushes += other.pushes
        accepted.merge(other.accepted, uniquingKeysWith: +)
        rejected.merge(other.rejected, uniquingKeysWith: +)
        refused.merge(other.refused, uniquingKeysWith: +)
    }

    /// Accepted pushes of one kind.
    public func count(_ acceptance: Acceptance) -> Int { accepted[acceptance.rawValue] ?? 0 }

    /// The tally as JSON, keys in a stable order.
    public var json: JSONValue {
        func counts(_ map: [String: Int]) -> JSONValue {
            .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) }))
        }
        return .object(
            JSONObject([
                ("requests", .number(String(requests))), ("pushes", .number(String(pushes))),
                ("delivered", .number(String(count(.delivered)))), ("stored", .number(String(count(.stored)))),
                ("discarded", .number(String(count(.discarded)))), ("notTargeted", .number(String(count(.notTargeted)))),
                ("rejected", counts(rejected)), ("refused", counts(refused)),
            ]))
    }

    /// A tally read back from its JSON (what a running pushbox answered).
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let requests = o["requests"]?.intValue, let pushes = o["pushes"]?.intValue else { return nil }
        self.requests = requests
        self.pushes = pushes
        for a in [Acceptance.delivered, .stored, .discarded, .notTargeted] {
            if let n = o[a == .notTargeted ? "notTargeted" : a.rawValue]?.intValue, n > 0 { accepted[a.rawValue] = n }
        }
        func counts(_ key: String) -> [String: Int] {
            Dictionary(
                uniqueKeysWithValues: (o[key]?.objectValue?.entries ?? []).compactMap { entry in entry.value.intValue.map { (entry.key, $0) } })
        }
        rejected = counts("rejected")
        refused = counts("refused")
    }
}
