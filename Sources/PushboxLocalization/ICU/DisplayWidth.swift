import CICUWrap
import Foundation

/// How many terminal columns text takes, measured per extended grapheme cluster (Swift
/// `Character`). An emoji sequence of UTS #51 — an emoji presentation sequence (VS16), a
/// modifier sequence (skin tone), a ZWJ sequence, a flag, a keycap, a tag sequence — or a
/// single emoji with Emoji_Presentation is one 2-column glyph; VS15 asks for text presentation
/// (1 column); any other cluster takes what its code points take as terminals count them (East
/// Asian Wide and Fullwidth 2, combining and enclosing marks, format characters, variation
/// selectors and Hangul medial and final jamo 0, the rest 1), so a Devanagari conjunct of two
/// consonants is two columns, as a terminal draws it. Data from ICU.
public enum DisplayWidth {
    private static let cache = LockedCache<Character, Int>()

    /// The columns a terminal gives the grapheme (0, 1, 2 or, for a cluster of several spacing
    /// letters such as a Devanagari conjunct, more).
    public static func of(_ c: Character) -> Int {
        if let a = c.asciiValue { return a >= 0x20 && a != 0x7F ? 1 : 0 }
        return cache.value(for: c) { compute(c) }
    }

    /// The columns a terminal gives the string.
    public static func of(_ s: String) -> Int {
        var total = 0
        for c in s { total += of(c) }
        return total
    }

    /// Whether terminals may measure the cluster otherwise than pushbox: an emoji (a sequence,
    /// a flag, a keycap, one with Emoji_Presentation). Any other cluster is what its code points
    /// take one by one, as terminals count them, so an Indic conjunct is measured alike everywhere.
    public static func mayBeMeasuredOtherwise(_ c: Character) -> Bool {
        c.asciiValue == nil && emojiWidth(c) != nil
    }

    /// The most columns a terminal may give the cluster: each code point on its own, an emoji
    /// 2 (a terminal that does not join a ZWJ sequence draws every emoji of it). The terminal
    /// layer redraws that many columns after a cluster it placed the cursor after.
    public static func widest(_ c: Character) -> Int {
        var total = 0
        for s in c.unicodeScalars { total += s.properties.isEmoji && s.value > 0xFF ? 2 : Int(pb_codepoint_width(s.value)) }
        return max(total, of(c))
    }

    /// The width UTS #51 gives an emoji cluster; nil when the cluster is not one.
    static func emojiWidth(_ c: Character) -> Int? {
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return nil }
        var regional = 0
        for s in scalars {
            switch s.value {
            case 0xFE0E where !scalars.contains(where: { $0.value == 0x200D }): return 1  // text presentation
            case 0xFE0F, 0x200D, 0x20E3, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F: return 2
            case 0x1F1E6...0x1F1FF: regional += 1
            default: break
            }
        }
        if regional >= 2 { return 2 }
        if regional == 1 { return 1 }
        return first.properties.isEmojiPresentation ? 2 : nil
    }

    private static func compute(_ c: Character) -> Int {
        if let emoji = emojiWidth(c) { return emoji }
        var width = 0
        for s in c.unicodeScalars { width += Int(pb_codepoint_width(s.value)) }
        return width
    }
}
