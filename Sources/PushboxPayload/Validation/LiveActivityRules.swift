import PushboxJSON

extension Diagnostic.Code {
    public static let liveActivityEvent = Self(
        "live-activity-event", .warning,
        "A Live Activity push without `aps.event`, or with one that is not start, update or end.")
    public static let liveActivityTimestamp = Self("live-activity-timestamp", .warning, "A Live Activity push without `aps.timestamp`.")
    public static let liveActivityMilliseconds = Self(
        "live-activity-milliseconds", .warning,
        "A Live Activity date in milliseconds where ActivityKit reads seconds.")
    public static let liveActivityMissingField = Self(
        "live-activity-missing-field", .warning,
        "A start or update without `content-state`; a start without `attributes-type` or `attributes`.")
    public static let liveActivityIgnoredKey = Self(
        "live-activity-ignored-key", .warning,
        "A key the event ignores (start keys on an update, `dismissal-date` without end, `aps.sound`).")
    public static let liveActivityKeysWithoutType = Self(
        "live-activity-keys-without-type", .warning,
        "Live Activity keys in a push whose type is not `liveactivity`.")
}

/// What APNs accepts in a Live Activity push but the device will drop or ignore: said on
/// arrival, before the device applies it (`ActivityBook`).
enum LiveActivityRules {
    /// The keys only ActivityKit reads.
    static let activityKeys = ["event", "content-state", "attributes-type", "attributes", "input-push-token", "input-push-channel"]
    static let activityKeyList = KeyList(activityKeys)

    /// The warnings for `aps` of a push of type `pushType`.
    static func warnings(aps: JSONObject, pushType: PushType) -> [Diagnostic] {
        guard pushType == .liveactivity else {
            // One pass over aps's keys first: most pushes have none of them (six lookups had
            // each scanned aps).
            guard aps.entries.contains(where: { activityKeyList.contains($0.key) }) else { return [] }
            let found = activityKeys.filter { aps[$0] != nil }
            return [
                Diagnostic(
                    .liveActivityKeysWithoutType,
                    "aps has \(found.map { "\"\($0)\"" }.joined(separator: ", ")), which only a Live Activity reads, but the push type is \(pushType.rawValue): send apns-push-type liveactivity to the topic <bundle>.push-type.liveactivity",
                    field: "aps.\(found[0])")
            ]
        }
        var out: [Diagnostic] = []
        let push = LiveActivityPush(aps: aps)
        func add(_ code: Diagnostic.Code, _ message: String, _ field: String) { out.append(Diagnostic(code, message, field: field)) }
        if push.event == nil {
            add(
                .liveActivityEvent,
                push.unknownEvent.map { "aps.event is \($0); ActivityKit knows start, update and end, so the device drops this push" }
                    ?? "aps.event is missing (start, update or end): the device drops this push", "aps.event")
        }
        if push.timestamp == nil, push.event != .end {
            add(.liveActivityTimestamp, "aps.timestamp (UNIX seconds) is missing: the device drops an update without one", "aps.timestamp")
        }
        for key in ["timestamp", "stale-date", "dismissal-date"] {
            if let t = aps[key]?.doubleValue, t > 100_000_000_000, case .number(let literal)? = aps[key] {
                add(.liveActivityMilliseconds, "aps.\(key) is \(literal): that is milliseconds; ActivityKit reads UNIX seconds", "aps.\(key)")
            }
        }
        if push.event == .start || push.event == .update, push.contentState == nil {
            add(.liveActivityMissingField, "aps.content-state is missing: a \(push.event!.rawValue) needs one", "aps.content-state")
        }
        if let state = push.contentState, state.objectValue == nil {
            add(
                .liveActivityMissingField, "aps.content-state is \(state.typeDescription); a ContentState struct decodes only from an object",
                "aps.content-state")
        }
        if push.event == .start {
            if push.attributesType == nil { add(.liveActivityMissingField, "a start needs aps.attributes-type", "aps.attributes-type") }
            if push.attributes == nil { add(.liveActivityMissingField, "a start needs aps.attributes", "aps.attributes") }
        } else if push.event != nil {
            for key in ["attributes-type", "attributes", "input-push-token", "input-push-channel"] where aps[key] != nil {
                add(.liveActivityIgnoredKey, "aps.\(key) is read only with event start; this \(push.event!.rawValue) ignores it", "aps.\(key)")
            }
        }
        if push.dismissalDate != nil, push.event != .end {
            add(.liveActivityIgnoredKey, "aps.dismissal-date is read only with event end", "aps.dismissal-date")
        }
        if aps["sound"] != nil {
            add(.liveActivityIgnoredKey, "aps.sound is ignored in a Live Activity push: the sound goes inside aps.alert", "aps.sound")
        }
        return out
    }
}
