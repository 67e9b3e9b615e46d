import PushboxJSON

/// The codes of the payload's rules (`PayloadRules`, `HeaderRules`, `FCMRules`, `Validator`),
/// the service extension's steps, the renderer and the payload linter.
extension Diagnostic.Code {
    /// A field of `aps.alert` has the wrong type.
    public static let alertFieldType = Self(rawValue: "alert-field-type")
    /// `aps.alert` is neither a string nor a dictionary.
    public static let alertType = Self(rawValue: "alert-type")
    /// A field of `aps` has the wrong type.
    public static let apsFieldType = Self(rawValue: "aps-field-type")
    /// The extension's argument array is not an array.
    public static let argsNotArray = Self(rawValue: "args-not-array")
    /// An attachment could not be downloaded or used.
    public static let attachment = Self(rawValue: "attachment")
    /// The attachment cache could not be written.
    public static let attachmentCache = Self(rawValue: "attachment-cache")
    /// A background push with priority 10.
    public static let backgroundPriority = Self(rawValue: "background-priority")
    /// A background push type with an alert.
    public static let backgroundWithAlert = Self(rawValue: "background-with-alert")
    /// `badge` is not a number.
    public static let badgeType = Self(rawValue: "badge-type")
    /// A key in camelCase where APNs' is hyphenated (`locKey`).
    public static let camelcaseKey = Self(rawValue: "camelcase-key")
    /// `content-available` together with an alert.
    public static let contentAvailableWithAlert = Self(rawValue: "content-available-with-alert")
    /// A key of the app's own inside `aps`.
    public static let customKeyInAps = Self(rawValue: "custom-key-in-aps")
    /// An FCM condition written with double quotes.
    public static let fcmConditionDoubleQuotes = Self(rawValue: "fcm-condition-double-quotes")
    /// An FCM message with data only: nothing is shown on iOS.
    public static let fcmDataOnly = Self(rawValue: "fcm-data-only")
    /// An FCM image without `mutable-content`, so no extension attaches it.
    public static let fcmImageWithoutExtension = Self(rawValue: "fcm-image-without-extension")
    /// A flag (`mutable-content`, `content-available`) with a value other than 1.
    public static let flagValue = Self(rawValue: "flag-value")
    /// An `interruption-level` iOS does not know.
    public static let interruptionLevel = Self(rawValue: "interruption-level")
    /// A literal and a loc-key for the same field.
    public static let literalAndLocKey = Self(rawValue: "literal-and-loc-key")
    /// `loc-args` that are not an array of strings.
    public static let locArgsType = Self(rawValue: "loc-args-type")
    /// `loc-args` without their `loc-key`.
    public static let locArgsWithoutKey = Self(rawValue: "loc-args-without-key")
    /// A fired local notification's attachment file is gone.
    public static let localAttachmentGone = Self(rawValue: "local-attachment-gone")
    /// An attachment URL without a scheme.
    public static let mediaUrlNoScheme = Self(rawValue: "media-url-no-scheme")
    /// A loc-key to localize, and no app localizations to look it up in.
    public static let noLocalizations = Self(rawValue: "no-localizations")
    /// An alert push with nothing to show.
    public static let nothingToShow = Self(rawValue: "nothing-to-show")
    /// A payload's loc-args do not fit its key's format (lint).
    public static let payloadArgs = Self(rawValue: "payload-args")
    /// A payload's loc-key is missing from the app's strings (lint).
    public static let payloadKeyMissing = Self(rawValue: "payload-key-missing")
    /// A payload APNs refuses, so its keys are not checked (lint).
    public static let payloadRejected = Self(rawValue: "payload-rejected")
    /// `relevance-score` outside 0…1.
    public static let relevanceScore = Self(rawValue: "relevance-score")
    /// `sound` is neither a string nor a dictionary.
    public static let soundType = Self(rawValue: "sound-type")
    /// An `aps.alert` key iOS does not know.
    public static let unknownAlertKey = Self(rawValue: "unknown-alert-key")
    /// A category the app does not declare.
    public static let unknownCategory = Self(rawValue: "unknown-category")
    /// An `apns-` header APNs does not know.
    public static let unknownHeader = Self(rawValue: "unknown-header")
    /// A file or folder that cannot be read (lint).
    public static let unreadable = Self(rawValue: "unreadable")
    /// A warning stored before codes were kept, read back without one.
    public static let warning = Self(rawValue: "warning")
}

// Android: the FCM SDK building the notification, and where the two phones differ.
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
    /// The iPhone shows a communication card; Android shows the FCM SDK's plain notification.
    public static let androidConversation = Self(rawValue: "android-conversation")
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
