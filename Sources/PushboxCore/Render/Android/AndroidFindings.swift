import PushboxLocalization
import PushboxText

extension Diagnostic.Code {
    /// A `*_loc_key` names no `<string>` in any folder: Android shows no title (or text).
    public static let androidMissingResource = Self(rawValue: "android-missing-resource")
    /// A `*_loc_key` names a `<plurals>` or `<string-array>`, which loc keys cannot reach.
    public static let androidUnreachableResource = Self(rawValue: "android-unreachable-resource")
    /// The string's format cannot take the (string) loc args: the app throws.
    public static let androidFormatException = Self(rawValue: "android-format-exception")
    /// Fewer loc args than specifiers: the SDK catches the exception and sets no text.
    public static let androidMissingArgument = Self(rawValue: "android-missing-argument")
    /// A string exists only outside `values/`: the build removes it.
    public static let androidNoDefault = Self(rawValue: "android-no-default")
    /// The message's channel is not one the app creates.
    public static let androidUnknownChannel = Self(rawValue: "android-unknown-channel")
    /// The app is in the foreground, or the message carries only data: nothing is shown.
    public static let androidNotShown = Self(rawValue: "android-not-shown")
    /// `visibility` hides the content (private) or everything (secret) on a secure lock screen.
    public static let androidLockScreen = Self(rawValue: "android-lock-screen")
    /// The image is not shown (too big, too slow, not an image).
    public static let androidImage = Self(rawValue: "android-image")
    /// The iPhone and the Android phone show this message differently.
    public static let platformDivergence = Self(rawValue: "platform-divergence")
}

extension TraceEntry.Step {
    /// The FCM Android SDK building the notification.
    public static let android = Self(rawValue: "android")
}

extension TraceEntry.Outcome {
    /// Shown in the tray.
    public static let shown = Self(rawValue: "shown")
    /// Passed to the app only.
    public static let toApp = Self(rawValue: "app")
}

extension AndroidRenderer {
    /// Where the two phones show one message differently.
    func divergences(ios: RenderedNotification, android: AndroidRendering, message: FCMMessage) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let n = message.android?["notification"]?.objectValue ?? JSONObject()
        let alert = message.apnsPayload?["aps"]?.objectValue?["alert"]?.objectValue
        for (field, a, i) in [("title", android.title, ios.title), ("body", android.body, ios.body)] where a != i {
            let literal = n[field]?.stringValue ?? (field == "title" ? message.notificationTitle : message.notificationBody)
            let iosLocalized = alert?[field == "title" ? "title-loc-key" : "loc-key"] != nil
            let why: String
            if let literal, a == literal, iosLocalized {
                why =
                    "Android shows the literal \(field) \"\(literal)\" (a literal beats a loc key there); iOS shows the localized one \(i.map { "\"\($0)\"" } ?? "(none)")"
            } else if a == nil {
                why = "Android shows no \(field); iOS shows \(i.map { "\"\($0)\"" } ?? "none")"
            } else if i == nil {
                why = "Android shows \"\(a!)\"; iOS shows no \(field)"
            } else {
                why = "Android shows \"\(a!)\"; iOS shows \"\(i!)\""
            }
            out.append(Diagnostic(.platformDivergence, why, field: field))
        }
        return out
    }
}
