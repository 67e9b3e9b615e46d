/// Every key `pushbox.json` may hold, object by object, with its type and meaning: the readers
/// take their known keys from it (a key not declared here is refused as unknown), and the
/// reference page `docs/reference/profile.md` is generated from it.
public enum ProfileSchema {
    /// One key of one object of the profile.
    public struct Field: Sendable {
        /// The object it is in, as a path (`""` the top level, `categories.ID`, `extension.steps[]`).
        public var object: String
        /// The key.
        public var key: String
        /// Its JSON type, in words (`string`, `[string]`, `"any" | "strict"`).
        public var type: String
        /// What it does.
        public var meaning: String
    }

    /// The objects in the order the page lists them, each with a sentence.
    public static let objects: [(path: String, about: String)] = [
        ("", "The top level of `pushbox.json`."),
        ("providerKeys[]", "An APNs provider key whose tokens the TCP port verifies."),
        ("categories.ID", "A notification category (`UNNotificationCategory`), by its identifier."),
        ("categories.ID.actions[]", "An action of the category (`UNNotificationAction`)."),
        ("extension", "The Notification Service Extension's recipe: what the app's extension does with a push."),
        ("extension.steps[]", "A step of the recipe; the keys of its `type` follow."),
        ("extension.steps[type=decrypt]", "Decrypts a field sealed with AES-256-GCM (`pushbox encrypt`)."),
        ("extension.steps[type=localize]", "Localizes custom keys of the payload, as the app's extension does with its own keys."),
        ("extension.steps[type=attach]", "Downloads an attachment."),
        (
            "extension.steps[type=communicate]",
            "Donates an `INSendMessageIntent` and updates the content from it (a communication notification, iOS 15)."
        ),
        ("android", "The Android build, for FCM messages shown as the FCM Android SDK shows them."),
        ("android.channels[]", "A notification channel the app creates."),
        ("liveActivities", "The app's Live Activities (`ActivityAttributes` types) and the device's budgets."),
        ("liveActivities.types.NAME", "An `ActivityAttributes` type, by its Swift name."),
        ("liveActivities.budget", "How many Live Activity pushes the device takes before it throttles them."),
    ]

