import Foundation
import PushboxJSON

/// FCM's checks of a message's `android` block, answered 400 INVALID_ARGUMENT with the field
/// at fault: type errors in the wording of Google's proto3 JSON errors
/// (`Invalid value at 'message.android.data[0].value' (TYPE_STRING), 1`); what the Admin SDKs
/// check before sending (a colour, loc args without a loc key, the image URL, the event time,
/// light settings) in their words (firebase-admin-node `validateAndroidNotification`), since
/// FCM's own words for them are unconfirmed.
package enum FCMAndroidRules {
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
        // The Admin SDKs send enums in lowercase ("high"); FCM takes either case.
        func known(_ v: JSONValue, _ values: [String]) -> Bool { v.stringValue.map { values.contains($0.uppercased()) } ?? false }
        if let p = android["priority"], !known(p, priorities) {
            throw invalid("message.android.priority", "TYPE_ENUM", p)
        }
        if let ttl = android["ttl"], ttl.stringValue.flatMap(seconds(ofDuration:)) == nil {
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
        func sdk(_ field: String, _ message: String) -> Rejection {
            Rejection(.invalidArgument, message, field: "message.android.notification.\(field)")
        }
        if let c = o["color"]?.stringValue, !AndroidProfile.isColor(c) {
            throw sdk("color", "android.notification.color must be in the form #RRGGBB")
        }
        for (args, key, name) in [("body_loc_args", "body_loc_key", "bodyLocKey"), ("title_loc_args", "title_loc_key", "titleLocKey")]
        where o[args]?.arrayValue?.isEmpty == false && o[key] == nil {
            throw sdk(args, "android.notification.\(name) is required when specifying \(name.dropLast(3))Args")
        }
        if let image = o["image"]?.stringValue, URL(string: image).map({ ["http", "https"].contains($0.scheme ?? "") && $0.host != nil }) != true {
            throw sdk("image", "android.notification.imageUrl must be a valid URL string")
        }
        if let t = o["event_time"]?.stringValue, ISO8601DateFormatter.rfc3339(t) == nil {
            throw sdk("event_time", "android.notification.eventTimestamp must be a valid `Date` object")
        }
        if let v = o["vibrate_timings"] {
            guard let list = v.arrayValue, !list.isEmpty else {
                throw sdk("vibrate_timings", "android.notification.vibrateTimingsMillis must be a non-empty array of numbers")
            }
            for item in list where item.stringValue.flatMap(seconds(ofDuration:)) == nil {
                throw sdk("vibrate_timings", "android.notification.vibrateTimingsMillis must be non-negative durations in milliseconds")
            }
        }
        for (key, values) in [("notification_priority", notificationPriorities), ("visibility", visibilities), ("proxy", proxies)] {
            if let v = o[key], !known(v, values) { throw invalid("message.android.notification.\(key)", "TYPE_ENUM", v) }
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
            for (key, name) in [("light_on_duration", "lightOnDurationMillis"), ("light_off_duration", "lightOffDurationMillis")]
            where l?[key]?.stringValue.flatMap(seconds(ofDuration:)) == nil {
                throw Rejection(
                    .invalidArgument, "android.notification.lightSettings.\(name) must be a non-negative duration in milliseconds",
                    field: "message.android.notification.light_settings.\(key)")
            }
        }
    }

    /// Seconds of a protobuf JSON duration (`"3.5s"`), nil when it is not one.
    package static func seconds(ofDuration text: String) -> TimeInterval? {
        guard text.hasSuffix("s"), let value = Double(text.dropLast()), value >= 0, value.isFinite else { return nil }
        return value
    }
}

extension ISO8601DateFormatter {
    /// An RFC 3339 timestamp (`2026-12-01T10:00:00Z`, with or without fractional seconds).
    static func rfc3339(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let d = plain.date(from: text) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
