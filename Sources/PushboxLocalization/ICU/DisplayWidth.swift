import CICUWrap
import Foundation

/// How many terminal columns text takes, measured per grapheme cluster (Swift `Character`), not
/// per code point as glibc's `wcwidth` does: a ZWJ family, a flag, a skin-toned or VS16 emoji is
/// one 2-column glyph; combining marks add nothing. Data from ICU.
public enum DisplayWidth {
    private static let cache = LockedCache<Character, Int>()

    /// The columns a terminal gives the grapheme (0, 1 or 2).
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

    private static func compute(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // Emoji sequences: VS16, ZWJ joins, skin tones, and regional-indicator flags draw as one wide glyph.
        if scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D || (0x1F3FB...0x1F3FF).contains($0.value) }) { return 2 }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count >= 2 ? 2 : 1 }
        var width = 0
        for s in scalars { width = max(width, Int(pb_codepoint_width(s.value))) }
        return width
    }
}
