import PushboxJSON

/// What the app receives when the user taps a notification or chooses an action, as
/// `userNotificationCenter(_:didReceive:withCompletionHandler:)` gets it: made from the payload
/// alone, the same for the terminal inbox, the browser and the API.
public struct AppResponse: Sendable, Equatable {
    /// The default action's identifier, as `UNNotificationResponse.actionIdentifier` gives it for a tap.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"

    /// What was chosen: `Tap`, or the action button's title.
    public var title: String
    /// `UNNotificationResponse.actionIdentifier`.
    public var identifier: String
    /// The action's options (foreground, destructive, authentication required).
    public var options: [ActionOption]
    /// The payload's `userInfo`, as compact JSON.
    public var userInfo: String
    /// The first URL-looking string in `userInfo`, where an app would deep-link.
    public var deepLink: String?
    /// The local notification request's identifier, or nil for a push.
    public var localRequest: String?
    /// The push's apns-id.
    public var apnsID: String

    /// Whether the app is brought to the foreground.
    public var opensApp: Bool { options.contains(.foreground) }

    /// A response with every field given.
    public init(
        title: String, identifier: String, options: [ActionOption], userInfo: String, deepLink: String?, localRequest: String?, apnsID: String
    ) {
        self.title = title
        self.identifier = identifier
        self.options = options
        self.userInfo = userInfo
        self.deepLink = deepLink
        self.localRequest = localRequest
        self.apnsID = apnsID
    }

    /// The response to choosing `identifier` (titled `title`) on the notification whose payload is
    /// `payload` (the JSON text, or a request's line and headers, a blank line and the JSON).
    public init(payload raw: String, title: String, identifier: String, options: [ActionOption], apnsID: String) {
        let json = raw.hasPrefix("{") ? raw : raw.range(of: "\n\n").map { String(raw[$0.upperBound...]) } ?? raw
        let payload = try? JSONParser.parse(Array(json.utf8)).objectValue
        let userInfo = payload.map { LocalNotificationPayload.userInfo($0) } ?? JSONObject()
        self.init(
            title: title, identifier: identifier, options: options, userInfo: JSONWriter.compact(.object(userInfo)),
            deepLink: Self.firstDeepLink(in: .object(userInfo)),
            localRequest: payload.flatMap { LocalNotificationPayload.info($0)?["identifier"]?.stringValue }, apnsID: apnsID)
    }

    /// The first string in `value` that looks like a URL.
    public static func firstDeepLink(in value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s.contains("://") ? s : nil
        case .object(let o): return o.entries.lazy.compactMap { firstDeepLink(in: $0.value) }.first
        case .array(let a): return a.lazy.compactMap { firstDeepLink(in: $0) }.first
        default: return nil
        }
    }

    /// The response as `GET /api/v1/notifications/{id}/response` gives it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("actionIdentifier", .string(identifier)), ("title", .string(title)), ("options", .array(options.map { .string($0.rawValue) })),
                ("opensApp", .bool(opensApp)), ("userInfo", (try? JSONParser.parse(Array(userInfo.utf8))) ?? .object(JSONObject())),
                ("deepLink", .optionalString(deepLink)), ("localRequest", .optionalString(localRequest)), ("apnsId", .string(apnsID)),
            ]))
    }
}
