import Foundation
import PushboxJSON

/// The checks on an APNs payload's content: the one refusal (no `aps` dictionary) and the
/// warnings for what APNs accepts but a device mishandles.
public enum PayloadRules {
    static let apsKeys = KeyList([
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "target-content-id", "interruption-level", "relevance-score", "filter-criteria",
        "stale-date", "content-state", "timestamp", "dismissal-date", "event", "attributes-type",
        "attributes", "input-push-channel", "input-push-token", "url-args",
    ])
    static let alertKeys = KeyList([
        "title", "subtitle", "body", "launch-image", "title-loc-key", "title-loc-args",
        "subtitle-loc-key", "subtitle-loc-args", "loc-key", "loc-args", "action-loc-key", "action",
        "summary-arg", "summary-arg-count",
    ])
    /// The alert's keys whose values must be strings, then its three argument lists.
    private static let alertChecked = KeyList([
        "title", "subtitle", "body", "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key", "action-loc-key",
        "title-loc-args", "subtitle-loc-args", "loc-args",
    ])
    /// `aps` keys whose values `apsValueWarnings` checks, read in one pass.
    private static let apsChecked = KeyList([
        "badge", "sound", "content-available", "mutable-content", "thread-id", "category", "target-content-id", "filter-criteria",
        "interruption-level", "relevance-score", "alert",
    ])
    public static let interruptionLevels = ["passive", "active", "time-sensitive", "critical"]

    /// The `aps` dictionary, or the refusal APNs-bound devices give a payload without one.
    static func aps(of payload: JSONObject) -> Result<JSONObject, Rejection> {
        guard let value = payload["aps"] else {
            // A schedule file sent or dropped where pushes go: say where it belongs.
            let hint = payload["requests"]?.arrayValue != nil ? " (this looks like a local notification schedule: use pushbox schedule FILE)" : ""
            return .failure(
                Rejection(.payloadEmpty, "the payload has no \"aps\" dictionary, so the device has nothing to deliver\(hint)", cause: .noAps))
        }
        guard let aps = value.objectValue else {
            return .failure(Rejection(.payloadEmpty, "\"aps\" must be a dictionary, not \(value.typeDescription)", cause: .apsNotADictionary))
        }
        return .success(aps)
    }

    /// Every warning for a payload sent with the given push type and priority; the repeated keys
    /// are looked for only when the payload `mayRepeatKeys` (as its parser said).
    static func warnings(payload: JSONObject, aps: JSONObject, pushType: PushType, priority: String?, mayRepeatKeys: Bool = true) -> [Diagnostic] {
        var out: [Diagnostic] = []
        if mayRepeatKeys {
            var path: [String] = []
            duplicateKeyWarnings(.object(payload), path: &path, into: &out)
        }
        // A Live Activity's alert is its own: title and body may be {loc-key, loc-args}, the sound inside.
        if pushType != .liveactivity { alertWarnings(aps["alert"], into: &out) }
        out += LiveActivityRules.warnings(aps: aps, pushType: pushType)
        apsKeyWarnings(aps, into: &out)
        apsValueWarnings(aps, liveActivity: pushType == .liveactivity, into: &out)
        pushTypeWarnings(aps, pushType: pushType, priority: priority, into: &out)
        return out
    }

    /// Warns about every repeated key, naming its path; the path is only spelled out for a warning.
    private static func duplicateKeyWarnings(_ value: JSONValue, path: inout [String], into out: inout [Diagnostic]) {
        // One path, grown and shrunk on the way down and back: a copy per level cost every push
        // an array for each nested object and array, for warnings that almost never come.
        switch value {
        case .object(let object):
            for key in object.duplicateKeys {
                let field = (path + [key]).joined(separator: ".")
                out.append(
                    Diagnostic(
                        .duplicateKey, "\(field) appears more than once; which one a device keeps is not defined (pushbox uses the last)",
                        field: field))
            }
            for entry in object.entries {
                switch entry.value {
                case .object, .array:
                    path.append(entry.key)
                    duplicateKeyWarnings(entry.value, path: &path, into: &out)
                    path.removeLast()
                default: break
                }
            }
        case .array(let elements):
            let added = path.isEmpty
            if added { path.append("") }
            let name = path[path.count - 1]
            for (i, element) in elements.enumerated() {
                switch element {
                case .object, .array:
                    path[path.count - 1] = name + "[\(i)]"
                    duplicateKeyWarnings(element, path: &path, into: &out)
                default: break
                }
            }
            if added { path.removeLast() } else { path[path.count - 1] = name }
        default:
            break
        }
    }

