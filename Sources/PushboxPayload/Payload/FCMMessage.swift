import PushboxJSON

/// An FCM HTTP v1 message, read field by field so that each wrong shape gets its own error.
public struct FCMMessage: Sendable, Equatable {
    /// Who the message is for; FCM requires exactly one.
    public enum Target: Sendable, Equatable {
        case token(String)
        /// A Firebase installation id (`fid`), which recent FCM v1 and Admin SDKs (7.x) offer in
        /// place of the deprecated registration `token`.
        case fid(String)
        case topic(String)
        case condition(String)
    }

    /// Token, topic or condition (FCM allows exactly one).
    public var targets: [Target] = []
    /// `notification.title`.
    public var notificationTitle: String?
    /// `notification.body`.
    public var notificationBody: String?
    /// `notification.image`.
    public var notificationImage: String?
    /// `data`: custom key-value pairs (FCM allows only strings).
    public var data: JSONObject?
    /// `apns.headers`, as strings.
    public var apnsHeaders: [(String, String)] = []
    /// `apns.payload`: the APNs payload FCM hands to APNs.
    public var apnsPayload: JSONObject?
    /// `apns.fcm_options.image`.
    public var apnsImage: String?
    /// `apns.live_activity_token`: the Live Activity (or push-to-start) token FCM sends to; FCM
    /// then sends APNs push type liveactivity to the topic `<bundle>.push-type.liveactivity`.
    public var liveActivityToken: String?
    /// `android`, kept for the Android view.
    public var android: JSONObject?

    /// Equal when every field is.
    public static func == (lhs: FCMMessage, rhs: FCMMessage) -> Bool {
        lhs.targets == rhs.targets && lhs.notificationTitle == rhs.notificationTitle
            && lhs.notificationBody == rhs.notificationBody && lhs.notificationImage == rhs.notificationImage
            && lhs.liveActivityToken == rhs.liveActivityToken
            && lhs.data == rhs.data && lhs.apnsPayload == rhs.apnsPayload && lhs.apnsImage == rhs.apnsImage
            && lhs.android == rhs.android && lhs.apnsHeaders.map(\.0) == rhs.apnsHeaders.map(\.0)
            && lhs.apnsHeaders.map(\.1) == rhs.apnsHeaders.map(\.1)
    }

    /// The largest request body FCM's endpoint takes (pushbox's choice; Google does not say).
    public static let maxRequestBytes = 64 * 1024

    /// Reads a message object as FCM reads proto3 JSON (`FCMProto3JSON`: a null is not set,
    /// lowerCamelCase names, enums by number); throws FCM's INVALID_ARGUMENT with the path of the
    /// bad field.
    public init(_ sent: JSONObject) throws(Rejection) {
        let message = FCMProto3JSON.normalized(sent)
        func bad(_ detail: String, field: String) -> Rejection {
            Rejection(.invalidArgument, detail, field: field)
        }
        func string(_ value: JSONValue?, _ path: String) throws(Rejection) -> String? {
            guard let value else { return nil }
            guard let s = value.stringValue else { throw bad("\(path) must be a string, not \(value.typeDescription)", field: path) }
            return s
        }
        func object(_ value: JSONValue?, _ path: String) throws(Rejection) -> JSONObject? {
            guard let value else { return nil }
            guard let o = value.objectValue else { throw bad("\(path) must be an object, not \(value.typeDescription)", field: path) }
            return o
        }
        if let t = try string(message["token"], "message.token") { targets.append(.token(t)) }
        if let t = try string(message["fid"], "message.fid") { targets.append(.fid(t)) }
        if let t = try string(message["topic"], "message.topic") { targets.append(.topic(t)) }
        if let c = try string(message["condition"], "message.condition") { targets.append(.condition(c)) }
        if let n = try object(message["notification"], "message.notification") {
            notificationTitle = try string(n["title"], "message.notification.title")
            notificationBody = try string(n["body"], "message.notification.body")
            notificationImage = try string(n["image"], "message.notification.image")
        }
        if let d = try object(message["data"], "message.data") {
            for (i, entry) in d.entries.enumerated() where entry.value.stringValue == nil {
                throw bad(
                    "message.data.\(entry.key) must be a string (FCM data values are strings), not \(entry.value.typeDescription)",
                    field: "message.data[\(i)].value")
            }
            data = d
        }
        if let apns = try object(message["apns"], "message.apns") {
            if let headers = try object(apns["headers"], "message.apns.headers") {
                for entry in headers.entries {
                    guard let v = entry.value.stringValue else {
                        throw bad(
                            "message.apns.headers.\(entry.key) must be a string, not \(entry.value.typeDescription)",
                            field: "message.apns.headers[\(entry.key)]")
                    }
                    apnsHeaders.append((entry.key, v))
                }
            }
            apnsPayload = try object(apns["payload"], "message.apns.payload")
            if let options = try object(apns["fcm_options"], "message.apns.fcm_options") {
                apnsImage = try string(options["image"], "message.apns.fcm_options.image")
            }
            liveActivityToken = try string(apns["live_activity_token"], "message.apns.live_activity_token")
        }
        android = try object(message["android"], "message.android")
    }

    /// The APNs payload an iPhone receives for this message.
    ///
    /// FCM starts from `apns.payload`, folds `notification.title`/`body` into `aps.alert` where the
    /// APNs block does not set them itself, puts `data` pairs at the top level beside `aps`, and
    /// passes the image URL as `fcm_options.image` for the service extension to download.
    public func apnsPayloadForDevice() -> JSONObject {
        var payload = apnsPayload ?? JSONObject()
        var aps = payload["aps"]?.objectValue ?? JSONObject()
        if notificationTitle != nil || notificationBody != nil {
            switch aps["alert"] {
            case .string(let body):
                // A string alert is the body; keep it and add the title.
                var alert = JSONObject([("body", .string(body))])
                if let t = notificationTitle { alert["title"] = .string(t) }
                aps["alert"] = .object(alert)
            default:
                var alert = aps["alert"]?.objectValue ?? JSONObject()
                if let t = notificationTitle, alert["title"] == nil { alert["title"] = .string(t) }
                if let b = notificationBody, alert["body"] == nil { alert["body"] = .string(b) }
                aps["alert"] = .object(alert)
            }
        }
        if payload["aps"] != nil || !aps.isEmpty { payload["aps"] = .object(aps) }
        for entry in data?.entries ?? [] where payload[entry.key] == nil {
            payload.entries.append(entry)
        }
        if let image = apnsImage ?? notificationImage {
            payload["fcm_options"] = .object(JSONObject([("image", .string(image))]))
        }
        return payload
    }
}
