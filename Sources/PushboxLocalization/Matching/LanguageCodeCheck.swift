import Foundation

/// What a device language a person typed stands for (`--lang kr`, `--lang iw`, `--lang korean`),
/// judged once with the matching's own knowledge (Apple's legacy names, the withdrawn codes it
/// replaces), so the warning never contradicts the localization matching chooses: a language the
/// matching reads (`iw` is Hebrew, `korean` is `ko`) is never "not a language code", and only a
/// code no language of the system's goes by is read as a country (`kr` → `ko`, the language of KR;
/// `ar` is Arabic, never "the language of AR").
public enum LanguageCodeCheck {
    static let languages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))

    /// Languages the system has locale data for (ICU/CLDR): a code among them is taken as meant.
    static let systemLanguages = Set(Locale.availableIdentifiers.compactMap { LanguageTag.subtags($0).first?.lowercased() })

    /// What one typed tag stands for.
    public enum Judgement: Equatable, Sendable {
        /// A pseudolanguage (`en-XA`, `ar-XB`): nothing to say.
        case pseudolanguage
        /// A language; `readAs` is what the matching reads it as when that differs (`iw` → `he`,
        /// `korean` → `ko`), and `rare` says it is a code no language of the system's goes by.
        case language(readAs: String?, rare: Bool)
        /// No language code at all.
        case notALanguage
    }

    /// The judgement of one typed tag.
    public static func judge(_ tag: String) -> Judgement {
        if Pseudolanguage(tag: tag) != nil { return .pseudolanguage }
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        if let named = LanguageTag.legacyNames[trimmed.lowercased()] { return .language(readAs: named, rare: false) }
        let parts = LanguageTag.subtags(trimmed)
        guard let primary = parts.first?.lowercased(), !primary.isEmpty else { return .notALanguage }
        if let replacement = LanguageMatcher.deprecatedCodes[primary] {
            return .language(readAs: ([replacement] + parts.dropFirst()).joined(separator: "-"), rare: false)
        }
        guard languages.contains(primary) else { return .notALanguage }
        return .language(readAs: nil, rare: !systemLanguages.contains(primary))
    }

    /// A sentence for each device language that is no language code, and for the first when
    /// the whole list matches none of the app's localizations (`matched` false: the device falls
    /// back to the development language); empty when all is well.
    public static func problems(_ languages: [String], matched: Bool) -> [String] {
        var out: [String] = []
        for (i, tag) in languages.enumerated() {
            let sentence: String
            let rare: Bool
            switch judge(tag) {
            case .pseudolanguage: continue
            case .notALanguage:
                sentence = "\(tag) is not a language code"
                rare = true
            case .language(let readAs, let isRare):
                guard i == 0 && !matched else { continue }
                sentence = "\(tag)\(readAs.map { " (read as \($0))" } ?? "") matches none of the app's localizations"
                rare = isRare
            }
            out.append(sentence + (rare ? countrySuggestion(tag) : ""))
        }
        return out
    }

    /// "; did you mean ko (the language of KR)?" for a code that is a country's, not a language's.
    static func countrySuggestion(_ tag: String) -> String {
        let primary = LanguageTag.subtags(tag).first?.lowercased() ?? ""
        let region = primary.uppercased()
        guard primary.count == 2, Locale.Region(region).isISORegion else { return "" }
        let likely = Locale.Language(identifier: Locale.Language(identifier: "und-" + region).maximalIdentifier)
        guard let language = likely.languageCode?.identifier, language != "und", language != primary else { return "" }
        return "; did you mean \(language) (the language of \(region))?"
    }
}
