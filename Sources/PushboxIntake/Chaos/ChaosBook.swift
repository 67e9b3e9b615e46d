import Foundation
import PushboxJSON
import PushboxSystem
import Synchronization

/// What chaos needs to know of one push request to judge it.
public struct ChaosRequest: Sendable {
    /// `apns`, `fcm` or `oauth`.
    public var service: String
    public var token: String?
    public var topic: String?
    public var project: String?
    public var pushType: String?
    /// How old the APNs provider token is, when the request carried one.
    public var tokenAgeSeconds: Int?
    /// The device of the fleet a token belongs to (asked only when a rule matches on a device).
    public var device: @Sendable (String) -> String? = { _ in nil }

    /// A request to `service` (`apns`, `fcm`, `oauth`); the rest as it is known.
    public init(service: String) { self.service = service }
}

/// A rule that fired on a request: its number and the rule.
public struct ChaosHit: Sendable {
    public var id: Int
    public var rule: ChaosRule
    /// `Retry-After` in seconds for an exhausted quota (until a token is back).
    public var quotaRetryAfter: Int?
    /// `#3 fcm 503 UNAVAILABLE next=2`: what the request log, the inbox and the TUI say did it.
    public var label: String { "#\(id) \(rule.text)" }
}

/// The chaos rules of a running pushbox, in memory (a restart starts clean): added, removed,
/// switched on and off from the command line, the API and the TUI; asked once per push request
/// while any rule is on, and not at all otherwise (`isArmed` is one atomic load).
public final class ChaosBook: Sendable {
    /// One rule as kept: its number, whether it is on, and what it has done.
    public struct Entry: Sendable {
        public var id: Int
        public var rule: ChaosRule
        public var active = true
        /// Requests it matched, and those it fired on.
        public var matched = 0
        public var fired = 0
        /// A `next=N` rule that fired N times.
        public var spent: Bool {
            if case .next(let n) = rule.trigger { return fired >= n }
            return false
        }
        var random: UInt64 = 0
        /// Token buckets of a quota rule by key: tokens left and when they were counted.
        var buckets: [String: (tokens: Double, at: Date)] = [:]

        /// As `pushbox chaos list --json` and `GET /api/v1/chaos` give it.
        public var json: JSONValue {
            .object(
                JSONObject([
                    ("id", .number(String(id))), ("rule", .string(rule.text)), ("fault", .string(rule.fault.kind)), ("active", .bool(active)),
                    ("spent", .bool(spent)), ("matched", .number(String(matched))), ("fired", .number(String(fired))),
                ]))
        }
    }

    private struct State {
        var entries: [Entry] = []
        var nextID = 1
    }

    private let state = Locked(State())
    private let armed = Atomic<Bool>(false)
    /// Bumped on every change: a connection compares it to pick up new settings.
    private let changes = Atomic<Int>(0)
    private let listeners = Locked<[@Sendable () -> Void]>([])

    /// No rule.
    public init() {}

    /// Whether any rule is on: when not, requests are never judged.
    public var isArmed: Bool { armed.load(ordering: .relaxed) }
    /// Bumped on every change.
    public var version: Int { changes.load(ordering: .relaxed) }

    /// Calls `listener` after every change (the TUI's header, the event stream).
    public func onChange(_ listener: @escaping @Sendable () -> Void) { listeners.withLock { $0.append(listener) } }

    /// The rules, in the order they are tried.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// Adds a rule; its number.
    @discardableResult
    public func add(_ rule: ChaosRule) -> Int {
        let id = change { s in
            let id = s.nextID
            s.nextID += 1
            var entry = Entry(id: id, rule: rule)
            if case .probability(_, let seed) = rule.trigger { entry.random = seed }
            s.entries.append(entry)
            return id
        }
        return id
    }

    /// Removes rule `id`; whether there was one.
    @discardableResult
    public func remove(_ id: Int) -> Bool {
        change { s in
            let before = s.entries.count
            s.entries.removeAll { $0.id == id }
            return s.entries.count != before
        }
    }

    /// Switches rule `id` on or off; whether there is one.
    @discardableResult
    public func setActive(_ id: Int, _ active: Bool) -> Bool {
        change { s in
            guard let i = s.entries.firstIndex(where: { $0.id == id }) else { return false }
            s.entries[i].active = active
            return true
        }
    }

    /// Removes every rule (numbers go on from where they were, so a log's `#3` stays one rule).
    public func clear() { change { $0.entries.removeAll() } }

    private func change<T>(_ body: (inout State) -> T) -> T {
        let out = state.withLock { s in
            let out = body(&s)
            armed.store(s.entries.contains { $0.active && !$0.spent }, ordering: .relaxed)
            return out
        }
        changes.add(1, ordering: .relaxed)
        for listener in listeners.withLock({ $0 }) { listener() }
        return out
    }

