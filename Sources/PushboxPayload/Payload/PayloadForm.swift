import PushboxJSON

/// The three shapes a body can take; each is turned into the APNs payload an iPhone receives.
public enum PayloadForm: Sendable, Equatable {
    /// A plain APNs payload (`{"aps": …}` plus custom keys).
    case apns
    /// An Xcode Simulator `.apns` file: the payload plus the target app's bundle id.
    case simulator(targetBundle: String)
    /// A Firebase Cloud Messaging HTTP v1 message, wrapped in `{"message": …}` or bare.
    case fcm(wrapped: Bool)

    /// The form in words, for the trace.
    public var name: String {
        switch self {
        case .apns: return "APNs payload"
        case .simulator: return "Simulator .apns file"
        case .fcm: return "FCM message"
        }
    }

    /// The top-level key of an Xcode Simulator push file.
    public static let simulatorTargetKey = "Simulator Target Bundle"
    /// Top-level keys of an FCM HTTP v1 `Message`.
    static let fcmMessageKeys: Set<String> = [
        "name", "data", "notification", "android", "webpush", "apns", "fcm_options",
        "token", "fid", "topic", "condition",
    ]

    /// Whether it is an FCM message (wrapped or bare).
    public var isFCM: Bool {
        if case .fcm = self { return true }
        return false
    }

    /// Decides the form from the document's top-level keys.
    ///
    /// `aps` at the top always means APNs; `{"message": {…}}` alone is FCM's request body; a
    /// document made only of FCM message fields with a target or `apns` block is a bare message.
    public static func detect(_ document: JSONObject) -> PayloadForm {
        if let target = document[simulatorTargetKey]?.stringValue { return .simulator(targetBundle: target) }
        if document["aps"] != nil { return .apns }
        // FCM's request body: the message, and `validate_only` beside it when given.
        if document["message"]?.objectValue != nil, Set(document.keys).isSubset(of: ["message", "validate_only"]) { return .fcm(wrapped: true) }
        let keys = Set(document.keys)
        if !keys.isEmpty, keys.isSubset(of: fcmMessageKeys),
            !keys.isDisjoint(with: ["token", "fid", "topic", "condition", "apns", "notification"])
        {
            return .fcm(wrapped: false)
        }
        return .apns
    }
}

extension RawPayload {
    /// Whether the payload is an FCM message: it came to FCM's endpoint, or its document is one.
    public var isFCMMessage: Bool {
        envelope.source == .fcm || (try? JSONParser.parse(bytes).objectValue).map(PayloadForm.detect)?.isFCM == true
    }
}
