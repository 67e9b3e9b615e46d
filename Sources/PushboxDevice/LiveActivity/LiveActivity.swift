import PushboxJSON
import PushboxPayload

/// How a Live Activity stands on the device clock.
public enum ActivityPhase: String, Sendable {
    /// Running, its content current.
    case active
    /// Running, past its `stale-date` (`ActivityState.stale`).
    case stale
    /// Ended, still on the Lock Screen until dismissed.
    case ended
    /// Removed from the Lock Screen and the Dynamic Island.
    case dismissed
}

/// One push (or local request) an activity received, applied or dropped, and why.
public struct ActivityEvent: Sendable, Equatable {
    /// When the device took it (device clock, UNIX seconds).
    public var at: Double
    /// Its apns-id (nil for a local request).
    public var apnsID: String?
    /// `start`, `update`, `end`, or what was sent.
    public var event: String
    /// `aps.timestamp`.
    public var timestamp: Double?
    /// `apns-priority`.
    public var priority: Int
    /// Whether the device applied it.
    public var applied: Bool
    /// Why not.
    public var drop: ActivityDrop?
    /// What happened, for people.
    public var detail: String
    /// The alert it lit, in a few words (title — body).
    public var alert: String?
}

/// A Live Activity on the simulated device.
public struct LiveActivity: Sendable, Equatable {
    /// `Activity.id`.
    public var id: String
    /// The `ActivityAttributes` type's name.
    public var type: String
    /// The static attributes, as the app encodes them.
    public var attributes: JSONValue
    /// The current content state.
    public var state: JSONValue
    /// The token that addresses its updates and its end; nil when it asked for none.
    public var pushToken: String?
    /// The broadcast channel it listens to (iOS 18).
    public var channel: String?
    /// When it started (device clock, UNIX seconds).
    public var startedAt: Double
    /// `push-to-start` or `app`.
    public var startedBy: String
    /// `stale-date` of its current content.
    public var staleDate: Double?
    /// `relevance-score` of its current content.
    public var relevance: Double = 0
    /// When it ended by a push or the app.
    public var endedAt: Double?
    /// When an ended activity leaves the Lock Screen.
    public var dismissAt: Double?
    /// The latest timestamp applied.
    public var lastTimestamp: Double?
    /// Its pushes, oldest first (the latest `timelineKept`).
    public var timeline: [ActivityEvent] = []

    /// How long an activity runs before the system ends it: 8 hours.
    public static let maxActive = 8 * 3600.0
    /// How long an ended activity stays on the Lock Screen by default, and at most: 4 hours.
    public static let maxLingering = 4 * 3600.0
    /// How many events an activity keeps.
    public static let timelineKept = 200

    /// When it ended, by a push or by itself, at `now`; nil while it runs.
    public func end(at now: Double) -> Double? {
        if let endedAt { return endedAt }
        let limit = startedAt + Self.maxActive
        return now >= limit ? limit : nil
    }

    /// When it leaves the Lock Screen, once it has ended at `now`: its dismissal date, or 4 hours
    /// after it ended by itself; nil while it runs.
    public func dismissal(at now: Double) -> Double? {
        end(at: now).map { dismissAt ?? $0 + Self.maxLingering }
    }

    /// Its phase at `now`.
    public func phase(at now: Double) -> ActivityPhase {
        if let dismissal = dismissal(at: now) { return now >= dismissal ? .dismissed : .ended }
        if let staleDate, now >= staleDate { return .stale }
        return .active
    }

    /// Adds an event, keeping the latest `timelineKept`.
    mutating func record(_ event: ActivityEvent) {
        timeline.append(event)
        if timeline.count > Self.timelineKept { timeline.removeFirst(timeline.count - Self.timelineKept) }
    }

    /// The lock-screen line of `template` (`{attributes.team} {state.score}`): each `{path}`
    /// replaced by the value at that path, `?` where there is none.
    public func line(_ template: String) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let path = rest[rest.index(after: open)..<close].split(separator: ".").map(String.init)
            var value: JSONValue? = nil
            if let head = path.first {
                value = head == "attributes" ? attributes : head == "state" ? state : nil
                for key in path.dropFirst() { value = value?.objectValue?[key] }
            }
            out += value.map(Self.text(of:)) ?? "?"
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// A value as the line shows it: strings bare, everything else as JSON.
    static func text(of value: JSONValue) -> String {
        value.stringValue ?? JSONWriter.compact(value)
    }
}
