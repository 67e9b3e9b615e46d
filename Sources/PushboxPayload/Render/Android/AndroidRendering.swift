import PushboxJSON

/// One FCM message as an Android phone shows it: what the FCM Android SDK builds from the
/// message's `notification` and `android` blocks with the app's `strings.xml`
/// (firebase/firebase-android-sdk `NotificationParams`, `CommonNotificationBuilder`).
public struct AndroidRendering: Sendable, Equatable {
    /// What reaches the screen: the tray (`shown`), only the app (`app`: foreground, or a
    /// data message), or nothing (`rejected`: FCM refused it, or the app would throw).
    public enum Delivered: String, Sendable {
        case shown, app, rejected
    }

    /// Where a value came from: the message, the app's default (manifest), the SDK's fallback.
    public enum Source: String, Sendable {
        case message
        case appDefault = "app-default"
        case fallback
    }

    /// The app name in the notification's header.
    public var appName: String
    public var title: String?
    public var body: String?
    /// The folder the text came from (`values-ko`, `values-b+sr+Latn`, `values`); nil when
    /// both were literal.
    public var language: String?
    /// Step 1's locale (`ko-KR`), and why.
    public var locale: String?
    public var localeRule: String?
    public var delivered: Delivered
    /// Why not shown (`foreground`, `data-message`, an exception's name, FCM's reason).
    public var reason: String?
    /// The channel, its name and importance, and whether the message's own was used.
    public var channel: AndroidProfile.Channel
    public var channelSource: Source
    /// The small icon's drawable name (`ic_stat_mail`; `launcher icon` when the app has none).
    public var icon: String
    public var iconSource: Source
    /// The small icon's tint (`#RRGGBB`).
    public var color: String?
    /// The image URL (`android.notification.image` over `notification.image`).
    public var image: String?
    /// The image as the SDK downloaded it (1 MiB, 5 s at most), shown large and as BigPicture.
    public var imageAttachment: RenderedAttachment?
    /// Same tag: replaces the notification shown under it; none never replaces.
    public var tag: String?
    public var notificationCount: Int?
    public var sticky = false
    /// `private` (the default: content hidden on a secure lock screen), `public`, `secret`.
    public var visibility = "private"
    /// `event_time`, shown as the notification's time.
    public var eventTime: String?
    /// `click_action`: the activity the tap opens (else the launcher).
    public var clickAction: String?
    /// The data pairs that go into the tap's intent extras.
    public var extras: [(key: String, value: String)] = []
    /// Findings: missing resources, format exceptions, divergences from the iPhone.
    public var warnings: [Diagnostic] = []
    /// What the SDK did, step by step.
    public var trace: [TraceEntry] = []

    public static func == (a: AndroidRendering, b: AndroidRendering) -> Bool { a.json == b.json }

    /// The object `render --platform android --json` prints.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("platform", .string("android")), ("appName", .string(appName)), ("title", .optionalString(title)), ("body", .optionalString(body)),
                ("language", .optionalString(language)), ("locale", .optionalString(locale)), ("delivered", .string(delivered.rawValue)),
                ("reason", .optionalString(reason)),
                (
                    "channel",
                    .object(
                        JSONObject([
                            ("id", .string(channel.id)), ("name", .string(channel.name)), ("importance", .string(channel.importance)),
                            ("source", .string(channelSource.rawValue)),
                        ]))
                ),
                ("icon", .string(icon)), ("iconSource", .string(iconSource.rawValue)), ("color", .optionalString(color)),
                ("image", .optionalString(image)), ("imageAttachment", imageAttachment?.json ?? .null), ("tag", .optionalString(tag)),
                ("notificationCount", .optionalInt(notificationCount)),
                ("sticky", .bool(sticky)), ("visibility", .string(visibility)), ("eventTime", .optionalString(eventTime)),
                ("clickAction", .optionalString(clickAction)),
                ("extras", .object(JSONObject(extras.map { ($0.key, .string($0.value)) }))),
                ("warnings", .array(warnings.map { .string($0.message) })), ("diagnostics", .array(warnings.map(\.json))),
                ("trace", .array(trace.map(\.json))),
            ]))
    }

    /// A rendering read back from its JSON (the store keeps it with the iPhone's).
    public init?(json: JSONValue) {
        guard let o = json.objectValue, o["platform"]?.stringValue == "android",
            let delivered = o["delivered"]?.stringValue.flatMap(Delivered.init(rawValue:))
        else { return nil }
        let c = o["channel"]?.objectValue
        self.init(
            appName: o["appName"]?.stringValue ?? "", delivered: delivered,
            channel: AndroidProfile.Channel(
                id: c?["id"]?.stringValue ?? AndroidProfile.fallbackChannel.id, name: c?["name"]?.stringValue ?? "",
                importance: c?["importance"]?.stringValue ?? "default"),
            channelSource: c?["source"]?.stringValue.flatMap(Source.init(rawValue:)) ?? .fallback, icon: o["icon"]?.stringValue ?? "",
            iconSource: o["iconSource"]?.stringValue.flatMap(Source.init(rawValue:)) ?? .fallback)
        title = o["title"]?.stringValue
        body = o["body"]?.stringValue
        language = o["language"]?.stringValue
        locale = o["locale"]?.stringValue
        reason = o["reason"]?.stringValue
        color = o["color"]?.stringValue
        image = o["image"]?.stringValue
        imageAttachment = o["imageAttachment"].flatMap(RenderedAttachment.init(json:))
        tag = o["tag"]?.stringValue
        notificationCount = o["notificationCount"]?.intValue
        sticky = o["sticky"] == .bool(true)
        visibility = o["visibility"]?.stringValue ?? "private"
        eventTime = o["eventTime"]?.stringValue
        clickAction = o["clickAction"]?.stringValue
        extras = (o["extras"]?.objectValue?.entries ?? []).compactMap { e in e.value.stringValue.map { (e.key, $0) } }
        warnings = (o["diagnostics"]?.arrayValue ?? []).compactMap(Diagnostic.init(json:))
        trace = (o["trace"]?.arrayValue ?? []).compactMap(TraceEntry.init(json:))
    }

    /// What Android shows of a payload it has no rendering of: an APNs payload never reaches
    /// it; an FCM message FCM refused reaches neither phone.
    public static func notShown(_ ios: RenderedNotification, isFCM: Bool, appName: String) -> AndroidRendering {
        var a = AndroidRendering(
            appName: appName, delivered: .rejected, channel: AndroidProfile.fallbackChannel, channelSource: .fallback, icon: "launcher icon",
            iconSource: .fallback)
        a.reason = isFCM ? ios.reason ?? "rejected" : "NotFCM"
        if !isFCM { a.warnings.append(Diagnostic(.androidNotShown, "an APNs payload: only an iPhone receives it")) }
        return a
    }

    /// An empty rendering; the Android renderer fills it.
    public init(
        appName: String, delivered: Delivered, channel: AndroidProfile.Channel, channelSource: Source, icon: String, iconSource: Source
    ) {
        self.appName = appName
        self.delivered = delivered
        self.channel = channel
        self.channelSource = channelSource
        self.icon = icon
        self.iconSource = iconSource
    }
}
