import Foundation
import PushboxLocalization

/// Languages named in themselves, as the header and the picker show them: "한국어 (ko-KR)".
public enum LanguageNames {
    /// A language tag with its English name (`ko` → `ko Korean`).
    public static func describe(_ tag: String) -> String {
        if let pseudo = Pseudolanguage(tag: tag) { return "\(pseudo.rawValue) pseudolanguage" }
        guard let parsed = LanguageTag(tag) else { return tag }
        let base = parsed.script.map { "\(parsed.language)-\($0)" } ?? parsed.language
        let locale = Locale(identifier: base)
        let name =
            (parsed.script != nil ? locale.localizedString(forIdentifier: base) : locale.localizedString(forLanguageCode: parsed.language)) ?? tag
        return "\(name) (\(tag))"
    }
}
