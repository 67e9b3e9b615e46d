import Foundation

/// What is wrong with a device language a person typed (`--lang kr`, `--lang xx-YY`), so it
/// does not fall back to the development language in silence: a primary subtag that is no ISO
/// 639 code, or one no localization of the app matches; with the language of the region it
/// looks like (`kr` → `ko`, the language of KR).
public enum LanguageCodeCheck {
    static let languages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))

    /// A sentence for each device language that is no language code, and for the first when
    /// the whole list matches none of the app's localizations (`matched` false: the device falls
    /// back to the development language); empty when all is well.
    public static func problems(_ languages: [String], matched: Bool) -> [String] {
        var out: [String] = []
        for (i, tag) in languages.enumerated() {
            let primary = LanguageTag.subtags(tag).first?.lowercased() ?? ""
            guard !primary.isEmpty, Pseudolanguage(tag: tag) == nil else { continue }
            let known = Self.languages.contains(primary)
            guard !known || (i == 0 && !matched) else { continue }
            var sentence = known ? "\(tag) matches none of the app's localizations" : "\(tag) is not a language code"
            let region = primary.uppercased()
            let likely = Locale.Language(identifier: Locale.Language(identifier: "und-" + region).maximalIdentifier)
            if primary.count == 2, let language = likely.languageCode?.identifier, language != "und", language != primary,
                Locale.Region(region).isISORegion
            {
                sentence += "; did you mean \(language) (the language of \(region))?"
            }
            out.append(sentence)
        }
        return out
    }
}
