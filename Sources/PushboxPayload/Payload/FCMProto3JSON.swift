import PushboxJSON

/// An FCM v1 message read as FCM reads it: proto3 JSON (protobuf.dev, "ProtoJSON Format"), in
/// one place, before anything else looks at the message. `null` means "not set" for any field;
/// a field may be named as the proto writes it (`fcm_options`) or in lowerCamelCase
/// (`fcmOptions`); an enum may be given by name or by number; an int32 or int64 by a number or a
/// string. What it gives is the message with proto names, enum names, numbers and no nulls —
/// except inside the values FCM passes on as they are (`data`, `apns.headers`, `apns.payload`,
/// `webpush`), where a `null` is a value.
enum FCMProto3JSON {
    /// How a field's value is read.
    indirect enum Field {
        /// A message of its own, by its fields' proto names.
        case message([String: Field])
        /// An enum: its names in the order of their numbers.
        case enumeration([String])
        /// An int32 or int64 field: a JSON number, or a string holding one.
        case integer
        /// Anything else (a string, a bool, a Duration, a map or Struct passed on as it is).
        case value
    }

    /// `android.notification` (AndroidNotification).
    static let androidNotification: [String: Field] = [
        "title": .value, "body": .value, "icon": .value, "color": .value, "sound": .value, "tag": .value, "click_action": .value,
        "body_loc_key": .value, "body_loc_args": .value, "title_loc_key": .value, "title_loc_args": .value, "channel_id": .value,
        "ticker": .value, "sticky": .value, "event_time": .value, "local_only": .value,
        "notification_priority": .enumeration(FCMAndroidRules.notificationPriorities), "default_sound": .value,
        "default_vibrate_timings": .value, "default_light_settings": .value, "vibrate_timings": .value,
        "visibility": .enumeration(FCMAndroidRules.visibilities), "notification_count": .integer,
        "light_settings": .message(["color": .value, "light_on_duration": .value, "light_off_duration": .value]), "image": .value,
        "bypass_proxy_notification": .value, "proxy": .enumeration(FCMAndroidRules.proxies),
    ]

    /// `message` (Message), with its `android` (AndroidConfig) and `apns` (ApnsConfig).
    static let message: [String: Field] = [
        "name": .value, "token": .value, "fid": .value, "topic": .value, "condition": .value, "data": .value, "webpush": .value,
        "notification": .message(["title": .value, "body": .value, "image": .value]),
        "fcm_options": .message(["analytics_label": .value]),
        "android": .message([
            "collapse_key": .value, "priority": .enumeration(FCMAndroidRules.priorities), "ttl": .value, "restricted_package_name": .value,
            "data": .value, "notification": .message(androidNotification), "fcm_options": .message(["analytics_label": .value]),
            "direct_boot_ok": .value, "bandwidth_constrained_ok": .value, "restricted_satellite_ok": .value,
        ]),
        "apns": .message([
            "headers": .value, "payload": .value, "fcm_options": .message(["analytics_label": .value, "image": .value]),
            "live_activity_token": .value,
        ]),
    ]

    /// The message as FCM reads it (see the type's summary).
    static func normalized(_ object: JSONObject) -> JSONObject { normalized(object, fields: message) }

    static func normalized(_ object: JSONObject, fields: [String: Field]) -> JSONObject {
        var out = JSONObject()
        for (key, value) in object.entries {
            if value == .null { continue }  // not set
            let name = fields[key] != nil ? key : fields[snakeCase(key)] != nil ? snakeCase(key) : key
            guard out[name] == nil else { continue }  // both spellings given: the first is read
            switch (fields[name], value) {
            case (.message(let inner)?, .object(let o)): out[name] = .object(normalized(o, fields: inner))
            case (.enumeration(let names)?, .number(let n)):
                out[name] = Int(n).flatMap { names.indices.contains($0) ? .string(names[$0]) : nil } ?? value
            case (.integer?, .string(let s)) where Int64(s) != nil: out[name] = .number(s)
            default: out[name] = value
            }
        }
        return out
    }

    /// `lowerCamelCase` as the proto names it: `fcmOptions` → `fcm_options`.
    static func snakeCase(_ name: String) -> String {
        var out = ""
        for c in name {
            if c.isUppercase {
                out += "_" + c.lowercased()
            } else {
                out.append(c)
            }
        }
        return out
    }
}
