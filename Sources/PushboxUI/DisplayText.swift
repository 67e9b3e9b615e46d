import PushboxLocalization
import PushboxPayload

/// Payload text made safe and honest for the screen: no control character ever reaches the
/// terminal. C0 controls show as Unicode control pictures (ESC → ␛), DEL as ␡, C1 controls as
/// ⍰, bidi overrides and isolates as visible markers; newlines and tabs become spaces on one line.
public enum DisplayText {
    /// `text` safe for one terminal line: control characters as control pictures, bidi controls shown, never obeyed.
    public static func clean(_ text: String, keepNewlines: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch UnsafeScalar.classify(s) {
            case nil: out.append(s)
            case .c0(0x0A) where keepNewlines: out.append(s)
            case .c0(0x0A), .c0(0x09), .c0(0x0D): out.append(" ")
            case let unsafe?: out.append(unsafe.visible)  // ␛, ␡, ⍰, ⸿ (a bidi control was here)
            }
        }
        return String(out)
    }

    /// Clean text on one line, in visual order by the Unicode Bidirectional Algorithm when it
    /// holds right-to-left letters (its first strong character sets the paragraph's direction);
    /// `bidi` false leaves the order to a terminal that reorders by itself.
    public static func line(_ text: String, bidi: Bool = true) -> String {
        let c = clean(text)
        return bidi ? TextLayout.visualOrder(c, rightToLeft: TextLayout.isRightToLeft(c)) : c
    }

    /// Wraps text into lines of at most `width` columns where the phone would break them: at
    /// UAX #14's opportunities for the device's `language` (ICU's line breaking: no line begins
    /// with closing punctuation or a small kana, Thai at word boundaries, Korean between words),
    /// a word longer than a line cut at a grapheme cluster boundary.
    public static func wrap(_ text: String, width: Int, language: String? = nil) -> [String] {
        TextLayout.wrap(clean(text, keepNewlines: true), width: width, language: language)
    }

    /// Wrapped as `wrap` wraps, at most `maxLines` lines: when text is left over, the last line
    /// shown ends in "…", so a cut never looks like the end.
    public static func wrap(_ text: String, width: Int, maxLines: Int, language: String? = nil) -> [String] {
        var lines = wrap(text, width: width, language: language)
        guard maxLines > 0 else { return [] }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = truncate(lines[maxLines - 1], width: max(0, width - 1)) + "…"
        }
        return lines
    }

}

extension DisplayText {
    /// Clean text fitted to `width` columns on one line: cut in logical order with "…" when it
    /// does not fit (so the ellipsis ends the sentence, on the left of a right-to-left one),
    /// then in visual order.
    public static func fitted(_ text: String, width: Int, bidi: Bool = true) -> String {
        let c = clean(text)
        let cut = DisplayWidth.of(c) > width ? truncate(c, width: max(0, width - 1)) + "…" : c
        return bidi ? TextLayout.visualOrder(cut, rightToLeft: TextLayout.isRightToLeft(cut)) : cut
    }

    /// The longest start of `text` that fits `width` columns, cut at a grapheme cluster boundary.
    public static func truncate(_ text: String, width: Int) -> String {
        var out = ""
        var used = 0
        for c in text {
            let w = DisplayWidth.of(c)
            if used + w > width { break }
            out.append(c)
            used += w
        }
        return out
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
