import PushboxLocalization
import PushboxPayload

/// The FCM topics the simulated device subscribes to: its language topic plus the app's own.
public enum DeviceTopics {
    /// The seed's language topic for a BCP 47 tag: `en-US` → `LangEnUS`, `fr-FR` → `LangFrFR`,
    /// `zh-Hans-CN` → `LangZhHansCN`, `ko` → `LangKo`.
    public static func languageTopic(for language: String) -> String {
        let parts = LanguageTag.subtags(language)
        return "Lang"
            + parts.enumerated().map { offset, part in
                // Language and script are capitalized (En, Hans); a region stays upper case (US, 419).
                let lower = part.lowercased()
                if offset > 0 && part.count != 4 { return lower.uppercased() }
                return lower.prefix(1).uppercased() + lower.dropFirst()
            }.joined()
    }

    /// The device's topics: the language topic of its first preferred language and the profile's.
    public static func topics(preferredLanguages: [String], profileTopics: [String]) -> Set<String> {
        var topics = Set(profileTopics)
        if let first = preferredLanguages.first { topics.insert(languageTopic(for: first)) }
        return topics
    }

    /// One of the device's topics and who gave it: `language` (its first language's topic),
    /// `profile` (the app's `fcmTopics`), `api` (FCM's topic API or the Instance ID service) or
    /// `app` (`pushbox device subscribe`), with when for the last two.
    public struct Source: Sendable, Equatable {
        /// The topic.
        public var topic: String
        /// `language`, `profile`, `api` or `app`.
        public var by: String
        /// When it was subscribed (ms since 1970), for `api` and `app`.
        public var at: Int64?

        /// Who gave it, in words (`pushbox device` and the inbox's Device view).
        public var givenBy: String {
            switch by {
            case "language": return "the device's language topic"
            case "profile": return "the app's profile (fcmTopics)"
            case "api": return "subscribed through FCM's API"
            default: return "subscribed by the app (pushbox device subscribe)"
            }
        }
    }

    /// The device's topics now, sorted, each with who gave it.
    public static func sources(preferredLanguages: [String], profileTopics: [String], registration: DeviceRegistration) -> [Source] {
        var out: [String: Source] = [:]
        for topic in profileTopics { out[topic] = Source(topic: topic, by: "profile", at: nil) }
        if let first = preferredLanguages.first {
            let topic = languageTopic(for: first)
            out[topic] = Source(topic: topic, by: "language", at: nil)
        }
        for topic in registration.unsubscribed.keys { out[topic] = nil }
        for (topic, change) in registration.subscribed { out[topic] = Source(topic: topic, by: change.by, at: change.at) }
        return out.values.sorted { $0.topic < $1.topic }
    }
}
