/// The FCM topics the simulated device subscribes to: its language topic plus the app's own.
public enum DeviceTopics {
    /// The seed's language topic for a BCP 47 tag: `en-US` → `LangEnUS`, `fr-FR` → `LangFrFR`,
    /// `zh-Hans-CN` → `LangZhHansCN`, `ko` → `LangKo`.
    public static func languageTopic(for language: String) -> String {
        let parts = language.split(whereSeparator: { $0 == "-" || $0 == "_" })
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
}
