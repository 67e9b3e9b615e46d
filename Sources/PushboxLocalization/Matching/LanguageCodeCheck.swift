import Foundation

/// What is wrong with a device language a person typed (`--lang kr`, `--lang xx-YY`), so it
/// does not fall back to the development language in silence: a primary subtag that is no ISO
/// 639 code, or one no localization of the app matches; with the language of the region it
/// looks like (`kr` → `ko`, the language of KR).
public enum LanguageCodeCheck {
    private static let languages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))

    /// A sentence when `tag` is not a language code or matches none of `localizations`; nil when it is fine.
    public static func problem(_ tag: String, localizations: [String]) -> String? {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        guard !primary.isEmpty, Pseudolanguage(tag: tag) == nil else { return nil }
        let known = languages.contains(primary)
        let matched =
            !localizations.isEmpty
            && LanguageMatcher(available: localizations.filter { $0 != "Base" }, developmentRegion: localizations.first ?? "en").match([tag])
                .preferred != nil
        if known && (matched || localizations.isEmpty) { return nil }
        var sentence = known ? "\(tag) matches none of the app's localizations" : "\(tag) is not a language code"
        let region = primary.uppercased()
        let likely = Locale.Language(identifier: Locale.Language(identifier: "und-" + region).maximalIdentifier)
        if primary.count == 2, let language = likely.languageCode?.identifier, language != "und",
            language != primary, Locale.Region(region).isISORegion
        {
            sentence += "; did you mean \(language) (the language of \(region))?"
        }
        return sentence
    }
}