    private static func alertWarnings(_ alert: JSONValue?, into out: inout [Diagnostic]) {
        guard let alert else { return }
        if case .string = alert { return }
        guard let dict = alert.objectValue else {
            out.append(
                Diagnostic(
                    .alertType,
                    "aps.alert is \(alert.typeDescription); it must be a string (the body) or a dictionary, so the device shows no alert text",
                    field: "aps.alert"))
            return
        }
        // One pass over the alert's entries for every key the checks read (the last value of a repeat).
        let values = alertChecked.find(in: dict)
        for i in 0..<8 {
            if let v = values[i], v.stringValue == nil, v != .null {
                let key = alertChecked.keys[i]
                out.append(Diagnostic(.alertFieldType, "aps.alert.\(key) is \(v.typeDescription); it must be a string", field: "aps.alert.\(key)"))
            }
        }
        // title-loc-args, subtitle-loc-args, loc-args (8–10) beside title-loc-key, subtitle-loc-key, loc-key (4–6).
        for i in 8..<11 {
            guard let v = values[i] else { continue }
            let args = alertChecked.keys[i]
            let ok = v.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false
            if !ok {
                out.append(
                    Diagnostic(
                        .locArgsType,
                        "aps.alert.\(args) must be an array of strings, not \(describeArray(v)); iOS may drop the alert or show the format unfilled",
                        field: "aps.alert.\(args)"))
            }
            let key = alertChecked.keys[i - 4]
            if values[i - 4] == nil {
                out.append(
                    Diagnostic(
                        .locArgsWithoutKey, "aps.alert.\(args) is set but aps.alert.\(key) is not; the arguments are ignored",
                        field: "aps.alert.\(args)"))
            }
        }
        // title and title-loc-key (0, 4), subtitle and subtitle-loc-key (1, 5), body and loc-key (2, 6).
        for literal in 0..<3 where values[literal] != nil && values[literal + 4] != nil {
            let (name, key) = (alertChecked.keys[literal], alertChecked.keys[literal + 4])
            out.append(
                Diagnostic(
                    .literalAndLocKey, "aps.alert has both \(name) and \(key); the device shows the localized \(key) and ignores \(name)",
                    field: "aps.alert"))
        }
        for entry in dict.entries where !alertKeys.contains(entry.key) {
            let key = entry.key
            if let known = kebabForm(of: key), alertKeys.contains(known) {
                out.append(Diagnostic(.camelcaseKey, "aps.alert.\(key) is ignored by iOS; the key is \"\(known)\"", field: "aps.alert.\(key)"))
            } else {
                out.append(Diagnostic(.unknownAlertKey, "aps.alert.\(key) is not an alert key; iOS ignores it", field: "aps.alert.\(key)"))
            }
        }
    }

    private static func describeArray(_ v: JSONValue) -> String {
        guard let a = v.arrayValue else { return v.typeDescription }
        let odd = a.first { $0.stringValue == nil }
        return "an array holding \(odd?.typeDescription ?? "other values")"
    }

    private static func apsKeyWarnings(_ aps: JSONObject, into out: inout [Diagnostic]) {
        for entry in aps.entries where !apsKeys.contains(entry.key) {
            let key = entry.key
            if let known = kebabForm(of: key), apsKeys.contains(known) {
                out.append(Diagnostic(.camelcaseKey, "aps.\(key) is ignored by iOS; the key is \"\(known)\"", field: "aps.\(key)"))
            } else {
                out.append(
                    Diagnostic(
                        .customKeyInAps,
                        "aps.\(key) is not an APNs key; APNs ignores custom keys inside aps (put them beside aps), though an app can still read them",
                        field: "aps.\(key)"))
            }
        }
    }

