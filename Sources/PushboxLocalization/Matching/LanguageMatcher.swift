/// Chooses the app localization a device with given preferred languages uses, as CFBundle
/// does (CFBundle_Locale.c): Apple's `ualoc_localizationsToUse` picks among the app's
/// localizations for the first preferred language that matches any (`AppleLocalizationChoice`);
/// with none, the development region (or `Base.lproj` standing in for it), then `en`.
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

    /// Codes Apple replaces before matching (ISO 639's withdrawn ones and Apple's old `no`).
    static let deprecatedCodes = ["iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "no": "nb", "tl": "fil"]

    /// The localization chosen for these preferred languages, and why.
    public func match(_ preferred: [String]) -> Match {
        let named = available.filter { $0 != "Base" }
        for wanted in preferred where !wanted.isEmpty {
            if let chosen = AppleLocalizationChoice.localizationsToUse(preferred: [wanted], available: named).first {
                return Match(localization: chosen, preferred: wanted, reason: "\(wanted) → \(chosen): \(Self.rule(wanted, chosen))")
            }
        }
        let candidates = named.compactMap { name in LanguageTag(name).map { (name, $0) } }
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

    /// Which of Apple's rules took `wanted` to `chosen`, for the trace.
    static func rule(_ wanted: String, _ chosen: String) -> String {
        guard let want = LanguageTag(wanted), let have = LanguageTag(chosen) else { return "Apple's alias map" }
        if want == have { return "exact match" }
        if let replacement = deprecatedCodes[want.language], replacement == have.language {
            return "deprecated code \(want.language) → \(replacement)"
        }
        guard want.language == have.language else { return "Apple's alias map" }
        if have.region == nil, want.script == have.script { return "the region falls back to the language" }
        if want.script != have.script, have.region == nil { return "the script of the region" }
        return "Apple's region distance"
    }
}
