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

    /// The language a language topic is for, the inverse of `languageTopic`: `LangKoKR` → `ko-KR`,
    /// `LangZhHansCN` → `zh-Hans-CN`, `LangEs419` → `es-419`; nil for any other topic.
    public static func language(ofTopic topic: String) -> String? {
        guard topic.hasPrefix("Lang") else { return nil }
        let rest = Array(topic.dropFirst(4))
        var i = 0
        func run(_ allowed: (Character) -> Bool, max: Int) -> String {
            var out = ""
            while i < rest.count, out.count < max, allowed(rest[i]) {
                out.append(rest[i])
                i += 1
            }
            return out
        }
        func isUpper(_ c: Character) -> Bool { c.isASCII && c.isUppercase }
        func isLower(_ c: Character) -> Bool { c.isASCII && c.isLowercase }
        // A language: one capital and its lower-case letters (En, Fil).
        guard i < rest.count, isUpper(rest[i]) else { return nil }
        let first = String(rest[i])
        i += 1
        let language = (first + run(isLower, max: 7)).lowercased()
        guard language.count >= 2 else { return nil }
        var parts = [language]
        // A script: one capital and three lower-case letters (Hans).
        if rest.count - i >= 4, isUpper(rest[i]), rest[(i + 1)...(i + 3)].allSatisfy(isLower) {
            parts.append(String(rest[i...(i + 3)]))
            i += 4
        }
        // A region: two capitals or three digits.
        if i < rest.count {
            let region = isUpper(rest[i]) ? run(isUpper, max: 2) : run({ $0.isASCII && $0.isNumber }, max: 3)
            guard region.count == 2 || (region.count == 3 && region.allSatisfy(\.isNumber)) else { return nil }
            parts.append(region)
        }
        return i == rest.count ? parts.joined(separator: "-") : nil
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
