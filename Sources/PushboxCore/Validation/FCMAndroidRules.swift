import PushboxText

/// FCM's checks of a message's `android` block, answered 400 INVALID_ARGUMENT with the field
/// at fault, in the wording of Google's proto3 JSON errors
/// (`Invalid value at 'message.android.data[0].value' (TYPE_STRING), 1`); FCM's exact words for
/// an enum or a colour are unconfirmed, and pushbox words them the same way.
enum FCMAndroidRules {
    static let priorities = ["NORMAL", "HIGH"]
    static let notificationPriorities = ["PRIORITY_UNSPECIFIED", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_DEFAULT", "PRIORITY_HIGH", "PRIORITY_MAX"]
    static let visibilities = ["VISIBILITY_UNSPECIFIED", "PRIVATE", "PUBLIC", "SECRET"]
    static let proxies = ["PROXY_UNSPECIFIED", "ALLOW", "DENY", "IF_PRIORITY_LOWERED"]
    static let stringFields = [
        "title", "body", "icon", "color", "sound", "tag", "click_action", "body_loc_key", "title_loc_key", "channel_id", "ticker", "image",
        "event_time",
    ]

    static func invalid(_ path: String, _ kind: String, _ value: JSONValue) -> Rejection {
        Rejection(.invalidArgument, "Invalid value at '\(path)' (\(kind)), \(JSONWriter.compact(value))", field: path)
    }

    /// The `android` block's fields FCM checks.
    static func check(_ android: JSONObject?) throws(Rejection) {
        guard let android else { return }
        if let data = android["data"] {
            guard let o = data.objectValue else { throw invalid("message.android.data", "TYPE_MAP", data) }
            for (i, e) in o.entries.enumerated() where e.value.stringValue == nil {
                throw invalid("message.android.data[\(i)].value", "TYPE_STRING", e.value)
            }
        }
        if let p = android["priority"], !(p.stringValue.map(priorities.contains) ?? false) {
            throw invalid("message.android.priority", "TYPE_ENUM", p)
        }
        if let ttl = android["ttl"], ttl.stringValue.flatMap(OfflineStorage.seconds(ofDuration:)) == nil {
            throw invalid("message.android.ttl", "google.protobuf.Duration", ttl)
        }
        guard let n = android["notification"] else { return }
        guard let o = n.objectValue else { throw invalid("message.android.notification", "TYPE_MESSAGE", n) }
        for key in stringFields {
            if let v = o[key], v.stringValue == nil { throw invalid("message.android.notification.\(key)", "TYPE_STRING", v) }
        }
        for key in ["body_loc_args", "title_loc_args"] {
            guard let v = o[key] else { continue }
            guard let items = v.arrayValue else { throw invalid("message.android.notification.\(key)", "TYPE_STRING", v) }
            for (i, item) in items.enumerated() where item.stringValue == nil {
                throw invalid("message.android.notification.\(key)[\(i)]", "TYPE_STRING", item)
            }
        }
        if let c = o["color"]?.stringValue, !AndroidProfile.isColor(c) {
            throw Rejection(
                .invalidArgument, "Invalid value at 'message.android.notification.color': \(c) is not #rrggbb",
                field: "message.android.notification.color")
        }
        for (key, values) in [("notification_priority", notificationPriorities), ("visibility", visibilities), ("proxy", proxies)] {
            if let v = o[key], !(v.stringValue.map(values.contains) ?? false) { throw invalid("message.android.notification.\(key)", "TYPE_ENUM", v) }
        }
        if let v = o["notification_count"], v.intValue == nil { throw invalid("message.android.notification.notification_count", "TYPE_INT32", v) }
        for key in ["sticky", "local_only", "default_sound", "default_vibrate_timings", "default_light_settings"] {
            if let v = o[key], v != .bool(true), v != .bool(false) { throw invalid("message.android.notification.\(key)", "TYPE_BOOL", v) }
        }
        if let ls = o["light_settings"] {
            let l = ls.objectValue
            for key in ["color", "light_on_duration", "light_off_duration"] where l?[key] == nil {
                throw Rejection(
                    .invalidArgument, "message.android.notification.light_settings.\(key) is required",
                    field: "message.android.notification.light_settings.\(key)")
            }
        }
    }
}
