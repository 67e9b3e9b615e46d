import PushboxCore
import PushboxLocalization

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
            case .c0(let code): out.append(Unicode.Scalar(0x2400 + UInt32(code))!)
            case .delete: out.append("\u{2421}")
            case .c1: out.append("\u{2370}")
            case .bidiControl: out.append(UnsafeScalar.bidiMarker)  // ⸿: a bidi control was here
            }
        }
        return String(out)
    }

    /// Whether text holds right-to-left letters (Arabic, Hebrew, …): the view shows it in
    /// logical order with a marker, since terminals reorder inconsistently.
    public static func isRightToLeft(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            (0x0590...0x08FF).contains($0.value) || (0xFB1D...0xFDFF).contains($0.value) || (0xFE70...0xFEFF).contains($0.value)
        }
    }

    /// Clean text with a ⇐ marker in front when it reads right to left.
    public static func line(_ text: String) -> String {
        let c = clean(text)
        return isRightToLeft(c) ? "⇐ " + c : c
    }

    /// Wraps text into lines of at most `width` columns, breaking at spaces where it can
    /// (CJK text breaks anywhere).
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in clean(text, keepNewlines: true).split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            var word = ""
            var wordWidth = 0
            func flushWord() {
                if lineWidth + wordWidth > width, !line.isEmpty {
                    lines.append(line.trimmingTrailingSpaces())
                    line = ""
                    lineWidth = 0
                    if word.first == " " {
                        word.removeFirst()
                        wordWidth -= 1
                    }
                }
                while wordWidth > width {
                    // A word longer than the line: cut it.
                    var head = ""
                    var headWidth = 0
                    for c in word {
                        let w = DisplayWidth.of(c)
                        if headWidth + w > width { break }
                        head.append(c)
                        headWidth += w
                    }
                    lines.append(head)
                    word.removeFirst(head.count)
                    wordWidth -= headWidth
                }
                line += word
                lineWidth += wordWidth
                word = ""
                wordWidth = 0
            }
            for c in paragraph {
                let w = DisplayWidth.of(c)
                if c == " " {
                    flushWord()
                    word = " "
                    wordWidth = 1
                    continue
                }
                word.append(c)
                wordWidth += w
                if w == 2 { flushWord() }  // wide (CJK) characters may break anywhere
            }
            flushWord()
            lines.append(line.trimmingTrailingSpaces())
        }
        return lines
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
