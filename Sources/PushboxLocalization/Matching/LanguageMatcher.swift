/// Chooses the app localization a device with given preferred languages uses (after
/// CoreFoundation's CFBundle_Locale.c): each preferred language in order against the app's
/// localizations; the first one with any match wins; else the development region (or
/// `Base.lproj` standing in for it), then `en`.
public struct LanguageMatcher: Sendable {
    /// The app's localizations as found (folder names or catalog languages), e.g. `en`, `zh_CN`, `Base`.
    public let available: [String]
    /// The app's development language, the last resort.
    public let developmentRegion: String

    /// A matcher over the app's localizations.
    public init(available: [String], developmentRegion: String) {
        self.available = available
        self.developmentRegion = developmentRegion
    }

    /// What matching chose, and why, in words for the trace.
    public struct Match: Sendable, Equatable {
        /// The localization's name as found (`zh_CN`, `pt-BR`, `Base`).
        public var localization: String
        /// The preferred language it was chosen for, nil when it is the fallback.
        public var preferred: String?
        /// Why this localization was chosen, in words.
        public var reason: String
    }

    /// Regions whose speakers CLDR sends to a sibling before the bare language
    /// (`en-IN` prefers `en-GB`, `es-MX` prefers `es-419`, `pt-AO` prefers `pt-PT`).
    static let siblingParents: [String: (members: Set<String>, sibling: String)] = [
        "en": (
            [
                "AU", "IN", "NZ", "ZA", "IE", "SG", "HK", "PK", "NG", "KE", "MY", "MT", "BE", "DE", "AT", "CH", "NL", "SE", "DK", "FI", "IL", "150",
                "001",
            ], "GB"
        ),
        "es": (["MX", "AR", "CO", "CL", "PE", "VE", "EC", "GT", "CU", "BO", "DO", "HN", "PY", "SV", "NI", "CR", "PA", "UY", "PR", "US"], "419"),
        "pt": (["AO", "MZ", "CV", "GW", "ST", "TL", "MO", "CH", "LU", "GQ"], "PT"),
    ]

    /// The localization chosen for these preferred languages, and why.
    public func match(_ preferred: [String]) -> Match {
        let candidates = available.compactMap { name in name == "Base" ? nil : LanguageTag(name).map { (name, $0) } }
        for wanted in preferred {
            guard let tag = LanguageTag(wanted) else { continue }
            var best: (name: String, score: Int)?
            for (name, have) in candidates where have.language == tag.language && have.script == tag.script {
                let score = Self.score(have: have, want: tag)
                if score > (best?.score ?? 0) { best = (name, score) }
            }
            if let best {
                let how: String
                switch best.score {
                case 4: how = "exact match"
                case 3: how = "regional sibling"
                case 2: how = "the region falls back to the language"
                default: how = "the only localization of the language"
                }
                return Match(localization: best.name, preferred: wanted, reason: "\(wanted) → \(best.name) (\(how))")
            }
        }
        let tried = preferred.isEmpty ? "no preferred languages" : "no localization for \(preferred.joined(separator: ", "))"
        let dev = LanguageTag(developmentRegion)
        if let (name, _) = candidates.first(where: { $0.1 == dev }) ?? candidates.first(where: { $0.1.withoutRegion == dev?.withoutRegion }) {
            return Match(localization: name, preferred: nil, reason: "\(tried); development region \(developmentRegion) → \(name)")
        }
        if available.contains("Base") {
            return Match(
                localization: "Base", preferred: nil, reason: "\(tried); Base.lproj stands in for the development region \(developmentRegion)")
        }
        if let (name, _) = candidates.first(where: { $0.1.language == "en" }) {
            return Match(localization: name, preferred: nil, reason: "\(tried); no \(developmentRegion) localization, so en")
        }
        let first = available.sorted().first ?? developmentRegion
        return Match(localization: first, preferred: nil, reason: "\(tried); nothing else, so \(first)")
    }

    /// 4 exact, 3 a CLDR sibling region, 2 the bare language, 1 another region of the language.
    static func score(have: LanguageTag, want: LanguageTag) -> Int {
        if have.region == want.region { return 4 }
        if let region = want.region, let have = have.region, let rule = siblingParents[want.language],
            rule.members.contains(region), have == rule.sibling
        {
            return 3
        }
        if have.region == nil { return 2 }
        return 1
    }
}
