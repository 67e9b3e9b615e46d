import PushboxText
/// FCM's own rules for a message: exactly one target, valid topic names and conditions.
enum FCMRules {
    static func invalid(_ detail: String) -> Rejection {
        Rejection(status: 400, reason: FCMMessage.invalidArgument, detail: detail)
    }

    /// Checks the target and decides whether the simulated device receives the message.
    static func targeting(of message: FCMMessage, deviceTopics: Set<String>) throws(Rejection) -> Targeting {
        guard message.targets.count == 1, let target = message.targets.first else {
            throw invalid(message.targets.isEmpty
                ? "the message has no target: give exactly one of token, topic or condition"
                : "the message has \(message.targets.count) targets: give exactly one of token, topic or condition")
        }
        let subscribed = deviceTopics.sorted().joined(separator: ", ")
        switch target {
        case .token(let token):
            if token.isEmpty { throw invalid("message.token is empty") }
            return .device
        case .topic(let name):
            guard TopicCondition.isValidTopicName(name) else {
                throw invalid("message.topic \"\(name)\" is not a valid topic name (letters, digits and -_.~% only, optionally after /topics/)")
            }
            let bare = name.hasPrefix("/topics/") ? String(name.dropFirst("/topics/".count)) : name
            return deviceTopics.contains(bare) ? .device
                : .notTargeted("the device is not subscribed to topic \(bare) (its topics: \(subscribed))")
        case .condition(let text):
            let condition: TopicCondition
            do {
                condition = try TopicCondition.parse(text)
            } catch {
                throw invalid("message.condition \(error)")
            }
            return condition.matches(deviceTopics) ? .device
                : .notTargeted("the condition \(condition) is false for the device's topics (\(subscribed))")
        }
    }

    static func warnings(_ message: FCMMessage, aps: JSONObject) -> [Diagnostic] {
        var out: [Diagnostic] = []
        if message.apnsImage ?? message.notificationImage != nil, aps["mutable-content"]?.intValue != 1 {
            out.append(Diagnostic("fcm-image-without-extension", "the image is only shown when the service extension runs: set apns.payload.aps.mutable-content to 1"))
        }
        return out
    }
}
