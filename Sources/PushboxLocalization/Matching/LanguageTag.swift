import Foundation

/// A language tag reduced to what localization matching looks at: language, script, region.
///
/// Reads BCP 47 (`zh-Hans-CN`), underscore forms (`pt_BR`), and Apple's legacy folder names
/// (`English`, `Japanese`). Chinese gets its script from its region when none is given, as
/// Apple does: `zh-CN`/`zh-SG` → `zh-Hans`, `zh-TW`/`zh-HK`/`zh-MO` → `zh-Hant`.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// The language subtag (`zh`).
    public var language: String
    /// The script subtag (`Hant`), when given.
    public var script: String?
    /// The region subtag (`TW`), when given.
    public var region: String?

    /// Apple's legacy `.lproj` names.
    static let legacyNames: [String: String] = [
        "english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es", "italian": "it",
        "dutch": "nl", "korean": "ko", "chinese": "zh-Hans", "portuguese": "pt", "russian": "ru", "swedish": "sv",
        "danish": "da", "finnish": "fi", "norwegian": "nb", "polish": "pl", "arabic": "ar", "turkish": "tr",
    ]

    /// A tag's subtags as written, split at `-` and `_` (`pt_BR` → `pt`, `BR`).
    public static func subtags(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    }

    /// A tag from BCP 47 text or a legacy name (`zh_CN`, `English`); nil when it is neither.
    public init?(_ text: String) {
        let raw = text.trimmingCharacters(in: .whitespaces)
        let mapped = Self.legacyNames[raw.lowercased()] ?? raw
        let parts = Self.subtags(mapped)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter) else { return nil }
        language = first.lowercased()
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isLetter), script == nil, region == nil {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if (part.count == 2 && part.allSatisfy(\.isLetter)) || (part.count == 3 && part.allSatisfy(\.isNumber)), region == nil {
                region = part.uppercased()
            }
            // Variants and extensions (`-u-…`, `-POSIX`) do not take part in matching.
        }
        if language == "zh", script == nil {
            script = ["TW", "HK", "MO"].contains(region ?? "") ? "Hant" : "Hans"
        }
    }

    /// The canonical BCP 47 form: `zh-Hant-TW`, `pt-BR`, `en`.
    public var description: String {
        [language, script, region].compactMap { $0 }.joined(separator: "-")
    }

    /// The device language a localization stands for, with its likely region as iOS gives a
    /// device set to that language (CLDR's likely subtags: `ja` → `ja-JP`, `pt` → `pt-BR`,
    /// `zh-Hant` → `zh-Hant-TW`); a tag that has a region, or is no language, is kept as it is.
    public static func withLikelyRegion(_ localization: String) -> String {
        guard let tag = LanguageTag(localization), tag.region == nil else { return localization }
        let maximal = Locale.Language(identifier: Locale.Language(identifier: tag.description).maximalIdentifier)
        guard let region = maximal.region?.identifier, region.count == 2 || region.count == 3 else { return localization }
        let named = subtags(localization).count > 1 ? tag.script : nil
        return [tag.language, named, region].compactMap { $0 }.joined(separator: "-")
    }

    /// Text typed as a device language in BCP 47's spelling: `_` as `-`, the language lower
    /// case, a script title case, a region upper case (`PT_br` → `pt-BR`); nil when it is no
    /// language tag or no known language.
    public static func typed(_ text: String) -> String? {
        let parts = subtags(text.trimmingCharacters(in: .whitespaces))
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter),
            parts.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }),
            LanguageCodeCheck.languages.contains(first.lowercased())
        else { return nil }
        return parts.enumerated().map { i, part in
            if i == 0 { return part.lowercased() }
            if part.count == 4, part.allSatisfy(\.isLetter) { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
            if part.count == 2 || (part.count == 3 && part.allSatisfy(\.isNumber)) { return part.uppercased() }
            return part.lowercased()
        }.joined(separator: "-")
    }

    /// Language and script only: `zh-Hant`, `pt`.
    public var withoutRegion: LanguageTag {
        var t = self
        t.region = nil
        return t
    }
}
