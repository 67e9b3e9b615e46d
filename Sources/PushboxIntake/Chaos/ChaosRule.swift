import Foundation

/// One chaos rule: a fault pushbox injects, when it fires, and which requests it concerns —
/// written as one line (`fcm 429 QUOTA_EXCEEDED retry-after=30 next=2 project=shop`), which
/// `pushbox chaos add`, `--chaos` and `PUT /api/v1/chaos` all take. Only push requests (APNs,
/// FCM, FCM's OAuth token endpoint) meet chaos; pushbox's own API never does.
public struct ChaosRule: Sendable, Equatable {
    /// What goes wrong.
    public enum Fault: Sendable, Equatable {
        /// APNs' answer: status and reason (`{"reason": …}`).
        case apns(status: Int, reason: String)
        /// FCM's answer: status, Google's status name and FCM's error code (`google.rpc` body).
        case fcm(status: Int, name: String, errorCode: String?)
        /// An HTML page with this status, as Google's front end answers when it fails.
        case html(status: Int)
        /// The OAuth token endpoint fails: status and OAuth `error`.
        case oauth(status: Int, error: String)
        /// HTTP/2 GOAWAY: its error code, its debug data, and whether the request is processed
        /// first (its stream then the last one; otherwise the one before it, so the client may retry it).
        case goAway(errorCode: UInt32, debug: String, processed: Bool)
        /// HTTP/2 `RST_STREAM REFUSED_STREAM`: not processed, safe to retry.
        case refuseStream
        /// `SETTINGS_MAX_CONCURRENT_STREAMS` lowered to this on every HTTP/2 connection.
        case maxStreams(UInt32)
        /// The TCP connection reset (RST), nothing answered.
        case reset
        /// The answer held back this many milliseconds (the request is processed).
        case delay(milliseconds: Int)
        /// Never answered (until the client gives up or the connection closes).
        case hang
        /// Connections idle this long are closed: with GOAWAY, or reset when `reset`.
        case idleClose(milliseconds: Int, reset: Bool)
        /// APNs provider tokens older than this are refused `403 ExpiredProviderToken`.
        case tokenExpiry(seconds: Int)
        /// A token bucket per device, topic or project, answered as FCM answers an exhausted quota.
        case quota(ChaosQuota.Scope, limit: Int, perSeconds: Int)

        /// The word the rule begins with.
        public var kind: String {
            switch self {
            case .apns: "apns"
            case .fcm: "fcm"
            case .html: "html"
            case .oauth: "oauth"
            case .goAway: "goaway"
            case .refuseStream: "refuse-stream"
            case .maxStreams: "max-streams"
            case .reset: "reset"
            case .delay: "delay"
            case .hang: "hang"
            case .idleClose: "idle-close"
            case .tokenExpiry: "token-expiry"
            case .quota: "quota"
            }
        }

        /// Whether the fault is the connection's (a setting of every connection, not one request's answer).
        public var isConnectionSetting: Bool {
            switch self {
            case .maxStreams, .idleClose: true
            default: false
            }
        }
    }

    /// When a rule fires among the requests it matches.
    public enum Trigger: Sendable, Equatable {
        /// Every one.
        case always
        /// The next N, then the rule is spent.
        case next(Int)
        /// Every Nth (the Nth, the 2Nth, …).
        case every(Int)
        /// Each with this probability, drawn from a generator seeded with `seed` (a run is replayed with the same seed).
        case probability(Double, seed: UInt64)
    }

    /// What a request must be for the rule to concern it; nil matches anything.
    public struct Match: Sendable, Equatable {
        /// `apns` or `fcm`.
        public var service: String?
        /// The device token (APNs' path, FCM's `message.token`), or its beginning followed by `*`.
        public var token: String?
        /// `apns-topic`, or FCM's `message.topic`.
        public var topic: String?
        /// FCM's project (the URL's).
        public var project: String?
        /// `apns-push-type`.
        public var pushType: String?
        /// A device of the fleet by name (its tokens).
        public var device: String?

        /// Matches anything.
        public init() {}

        var isEmpty: Bool { self == Match() }
        /// Whether matching needs the request's body (FCM's token and topic).
        var needsBody: Bool { token != nil || topic != nil || device != nil }
    }

    /// The fault.
    public var fault: Fault
    /// When it fires.
    public var trigger: Trigger = .always
    /// Which requests.
    public var match = Match()
    /// `Retry-After`: seconds, or an HTTP date this many seconds from when it is answered.
    public var retryAfter: RetryAfter?
    /// The push is stored and delivered, and the failure answered all the same (duplicates).
    public var accepted = false

    /// `Retry-After` as seconds or as an HTTP date.
    public enum RetryAfter: Sendable, Equatable {
        case seconds(Int)
        /// An HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`) this many seconds after the answer.
        case dateIn(Int)

        /// The header's value for an answer given at `now`.
        public func value(at now: Date) -> String {
            switch self {
            case .seconds(let s): return String(s)
            case .dateIn(let s): return HTTPDate.string(now.addingTimeInterval(Double(s)))
            }
        }
    }

    /// A rule.
    public init(fault: Fault) { self.fault = fault }
}

/// Real quotas, as token buckets.
public enum ChaosQuota {
    /// What a bucket is kept for.
    public enum Scope: String, Sendable, CaseIterable {
        case device, topic, project

        /// FCM's documented rate for the scope: 240 messages a minute to one device, 600,000 a
        /// minute for a project; for a topic Google documents no send rate (fan-outs are limited
        /// to 1,000 at once per project): pushbox's choice is 1,000 a minute.
        public var defaultRate: (limit: Int, perSeconds: Int) {
            switch self {
            case .device: (240, 60)
            case .topic: (1000, 60)
            case .project: (600_000, 60)
            }
        }
    }
}
