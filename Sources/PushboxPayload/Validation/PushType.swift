import PushboxJSON

/// The values of `apns-push-type`, with what each implies for size and topic.
public enum PushType: String, Sendable, CaseIterable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls

    /// The largest body APNs accepts, in UTF-8 bytes.
    public var maxPayloadBytes: Int { self == .voip ? 5120 : 4096 }

    /// The suffix APNs expects after the bundle id in `apns-topic`, if any.
    public var topicSuffix: String? {
        switch self {
        case .alert, .background, .mdm: return nil
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .location: return ".location-query"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// The bundle id in an `apns-topic`: the topic without its push-type suffix (`.voip`,
    /// `.push-type.liveactivity`, …). No suffix ends another, so the first that matches is the one.
    public static func bundleID(fromTopic topic: String) -> String {
        guard let suffix = allCases.lazy.compactMap(\.topicSuffix).first(where: { topic.hasSuffix($0) }) else { return topic }
        return String(topic.dropLast(suffix.count))
    }

    /// What APNs assumes when the header is absent: `background` for a push that only wakes
    /// the app (`content-available` without alert, badge or sound), else `alert`.
    public static func inferred(from aps: JSONObject?) -> PushType {
        guard let aps else { return .alert }
        let visible = aps["alert"] != nil || aps["badge"] != nil || aps["sound"] != nil
        return !visible && aps["content-available"] != nil ? .background : .alert
    }
}
