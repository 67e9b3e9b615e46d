import Foundation
import PushboxJSON

/// What an ActivityKit push says, read from its `aps` (`apns-push-type: liveactivity`).
public struct LiveActivityPush: Sendable, Equatable {
    /// `aps.event`.
    public enum Event: String, Sendable {
        case start
        case update
        case end
    }

    /// The event; nil when `aps.event` is missing or not one of the three.
    public var event: Event?
    /// `aps.event` as sent, when it is not one of the three.
    public var unknownEvent: String?
    /// `aps.timestamp`, UNIX seconds.
    public var timestamp: Double?
    /// `aps.content-state`.
    public var contentState: JSONValue?
    /// `aps.stale-date`, UNIX seconds.
    public var staleDate: Double?
    /// `aps.dismissal-date`, UNIX seconds.
    public var dismissalDate: Double?
    /// `aps.relevance-score`.
    public var relevanceScore: Double?
    /// `aps.attributes-type` (start).
    public var attributesType: String?
    /// `aps.attributes` (start).
    public var attributes: JSONValue?
    /// `aps.alert`.
    public var alert: JSONValue?
    /// `aps.input-push-token: 1` (start): the activity is to produce an update token.
    public var inputPushToken = false
    /// `aps.input-push-channel` (start, iOS 18): the broadcast channel to subscribe to.
    public var inputPushChannel: String?

    /// The push's keys as `aps` holds them.
    public init(aps: JSONObject) {
        if let e = aps["event"] {
            event = e.stringValue.flatMap(Event.init(rawValue:))
            if event == nil { unknownEvent = e.stringValue ?? JSONWriter.compact(e) }
        }
        // A number too large for a Double (1e400) is no date and no score.
        func finite(_ key: String) -> Double? { aps[key]?.doubleValue.flatMap { $0.isFinite ? $0 : nil } }
        timestamp = finite("timestamp")
        contentState = aps["content-state"]
        staleDate = finite("stale-date")
        dismissalDate = finite("dismissal-date")
        relevanceScore = finite("relevance-score")
        attributesType = aps["attributes-type"]?.stringValue
        attributes = aps["attributes"]
        alert = aps["alert"]
        inputPushToken = aps["input-push-token"]?.intValue == 1 || aps["input-push-token"] == .bool(true)
        inputPushChannel = aps["input-push-channel"]?.stringValue
    }

    /// The bytes of `value` as ActivityKit measures them against its 4 KB: compact JSON.
    public static func encodedSize(_ value: JSONValue) -> Int { JSONWriter.compact(value).utf8.count }

    /// The size `value` would have if each fractional number were written with 17 significant
    /// digits, as Foundation's older serializer writes `1.91` (`1.9099999999999999`).
    public static func inflatedSize(_ value: JSONValue) -> Int { JSONWriter.compact(inflated(value)).utf8.count }

    static func inflated(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let text) where text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }):
            guard let d = Double(text), d.isFinite, d.rounded() != d else { return value }
            return .number(seventeenDigits(d))
        case .array(let items): return .array(items.map(inflated))
        case .object(let o): return .object(JSONObject(o.entries.map { ($0.key, inflated($0.value)) }))
        default: return value
        }
    }

    /// `%.17g` of `d`, as `NSJSONSerialization` wrote doubles.
    static func seventeenDigits(_ d: Double) -> String {
        String(format: "%.17g", d)
    }

    /// What ActivityKit and APNs allow a Live Activity's content state and static attributes,
    /// each once encoded: 4 KB (`ActivityAuthorizationError.attributesTooLarge`; a developer
    /// measured 4,096 bytes accepted, 4,097 refused).
    public static let maxEncodedBytes = 4096
}
