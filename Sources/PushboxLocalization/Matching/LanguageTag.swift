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

    /// A tag from BCP 47 text or a legacy name (`zh_CN`, `English`); nil when it is neither.
    public init?(_ text: String) {
        let raw = text.trimmingCharacters(in: .whitespaces)
        let mapped = Self.legacyNames[raw.lowercased()] ?? raw
        let parts = mapped.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
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

    /// Language and script only: `zh-Hant`, `pt`.
    public var withoutRegion: LanguageTag {
        var t = self
        t.region = nil
        return t
    }
}
