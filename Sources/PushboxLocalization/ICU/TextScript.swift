import CICUWrap

/// Which script a text is written in and which scripts a language is written in, from ICU
/// (`uscript_getScript`, CLDR's likely subtags): enough to tell a Korean phone shown Japanese
/// text, not to tell Spanish from English (both Latin).
public enum TextScript {
    /// The script most of `text`'s characters are in (ISO 15924: `Hang`, `Latn`), digits,
    /// punctuation and marks not counted, with its share of those counted and how many were; nil
    /// when none were.
    public static func dominant(in text: String) -> (script: String, share: Double, counted: Int)? {
        let utf16 = Array(text.utf16)
        var name = [CChar](repeating: 0, count: 8)
        var inDominant: Int32 = 0
        let counted = utf16.withUnsafeBufferPointer { pb_dominant_script($0.baseAddress, Int32($0.count), &name, &inDominant) }
        guard counted > 0 else { return nil }
        let script = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (script, Double(inDominant) / Double(counted), Int(counted))
    }

    /// The script a language is most likely written in (`ko` → `Kore`, `ja-JP` → `Jpan`,
    /// `sr` → `Cyrl`); nil when ICU knows none.
    public static func likely(forLanguage tag: String) -> String? {
        var out = [CChar](repeating: 0, count: 16)
        guard pb_likely_script(ICULocale.identifier(for: tag), &out, Int32(out.count)) > 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The scripts a language's texts use, its likely script spelled out: Korean's `Kore` is
    /// Hangul and Han, Japanese's `Jpan` Hiragana, Katakana and Han, Chinese's `Hans`/`Hant` Han.
    public static func scripts(ofLanguage tag: String) -> Set<String> {
        guard let likely = likely(forLanguage: tag) else { return [] }
        switch likely {
        case "Kore": return ["Hang", "Hani"]
        case "Jpan": return ["Hira", "Kana", "Hani"]
        case "Hans", "Hant", "Hanb": return ["Hani", "Bopo"]
        case "Hrkt": return ["Hira", "Kana"]
        default: return [likely]
        }
    }
}