    /// `liveActivity`: a Live Activity's relevance score is any number (25, 50, 100), not 0–1.
    private static func apsValueWarnings(_ aps: JSONObject, liveActivity: Bool, into out: inout [Diagnostic]) {
        // One pass over aps's entries for every key below (`apsChecked`'s order).
        let values = apsChecked.find(in: aps)
        if let badge = values[0], badge.intValue.map({ $0 >= 0 }) != true {
            out.append(
                Diagnostic(
                    .badgeType,
                    "aps.badge is \(describeValue(badge)); it must be a whole number 0 or more (0 clears the badge), so the badge is left unchanged",
                    field: "aps.badge"))
        }
        if let sound = values[1] { soundWarnings(sound, into: &out) }
        for i in 2..<4 {
            let key = apsChecked.keys[i]
            if let v = values[i], v.intValue != 1 {
                out.append(
                    Diagnostic(
                        .flagValue, "aps.\(key) is \(describeValue(v)); iOS looks for the number 1 (other values are unconfirmed to work)",
                        field: "aps.\(key)"))
            }
        }
        for i in 4..<8 {
            let key = apsChecked.keys[i]
            if let v = values[i], v.stringValue == nil {
                out.append(Diagnostic(.apsFieldType, "aps.\(key) is \(v.typeDescription); it must be a string", field: "aps.\(key)"))
            }
        }
        if let level = values[8], !interruptionLevels.contains(level.stringValue ?? "") {
            out.append(
                Diagnostic(
                    .interruptionLevel,
                    "aps.interruption-level is \(describeValue(level)); it must be one of \(interruptionLevels.joined(separator: ", ")), so iOS uses active",
                    field: "aps.interruption-level"))
        }
        if let score = values[9] {
            if let d = score.doubleValue, liveActivity || (0...1).contains(d) {
            } else {
                out.append(
                    Diagnostic(
                        .relevanceScore, "aps.relevance-score is \(describeValue(score)); it must be a number from 0 to 1",
                        field: "aps.relevance-score"))
            }
        }
        if values[2] != nil, values[10] != nil {
            out.append(
                Diagnostic(
                    .contentAvailableWithAlert,
                    "aps.content-available is set together with an alert; iOS may treat it as a visible push and not wake the app in the background",
                    field: "aps.content-available"))
        }
    }

    private static func soundWarnings(_ sound: JSONValue, into out: inout [Diagnostic]) {
        if sound.stringValue != nil { return }
        guard let dict = sound.objectValue else {
            out.append(
                Diagnostic(
                    .soundType, "aps.sound is \(sound.typeDescription); it must be a string (\"default\" or a file name) or a dictionary",
                    field: "aps.sound"))
            return
        }
        if let name = dict["name"], name.stringValue == nil {
            out.append(Diagnostic(.soundType, "aps.sound.name is \(name.typeDescription); it must be a string", field: "aps.sound.name"))
        }
        if let critical = dict["critical"], ![0, 1].contains(critical.intValue ?? -1) {
            out.append(Diagnostic(.soundType, "aps.sound.critical is \(describeValue(critical)); it must be 0 or 1", field: "aps.sound.critical"))
        }
        if let volume = dict["volume"] {
            if let v = volume.doubleValue, (0...1).contains(v) {
            } else {
                out.append(
                    Diagnostic(.soundType, "aps.sound.volume is \(describeValue(volume)); it must be a number from 0 to 1", field: "aps.sound.volume")
                )
            }
        }
    }

    private static func pushTypeWarnings(_ aps: JSONObject, pushType: PushType, priority: String?, into out: inout [Diagnostic]) {
        let visible = aps["alert"] != nil || aps["badge"] != nil || aps["sound"] != nil
        switch pushType {
        case .background:
            if priority == nil || priority == "10" {
                out.append(
                    Diagnostic(
                        .backgroundPriority,
                        "a background push must be sent with apns-priority 5 (\(priority == nil ? "absent means 10" : "10 given")); APNs may reject it or the device may not deliver it"
                    ))
            }
            if visible {
                out.append(
                    Diagnostic(
                        .backgroundWithAlert, "push type background carries an alert, badge or sound; use push type alert for visible notifications"))
            }
        case .alert:
            if !visible && aps["content-available"] == nil {
                out.append(Diagnostic(.nothingToShow, "push type alert with no alert, badge, sound or content-available: the device shows nothing"))
            }
        default:
            break
        }
    }

    private static func describeValue(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return "the string \"\(s.count > 40 ? String(s.prefix(37)) + "…" : s)\""
        case .number(let n): return n
        case .bool(let b): return "the boolean \(b)"
        default: return v.typeDescription
        }
    }

    /// `mutableContent` → `mutable-content`; nil when the key has no capital letter.
    static func kebabForm(of key: String) -> String? {
        guard key.contains(where: { $0.isUppercase }) else { return nil }
        var out = ""
        for c in key {
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
        return out.replacingOccurrences(of: "-i-d", with: "-id")
    }
}
