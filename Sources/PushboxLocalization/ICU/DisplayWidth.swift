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
    private static let tmuxCache = LockedCache<Character, Int>()

    /// How emoji clusters are measured.
    public enum EmojiMeasure: Sendable {
        /// As UTS #51 says: one 2-column glyph.
        case unicode
        /// As tmux 3.3 and older draw them: a skin-tone modifier as an emoji of its own (👋🏽 takes
        /// 4 columns), any other sequence as wide as its first code point (🏳️‍🌈, 1️⃣ and 🍽️ take 1).
        case tmux33

        /// The measure of the terminal `environment` describes: tmux before 3.4 sets
        /// `TERM_PROGRAM=tmux` and its version in its panes.
        public static func of(environment: [String: String]) -> EmojiMeasure {
            guard environment["TERM_PROGRAM"] == "tmux", let version = environment["TERM_PROGRAM_VERSION"] else { return .unicode }
            let parts = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
            let (major, minor) = (parts.first ?? 0, parts.count > 1 ? parts[1] : 0)
            return major < 3 || (major == 3 && minor < 4) ? .tmux33 : .unicode
        }
    }

    /// The measure every width is taken by: set once, by the inbox, before anything is laid
    /// out (its terminal's), and read without a lock.
    nonisolated(unsafe) public static var emojiMeasure = EmojiMeasure.unicode

    /// The columns a terminal gives the grapheme (0, 1, 2 or, for a cluster of several spacing
    /// letters such as a Devanagari conjunct, more).
    public static func of(_ c: Character) -> Int {
        if let a = c.asciiValue { return a >= 0x20 && a != 0x7F ? 1 : 0 }
        if emojiMeasure == .tmux33 { return tmuxCache.value(for: c) { emojiWidth(c) != nil ? tmuxWidth(c) : compute(c) } }
        return cache.value(for: c) { compute(c) }
    }

    /// An emoji cluster as tmux 3.3 draws it: regional-indicator pairs 2; else its first code
    /// point (2 when it has Emoji_Presentation or is wide, else 1) and 2 per skin-tone modifier.
    static func tmuxWidth(_ c: Character) -> Int {
        let scalars = Array(c.unicodeScalars)
        guard let first = scalars.first else { return 0 }
        if scalars.count == 2, scalars.allSatisfy({ (0x1F1E6...0x1F1FF).contains($0.value) }) { return 2 }
        let base = first.properties.isEmojiPresentation || pb_codepoint_width(first.value) == 2 ? 2 : 1
        let modifiers = scalars.dropFirst().filter { (0x1F3FB...0x1F3FF).contains($0.value) }.count
        return base + 2 * modifiers
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