    /// The lowest `max-streams` of the rules on, for every HTTP/2 connection.
    public var maxStreams: UInt32? {
        guard isArmed else { return nil }
        return state.withLock { s in
            s.entries.filter { $0.active }.compactMap { e -> UInt32? in
                if case .maxStreams(let n) = e.rule.fault { return n }
                return nil
            }.min()
        }
    }

    /// The shortest `idle-close` of the rules on.
    public var idleClose: (milliseconds: Int, reset: Bool)? {
        guard isArmed else { return nil }
        return state.withLock { s in
            s.entries.filter { $0.active }.compactMap { e -> (Int, Bool)? in
                if case .idleClose(let ms, let reset) = e.rule.fault { return (ms, reset) }
                return nil
            }.min { $0.0 < $1.0 }
        }
    }

    /// The first rule on that concerns `request` and fires now; nil when none does.
    public func decide(_ request: ChaosRequest, now: Date = Date()) -> ChaosHit? {
        guard isArmed else { return nil }
        let (hit, spent): (ChaosHit?, Bool) = state.withLock { s in
            for i in s.entries.indices where s.entries[i].active && !s.entries[i].spent {
                let rule = s.entries[i].rule
                guard !rule.fault.isConnectionSetting, Self.concerns(rule, request) else { continue }
                if case .tokenExpiry(let seconds) = rule.fault {
                    guard let age = request.tokenAgeSeconds, age > seconds else { continue }
                }
                s.entries[i].matched += 1
                var quotaRetryAfter: Int? = nil
                if case .quota(let scope, let limit, let per) = rule.fault {
                    guard let key = Self.quotaKey(scope, request) else { continue }
                    guard let wait = Self.take(&s.entries[i].buckets, key: key, limit: limit, perSeconds: per, now: now) else { continue }
                    quotaRetryAfter = wait
                } else if !Self.fires(&s.entries[i]) {
                    continue
                }
                s.entries[i].fired += 1
                return (ChaosHit(id: s.entries[i].id, rule: rule, quotaRetryAfter: quotaRetryAfter), s.entries[i].spent)
            }
            return (nil, false)
        }
        // A next=N rule just spent may leave nothing on.
        if spent { change { _ in } }
        return hit
    }

    /// Whether the rule's matches and fault concern the request's service and target.
    static func concerns(_ rule: ChaosRule, _ r: ChaosRequest) -> Bool {
        switch rule.fault {
        case .apns, .tokenExpiry: if r.service != "apns" { return false }
        case .fcm, .html, .quota: if r.service != "fcm" { return false }
        case .oauth: return r.service == "oauth"
        default: if r.service == "oauth" { return false }
        }
        let m = rule.match
        if let service = m.service, service != r.service { return false }
        if let token = m.token {
            guard let t = r.token else { return false }
            if token.hasSuffix("*") ? !t.hasPrefix(token.dropLast()) : t != token { return false }
        }
        if let topic = m.topic, topic != r.topic { return false }
        if let project = m.project, project != r.project { return false }
        if let type = m.pushType, type != r.pushType { return false }
        if let device = m.device {
            guard let t = r.token, r.device(t) == device else { return false }
        }
        return true
    }

    /// Whether the trigger fires on this match (counted already).
    static func fires(_ e: inout Entry) -> Bool {
        switch e.rule.trigger {
        case .always: return true
        case .next(let n): return e.fired < n
        case .every(let n): return e.matched % n == 0
        case .probability(let p, _):
            // SplitMix64: the same seed gives the same draws, so a failing run is replayed.
            e.random &+= 0x9E37_79B9_7F4A_7C15
            var z = e.random
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53) < p
        }
    }

    static func quotaKey(_ scope: ChaosQuota.Scope, _ r: ChaosRequest) -> String? {
        switch scope {
        case .device: r.token
        case .topic: r.topic
        case .project: r.project
        }
    }

    /// Takes a token from the key's bucket: nil when there was one, else the seconds until there is.
    static func take(_ buckets: inout [String: (tokens: Double, at: Date)], key: String, limit: Int, perSeconds: Int, now: Date) -> Int? {
        let rate = Double(limit) / Double(perSeconds)
        var bucket = buckets[key] ?? (Double(limit), now)
        bucket.tokens = min(Double(limit), bucket.tokens + max(0, now.timeIntervalSince(bucket.at)) * rate)
        bucket.at = now
        if buckets.count > 10_000 { buckets.removeAll() }
        if bucket.tokens >= 1 {
            bucket.tokens -= 1
            buckets[key] = bucket
            return nil
        }
        buckets[key] = bucket
        return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
    }
}