    /// Every key, object by object.
    public static let fields: [Field] = [
        Field(object: "", key: "name", type: "string", meaning: "The app's display name, on the card."),
        Field(
            object: "", key: "bundleId", type: "string",
            meaning: "The bundle id; with it, `apns-topic` is checked (MissingTopic, BadTopic, DeviceTokenNotForTopic)."),
        Field(object: "", key: "developmentRegion", type: "string", meaning: "The language used when no preferred language matches (default `en`)."),
        Field(object: "", key: "fcmTopics", type: "[string]", meaning: "FCM topics the device subscribes to, besides its language topic."),
        Field(
            object: "", key: "fcmTokens", type: "`\"any\"` | `\"strict\"`",
            meaning:
                "Whether an FCM token or fid that is not the device's own is this device's (`any`, the default) or 404 `UNREGISTERED` (`strict`); `--fcm-tokens` overrides."
        ),
        Field(
            object: "", key: "fcmProject", type: "string",
            meaning:
                "The Firebase project the app's registration tokens belong to; another project's messages to them are 403 `SENDER_ID_MISMATCH` (default: the first project that sends)."
        ),
        Field(
            object: "", key: "apsEnvironment", type: "`\"development\"` | `\"production\"`",
            meaning:
                "The APNs environment of the device's token (default `development`, an Xcode debug build); a push to the other environment's host is 400 `BadDeviceToken`. `--apns-environment` overrides."
        ),
        Field(
            object: "", key: "capabilities", type: "[string]",
            meaning:
                "What Xcode's Signing & Capabilities gave the app: `time-sensitive`, `critical-alerts`, `communication-notifications`; absent: not judged."
        ),
        Field(object: "", key: "providerKeys", type: "[object]", meaning: "APNs provider keys whose tokens the TCP port verifies (below)."),
        Field(
            object: "", key: "webhooks", type: "[string]", meaning: "URLs each stored notification is posted to, as `serve --webhook` posts it."),
        Field(object: "", key: "categories", type: "object", meaning: "The app's notification categories, by identifier (below)."),
        Field(object: "", key: "extension", type: "object", meaning: "The service extension's recipe (below); without it, the default recipe."),
        Field(object: "", key: "android", type: "object", meaning: "The Android build (below)."),
        Field(object: "", key: "liveActivities", type: "object", meaning: "Live Activity types and budgets (below)."),

        Field(object: "providerKeys[]", key: "keyId", type: "string", meaning: "The key's 10-character id (required)."),
        Field(object: "providerKeys[]", key: "teamId", type: "string", meaning: "The 10-character team id (required)."),
        Field(object: "providerKeys[]", key: "file", type: "string", meaning: "The `.p8` file, relative to the app folder (required)."),

        Field(object: "categories.ID", key: "actions", type: "[object]", meaning: "The category's actions (below)."),
        Field(
            object: "categories.ID", key: "categorySummaryFormat", type: "string",
            meaning:
                "The line under a collapsed stack: `%u` the notifications behind the newest, `%@` the app's name; a key of the app's strings (a `.stringsdict` plural works) or the text itself."
        ),
        Field(
            object: "categories.ID", key: "hiddenPreviewsBodyPlaceholder", type: "string",
            meaning: "The body when previews are hidden: `%u` the number in the thread; a key of the app's strings or the text itself."),
        Field(object: "categories.ID", key: "hiddenPreviewsShowTitle", type: "bool", meaning: "Show the title when previews are hidden."),
        Field(object: "categories.ID", key: "hiddenPreviewsShowSubtitle", type: "bool", meaning: "Show the subtitle when previews are hidden."),

        Field(object: "categories.ID.actions[]", key: "identifier", type: "string", meaning: "The action's identifier (required)."),
        Field(object: "categories.ID.actions[]", key: "title", type: "string", meaning: "Its button text."),
        Field(
            object: "categories.ID.actions[]", key: "title-loc-key", type: "string",
            meaning: "A key of the app's strings for the button, localized for the device."),
        Field(
            object: "categories.ID.actions[]", key: "options", type: "[string]",
            meaning: "`foreground`, `destructive`, `authenticationRequired`."),

        Field(object: "extension", key: "timeLimit", type: "number", meaning: "Seconds the extension has (default 30; `--time-limit` overrides)."),
        Field(
            object: "extension", key: "fallback", type: "`\"best-attempt\"` | `\"original\"`",
            meaning: "What is shown when time runs out or a critical step fails: the best attempt so far (Xcode's template) or the original."),
        Field(object: "extension", key: "steps", type: "[object]", meaning: "The steps, in order (below)."),

        Field(
            object: "extension.steps[]", key: "type", type: "string",
            meaning: "`decrypt`, `localize`, `attach` or `communicate` (required)."),
        Field(
            object: "extension.steps[]", key: "critical", type: "bool",
            meaning:
                "Critical steps run first and their failure ends the extension (default: decrypt and localize critical; attach and communicate optional, run after, concurrently)."
        ),
        Field(
            object: "extension.steps[type=decrypt]", key: "field", type: "string",
            meaning: "The key path of the sealed field (default `encrypted_data`)."),
        Field(
            object: "extension.steps[type=decrypt]", key: "keyFile", type: "string",
            meaning: "The AES-256-GCM key file, relative to the app folder (`--key` wins)."),
        Field(
            object: "extension.steps[type=decrypt]", key: "replaces", type: "[string]",
            meaning: "Which fields of the plaintext replace the alert's (default all)."),
        Field(object: "extension.steps[type=localize]", key: "titleKey", type: "string", meaning: "The key path of the title's localization key."),
        Field(object: "extension.steps[type=localize]", key: "subtitleKey", type: "string", meaning: "The key path of the subtitle's key."),
        Field(object: "extension.steps[type=localize]", key: "bodyKey", type: "string", meaning: "The key path of the body's key."),
        Field(object: "extension.steps[type=localize]", key: "args", type: "string", meaning: "The key path of the argument array, for every key."),
        Field(object: "extension.steps[type=localize]", key: "titleArgs", type: "string", meaning: "The key path of the title's arguments."),
        Field(object: "extension.steps[type=localize]", key: "subtitleArgs", type: "string", meaning: "The key path of the subtitle's arguments."),
        Field(object: "extension.steps[type=localize]", key: "bodyArgs", type: "string", meaning: "The key path of the body's arguments."),
        Field(
            object: "extension.steps[type=attach]", key: "urls", type: "[string]",
            meaning: "Candidate key paths of media URLs; the first present is downloaded (required)."),
        Field(
            object: "extension.steps[type=communicate]", key: "sender", type: "string",
            meaning: "The key path of the sender's display name (required)."),
        Field(object: "extension.steps[type=communicate]", key: "handle", type: "string", meaning: "The key path of the sender's handle."),
        Field(
            object: "extension.steps[type=communicate]", key: "avatar", type: "string",
            meaning: "The key path of the avatar's URL, downloaded within the budget."),
        Field(object: "extension.steps[type=communicate]", key: "group", type: "string", meaning: "The key path of the group's name."),
        Field(object: "extension.steps[type=communicate]", key: "conversation", type: "string", meaning: "The key path of the conversation's id."),
        Field(
            object: "extension.steps[type=communicate]", key: "recipients", type: "string",
            meaning: "The key path of the recipients (an array or a count)."),
        Field(
            object: "extension.steps[type=communicate]", key: "direction", type: "string",
            meaning: "The key path of the direction: `incoming` (the default) or `outgoing`."),

        Field(object: "android", key: "packageName", type: "string", meaning: "The Android package name."),
        Field(object: "android", key: "channels", type: "[object]", meaning: "The channels the app creates (below)."),
        Field(object: "android", key: "defaultChannel", type: "string", meaning: "The manifest's default channel."),
        Field(object: "android", key: "defaultIcon", type: "string", meaning: "The manifest's default notification icon."),
        Field(object: "android", key: "defaultColor", type: "string", meaning: "The manifest's default color, `#RRGGBB`."),
        Field(
            object: "android", key: "foreground", type: "bool",
            meaning: "The app is open: notification messages go to `onMessageReceived`, and nothing is shown."),
        Field(object: "android", key: "apkLocales", type: "[string]", meaning: "The locales the APK claims."),
        Field(object: "android", key: "resources", type: "string", meaning: "The app's `res/` folder, when not found beside the profile."),
        Field(object: "android", key: "pseudoLocales", type: "bool", meaning: "The build has the pseudolocales en-XA and ar-XB."),
        Field(object: "android.channels[]", key: "id", type: "string", meaning: "The channel id (required)."),
        Field(object: "android.channels[]", key: "name", type: "string", meaning: "Its name, as the settings show it."),
        Field(
            object: "android.channels[]", key: "importance", type: "string",
            meaning: "One of \(AndroidProfile.importances.map { "`\($0)`" }.joined(separator: ", ")) (default `default`)."),

        Field(object: "liveActivities", key: "types", type: "object", meaning: "The `ActivityAttributes` types, by name (below)."),
        Field(object: "liveActivities", key: "budget", type: "object", meaning: "The device's budgets (below)."),
        Field(
            object: "liveActivities.types.NAME", key: "attributes", type: "schema",
            meaning: "The attributes' fields and their Swift types, which a push-to-start's `attributes` must decode into."),
        Field(
            object: "liveActivities.types.NAME", key: "contentState", type: "schema",
            meaning: "The `ContentState`'s fields and types, which each `content-state` must decode into."),
        Field(
            object: "liveActivities.types.NAME", key: "dateDecoding", type: "string",
            meaning:
                "How `Date` fields decode, as the app's `JSONDecoder.DateDecodingStrategy`: \(DateDecoding.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "))."
        ),
        Field(
            object: "liveActivities.types.NAME", key: "template", type: "string",
            meaning: "The lock-screen line, e.g. `{attributes.homeTeam} {state.homeScore}`."),
        Field(object: "liveActivities.budget", key: "priority10PerHour", type: "number", meaning: "Priority-10 updates an hour before throttling."),
        Field(object: "liveActivities.budget", key: "pushToStartPerHour", type: "number", meaning: "Push-to-starts an hour."),
        Field(object: "liveActivities.budget", key: "maxRunning", type: "number", meaning: "Activities running at once."),
    ]

    /// The keys of the object at `path`, for a reader's unknown-key check.
    public static func keys(of path: String) -> [String] { fields.filter { $0.object == path }.map(\.key) }

    /// The keys a step of `type` may hold: the common ones and its own.
    static func stepKeys(_ type: String) -> [String] { keys(of: "extension.steps[]") + keys(of: "extension.steps[type=\(type)]") }
}
