import PushboxJSON

/// The codes of the payload's rules (`PayloadRules`, `HeaderRules`, `FCMRules`, `Validator`),
/// the service extension's steps, the renderer and the payload linter.
extension Diagnostic.Code {
    public static let alertFieldType = Self("alert-field-type", .warning, "A field of `aps.alert` has the wrong type.")
    public static let alertType = Self("alert-type", .warning, "`aps.alert` is neither a string nor a dictionary.")
    public static let apsFieldType = Self("aps-field-type", .warning, "A field of `aps` has the wrong type.")
    public static let argsNotArray = Self("args-not-array", .warning, "The extension's argument array is not an array.")
    public static let attachment = Self("attachment", .warning, "An attachment could not be downloaded or used.")
    public static let attachmentCache = Self("attachment-cache", .warning, "The attachment cache could not be written.")
    public static let backgroundPriority = Self("background-priority", .warning, "A background push with priority 10.")
    public static let backgroundWithAlert = Self("background-with-alert", .warning, "A background push type with an alert.")
    public static let badgeType = Self("badge-type", .warning, "`badge` is not a number.")
    public static let camelcaseKey = Self("camelcase-key", .warning, "A key in camelCase where APNs' is hyphenated (`locKey`).")
    public static let contentAvailableWithAlert = Self("content-available-with-alert", .warning, "`content-available` together with an alert.")
    public static let customKeyInAps = Self("custom-key-in-aps", .warning, "A key of the app's own inside `aps`.")
    public static let fcmConditionDoubleQuotes = Self("fcm-condition-double-quotes", .warning, "An FCM condition written with double quotes.")
    public static let fcmDataOnly = Self("fcm-data-only", .warning, "An FCM message with data only: nothing is shown on iOS.")
    public static let fcmImageWithoutExtension = Self(
        "fcm-image-without-extension", .warning,
        "An FCM image without `mutable-content`, so no extension attaches it.")
    public static let flagValue = Self("flag-value", .warning, "A flag (`mutable-content`, `content-available`) with a value other than 1.")
    public static let interruptionLevel = Self("interruption-level", .warning, "An `interruption-level` iOS does not know.")
    public static let literalAndLocKey = Self("literal-and-loc-key", .warning, "A literal and a loc-key for the same field.")
    public static let locArgsType = Self("loc-args-type", .warning, "`loc-args` that are not an array of strings.")
    public static let locArgsWithoutKey = Self("loc-args-without-key", .warning, "`loc-args` without their `loc-key`.")
    public static let localAttachmentGone = Self("local-attachment-gone", .warning, "A fired local notification's attachment file is gone.")
    public static let mediaUrlNoScheme = Self("media-url-no-scheme", .warning, "An attachment URL without a scheme.")
    public static let noLocalizations = Self("no-localizations", .warning, "A loc-key to localize, and no app localizations to look it up in.")
    public static let nothingToShow = Self("nothing-to-show", .warning, "An alert push with nothing to show.")
    public static let payloadArgs = Self("payload-args", .warning, "A payload's loc-args do not fit its key's format (lint).")
    public static let payloadKeyMissing = Self("payload-key-missing", .error, "A payload's loc-key is missing from the app's strings (lint).")
    public static let payloadRejected = Self("payload-rejected", .warning, "A payload APNs refuses, so its keys are not checked (lint).")
    public static let relevanceScore = Self("relevance-score", .warning, "`relevance-score` outside 0…1.")
    public static let soundType = Self("sound-type", .warning, "`sound` is neither a string nor a dictionary.")
    public static let unknownAlertKey = Self("unknown-alert-key", .warning, "An `aps.alert` key iOS does not know.")
    public static let unknownCategory = Self("unknown-category", .warning, "A category the app does not declare.")
    public static let unknownHeader = Self("unknown-header", .warning, "An `apns-` header APNs does not know.")
    public static let unreadable = Self("unreadable", .error, "A file or folder that cannot be read (lint).")
    public static let warning = Self("warning", .warning, "A warning stored before codes were kept, read back without one.")
}

// Android: the FCM SDK building the notification, and where the two phones differ.
extension Diagnostic.Code {
    public static let androidMissingResource = Self(
        "android-missing-resource", .warning,
        "A `*_loc_key` names no `<string>` in any folder: Android shows no title (or text).")
    public static let androidUnreachableResource = Self(
        "android-unreachable-resource", .warning,
        "A `*_loc_key` names a `<plurals>` or `<string-array>`, which loc keys cannot reach.")
    public static let androidFormatException = Self(
        "android-format-exception", .error,
        "The string's format cannot take the (string) loc args: the app throws.")
    public static let androidMissingArgument = Self(
        "android-missing-argument", .warning,
        "Fewer loc args than specifiers: the SDK catches the exception and sets no text.")
    public static let androidNoDefault = Self("android-no-default", .warning, "A string exists only outside `values/`: the build removes it.")
    public static let androidUnknownChannel = Self("android-unknown-channel", .warning, "The message's channel is not one the app creates.")
    public static let androidNotShown = Self(
        "android-not-shown", .warning,
        "The app is in the foreground, or the message carries only data: nothing is shown.")
    public static let androidLockScreen = Self(
        "android-lock-screen", .warning,
        "`visibility` hides the content (private) or everything (secret) on a secure lock screen.")
    public static let androidImage = Self("android-image", .warning, "The image is not shown (too big, too slow, not an image).")
    public static let platformDivergence = Self("platform-divergence", .warning, "The iPhone and the Android phone show this message differently.")
    public static let androidConversation = Self(
        "android-conversation", .warning,
        "The iPhone shows a communication card; Android shows the FCM SDK's plain notification.")
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

/// The payload's rules', the service extension's, the renderer's, the presentation's and Live Activities' codes, for the reference page (a test checks it holds every code declared in the module).
extension Diagnostic.Code {
    public static let payloadCatalog: [Self] = [
        .communicationCapability,
        .communicationAvatarFileURL,
        .communicationAvatarFailed,
        .communicationGroupOneToOne,
        .communicationOutgoing,
        .truncated,
        .liveActivityEvent,
        .liveActivityTimestamp,
        .liveActivityMilliseconds,
        .liveActivityMissingField,
        .liveActivityIgnoredKey,
        .liveActivityKeysWithoutType,
        .alertFieldType,
        .alertType,
        .apsFieldType,
        .argsNotArray,
        .attachment,
        .attachmentCache,
        .backgroundPriority,
        .backgroundWithAlert,
        .badgeType,
        .camelcaseKey,
        .contentAvailableWithAlert,
        .customKeyInAps,
        .fcmConditionDoubleQuotes,
        .fcmDataOnly,
        .fcmImageWithoutExtension,
        .flagValue,
        .interruptionLevel,
        .literalAndLocKey,
        .locArgsType,
        .locArgsWithoutKey,
        .localAttachmentGone,
        .mediaUrlNoScheme,
        .noLocalizations,
        .nothingToShow,
        .payloadArgs,
        .payloadKeyMissing,
        .payloadRejected,
        .relevanceScore,
        .soundType,
        .unknownAlertKey,
        .unknownCategory,
        .unknownHeader,
        .unreadable,
        .warning,
        .androidMissingResource,
        .androidUnreachableResource,
        .androidFormatException,
        .androidMissingArgument,
        .androidNoDefault,
        .androidUnknownChannel,
        .androidNotShown,
        .androidLockScreen,
        .androidImage,
        .platformDivergence,
        .androidConversation,
        .timeSensitiveCapability,
        .criticalAlertEntitlement,
        .summaryArgIgnored,
    ]
}
