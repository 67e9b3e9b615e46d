import PushboxJSON

/// The `android` section of `pushbox.json`: what the Android build of the app declares that the
/// FCM Android SDK reads when it builds a notification.
public struct AndroidProfile: Sendable, Equatable {
    /// A notification channel the app creates.
    public struct Channel: Sendable, Equatable {
        public var id: String
        public var name: String
        /// `NotificationManager.IMPORTANCE_*` by name: none, min, low, default, high.
        public var importance: String

        /// A channel: its id, its name in the app's settings, its importance.
        public init(id: String, name: String, importance: String) {
            self.id = id
            self.name = name
            self.importance = importance
        }
    }

    /// The application id (`dev.pushbox.sample`).
    public var packageName: String?
    /// Channels the app creates.
    public var channels: [Channel] = []
    /// The manifest's `com.google.firebase.messaging.default_notification_channel_id`.
    public var defaultChannel: String?
    /// The manifest's `default_notification_icon` (a drawable name); else the launcher icon.
    public var defaultIcon: String?
    /// The manifest's `default_notification_color` (`#RRGGBB`).
    public var defaultColor: String?
    /// Whether the app is in the foreground: then a notification message goes to
    /// `onMessageReceived` and nothing is shown.
    public var foreground = false
    /// The locales the built APK claims (libraries ship resources for many): step 1 of
    /// Android's resolution reads these instead of the app's own folders.
    public var apkLocales: [String]?
    /// The `res/` folder, when not found under the app folder.
    public var resources: String?
    /// Whether the build enables pseudo-locales (`en-XA`, `ar-XB`), as debug builds often do.
    public var pseudoLocales = false

    /// The FCM SDK's channel when neither the message's nor the default exists.
    public static let fallbackChannel = Channel(id: "fcm_fallback_notification_channel", name: "Miscellaneous", importance: "default")

    /// A profile with nothing declared.
    public init() {}

    static let importances = ["none", "min", "low", "default", "high"]

    /// The section's object, each bad field named by its path.
    init(_ value: JSONValue?, reader: ProfileReader, directory: String) throws(AppProfile.LoadError) {
        guard let o = try reader.object(value, "android", known: ProfileSchema.keys(of: "android")) else { return }
        packageName = try reader.string(o["packageName"], "android.packageName")
        defaultChannel = try reader.string(o["defaultChannel"], "android.defaultChannel")
        defaultIcon = try reader.string(o["defaultIcon"], "android.defaultIcon")
        defaultColor = try reader.string(o["defaultColor"], "android.defaultColor")
        if let c = defaultColor, !AndroidProfile.isColor(c) { throw reader.fail("android.defaultColor", "must be #RRGGBB, not \(c)") }
        foreground = try reader.bool(o["foreground"], "android.foreground") ?? false
        pseudoLocales = try reader.bool(o["pseudoLocales"], "android.pseudoLocales") ?? false
        apkLocales = try reader.strings(o["apkLocales"], "android.apkLocales")
        if let r = try reader.string(o["resources"], "android.resources") { resources = r.hasPrefix("/") ? r : directory + "/" + r }
        if let list = o["channels"] {
            guard let array = list.arrayValue else { throw reader.fail("android.channels", "must be an array of {id, name, importance}") }
            for (i, item) in array.enumerated() {
                let p = "android.channels[\(i)]"
                let c = try reader.object(item, p, known: ProfileSchema.keys(of: "android.channels[]")) ?? JSONObject()
                guard let id = try reader.string(c["id"], "\(p).id"), !id.isEmpty else { throw reader.fail("\(p).id", "is required") }
                let importance = try reader.string(c["importance"], "\(p).importance") ?? "default"
                guard Self.importances.contains(importance) else {
                    throw reader.fail("\(p).importance", "must be one of \(Self.importances.joined(separator: ", "))")
                }
                channels.append(Channel(id: id, name: try reader.string(c["name"], "\(p).name") ?? id, importance: importance))
            }
        }
    }

    /// `#RRGGBB`, as `Color.parseColor` takes it here (and the Admin SDKs check it).
    public static func isColor(_ s: String) -> Bool {
        s.count == 7 && s.first == "#" && s.dropFirst().allSatisfy(\.isHexDigit)
    }
}
