/// The checks APNs makes on request headers and the device token before it reads a body.
enum HeaderRules {
    /// Checks every header rule in APNs' order; the first failure is the answer.
    static func check(_ headers: PushHeaders, deviceToken: String?) -> Rejection? {
        if let name = headers.duplicateNames.first {
            return Rejection(.duplicateHeaders, "the header \(name) is given more than once")
        }
        if let token = deviceToken, let problem = tokenProblem(token) {
            return Rejection(.badDeviceToken, "device token \(quote(token)) \(problem)")
        }
        if let type = headers[PushHeaders.pushType], PushType(rawValue: type) == nil {
            return Rejection(
                .invalidPushType, "apns-push-type \(quote(type)) is not one of \(PushType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let id = headers[PushHeaders.id], !isCanonicalUUID(id) {
            return Rejection(.badMessageId, "apns-id \(quote(id)) is not a canonical UUID (8-4-4-4-12 hex digits)")
        }
        if let expiration = headers[PushHeaders.expiration], !isUnsignedInteger(expiration) {
            return Rejection(.badExpirationDate, "apns-expiration \(quote(expiration)) is not a UNIX time in whole seconds")
        }
        if let priority = headers[PushHeaders.priority], !["10", "5", "1"].contains(priority) {
            return Rejection(.badPriority, "apns-priority \(quote(priority)) is not 10, 5 or 1")
        }
        if let collapse = headers[PushHeaders.collapseID], collapse.utf8.count > 64 {
            return Rejection(.badCollapseId, "apns-collapse-id is \(collapse.utf8.count) bytes; APNs allows at most 64")
        }
        return nil
    }

    /// Why a device token is not one APNs would accept, or nil when it is.
    static func tokenProblem(_ token: String) -> String? {
        if token.isEmpty { return "is empty" }
        if !token.utf8.allSatisfy(isHexDigit) { return "is not hexadecimal" }
        if token.utf8.count % 2 != 0 { return "has an odd number of hex digits" }
        return nil
    }

    static func isCanonicalUUID(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.count == 36 else { return false }
        for (i, b) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                guard b == UInt8(ascii: "-") else { return false }
            } else if !isHexDigit(b) {
                return false
            }
        }
        return true
    }

    static func isUnsignedInteger(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 19 && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    /// Quotes a value for a message, shortened so a huge header cannot flood the terminal.
    static func quote(_ s: String) -> String {
        let shown = s.count > 80 ? String(s.prefix(77)) + "…" : s
        return "\"\(shown)\""
    }

    /// Topic rules, checked only when the app's bundle id is known.
    ///
    /// `requireTopic` models token-based authentication, where APNs needs `apns-topic`; a file
    /// opened from the command line or a folder targets the profile's app, as the Simulator does.
    static func checkTopic(_ topic: String?, bundleID: String, pushType: PushType, requireTopic: Bool) -> Rejection? {
        guard let topic else {
            return requireTopic ? Rejection(.missingTopic, "apns-topic is required; this app's topic is \(expectedTopic(bundleID, pushType))") : nil
        }
        // The topic the app expects is taken without looking further (most pushes send it).
        let expected = expectedTopic(bundleID, pushType)
        if topic == expected && !topic.isEmpty { return nil }
        if topic.isEmpty || topic.contains(where: { $0.isWhitespace }) {
            return Rejection(.badTopic, "apns-topic \(quote(topic)) is not a bundle id")
        }
        let base = PushType.bundleID(fromTopic: topic)
        // A Live Activity's token is for the liveactivity topic only (Apple forums thread 712499).
        if base == bundleID, pushType == .liveactivity {
            return Rejection(
                .deviceTokenNotForTopic, "a Live Activity push goes to the topic \(quote(expected)), not \(quote(topic))")
        }
        if base == bundleID {
            return Rejection(.badTopic, "apns-topic \(quote(topic)) does not fit push type \(pushType.rawValue); expected \(quote(expected))")
        }
        return Rejection(.deviceTokenNotForTopic, "this device's app is \(bundleID), not \(quote(base))")
    }

    static func expectedTopic(_ bundleID: String, _ pushType: PushType) -> String {
        bundleID + (pushType.topicSuffix ?? "")
    }
}
