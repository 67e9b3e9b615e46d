import PushboxJSON

/// FCM's own rules for a message: exactly one target, valid topic names and conditions.
public enum FCMRules {
    static func invalid(_ detail: String, field: String? = nil) -> Rejection {
        Rejection(.invalidArgument, detail, field: field)
    }

    /// FCM's checks of the APNs payload it forwards: `*-loc-args` are arrays of strings
    /// (unconfirmed against FCM's service; pushbox refuses what APNs' own types cannot hold).
    static func checkPayload(_ message: FCMMessage) throws(Rejection) {
        guard let alert = message.apnsPayload?["aps"]?.objectValue?["alert"]?.objectValue else { return }
        for key in ["title-loc-args", "subtitle-loc-args", "loc-args"] {
            guard let value = alert[key] else { continue }
            let path = "message.apns.payload.aps.alert.\(key)"
            guard let items = value.arrayValue else {
                throw invalid("\(path) must be an array of strings, not \(value.typeDescription)", field: path)
            }
            for (i, item) in items.enumerated() where item.stringValue == nil {
                throw invalid("\(path)[\(i)] must be a string, not \(item.typeDescription)", field: "\(path)[\(i)]")
            }
        }
    }

    /// Checks the target and decides whether the simulated device receives the message.
    static func targeting(of message: FCMMessage, deviceTopics: Set<String>) throws(Rejection) -> Targeting {
        guard message.targets.count == 1, let target = message.targets.first else {
            throw invalid(
                message.targets.isEmpty
                    ? "the message has no target: give exactly one of token, fid, topic or condition"
                    : "the message has \(message.targets.count) targets: give exactly one of token, fid, topic or condition", field: "message")
        }
        let subscribed = deviceTopics.sorted().joined(separator: ", ")
        switch target {
        case .token(let token):
            if token.isEmpty { throw invalid("message.token is empty", field: "message.token") }
            guard isRegistrationTokenForm(token) else {
                throw invalid("The registration token is not a valid FCM registration token", field: "message.token")
            }
            return .device
        case .fid(let fid):
            if fid.isEmpty { throw invalid("message.fid is empty", field: "message.fid") }
            // FCM looks an installation id up without judging its form first: one that cannot
            // be an installation is not found (firebase-admin's UnregisteredError).
            guard isInstallationIDForm(fid) else {
                throw Rejection(
                    .fcmUnregistered,
                    "message.fid is not a Firebase installation id (22 characters of URL-safe base64, the first c, d, e or f)",
                    field: "message.fid")
            }
            return .device
        case .topic(let name):
            guard TopicCondition.isValidTopicName(name) else {
                throw invalid(
                    "message.topic \"\(name)\" is not a valid topic name (letters, digits and -_.~% only, optionally after /topics/)",
                    field: "message.topic")
            }
            let bare = TopicCondition.bareTopicName(name)
            return deviceTopics.contains(bare)
                ? .device
                : .notTargeted("the device is not subscribed to topic \(bare) (its topics: \(subscribed))")
        case .condition(let text):
            let condition: TopicCondition
            do {
                condition = try TopicCondition.parse(text)
            } catch {
                throw invalid("message.condition \(error)", field: "message.condition")
            }
            return condition.matches(deviceTopics)
                ? .device
                : .notTargeted("the condition is false for the device's topics (\(subscribed)): \(condition.explain(deviceTopics))")
        }
    }

    /// Whether `token` is of the form of an FCM registration token: letters, digits and
    /// `-_:.` only (real ones are an instance id, `:` and a long base64url string). FCM
    /// refuses anything else with INVALID_ARGUMENT before looking the token up; pushbox checks
    /// the characters, not the length, so short tokens in tests stay this device's.
    public static func isRegistrationTokenForm(_ token: String) -> Bool {
        token.utf8.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F || b == 0x3A || b == 0x2E
        }
    }

    /// To whom a message was addressed, in a few words for the card: `token 9fK…a1 (this
    /// device's)`, `topic LangKoKR`, `condition 'a' in topics`.
    public static func addressee(_ message: FCMMessage, isOwn: (String) -> Bool) -> String? {
        func short(_ value: String) -> String { value.count > 20 ? "\(value.prefix(12))…\(value.suffix(6))" : value }
        switch message.targets.first {
        case .token(let t)?: return "token \(short(t)) (\(isOwn(t) ? "this device's own" : "not this device's own"))"
        case .fid(let f)?: return "installation \(short(f)) (\(isOwn(f) ? "this device's own" : "not this device's own"))"
        case .topic(let name)?: return "topic \(name)"
        case .condition(let text)?: return "condition \(text)"
        case nil: return nil
        }
    }

    /// Whether `fid` has the form of a Firebase installation id: 22 characters of URL-safe
    /// base64 whose first is `c`, `d`, `e` or `f` (the Firebase Installations SDK's own check).
    public static func isInstallationIDForm(_ fid: String) -> Bool {
        let bytes = Array(fid.utf8)
        guard bytes.count == 22, let first = bytes.first, (0x63...0x66).contains(first) else { return false }
        return bytes.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F
        }
    }

    /// Why a message reaches the device, in words: its token (and whether it is the device's
    /// own), its topic, or the condition's evaluation.
    public static func describeTarget(_ message: FCMMessage, deviceTopics: Set<String>, isOwn: (String) -> Bool) -> String {
        func whose(_ kind: String, _ value: String) -> String {
            let shown = value.count > 24 ? "\(value.prefix(24))…" : value
            return isOwn(value)
                ? "the message is for this device's own \(kind) \(shown)"
                : "the message is for \(kind) \(shown), not this device's own: FCM tokens are taken as any (--fcm-tokens strict answers 404 UNREGISTERED)"
        }
        switch message.targets.first {
        case .token(let token)?: return whose("registration token", token)
        case .fid(let fid)?: return whose("Firebase installation", fid)
        case .topic(let name)?: return "the device is subscribed to topic \(name)"
        case .condition(let text)?:
            guard let condition = try? TopicCondition.parse(text) else { return "the condition \(text)" }
            return "the condition is true: \(condition.explain(deviceTopics))"
        case nil: return "the message is for this device"
        }
    }

    static func warnings(_ message: FCMMessage, aps: JSONObject) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for case .condition(let text) in message.targets where TopicCondition.usesDoubleQuotes(text) {
            out.append(
                Diagnostic(
                    .fcmConditionDoubleQuotes,
                    "message.condition quotes a topic with double quotes; FCM's reference writes topics in single quotes ('News' in topics)",
                    field: "message.condition"))
        }
        if message.apnsImage ?? message.notificationImage != nil, aps["mutable-content"]?.intValue != 1 {
            out.append(
                Diagnostic(
                    .fcmImageWithoutExtension, "the image is only shown when the service extension runs: set apns.payload.aps.mutable-content to 1"))
        }
        return out
    }
}
