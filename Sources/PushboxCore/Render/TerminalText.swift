/// Makes payload text safe to print on a terminal: no control character from a payload ever
/// reaches it, so no escape sequence can move the cursor, change colours or set the title.
public enum TerminalText {
    /// Replaces C0 and C1 control characters and DEL with visible caret notation (`ESC` → `^[`),
    /// keeping newlines when `keepNewlines` is set and turning tabs into spaces.
    public static func sanitize(_ text: String, keepNewlines: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepNewlines:
                out.append(scalar)
            case 0x09:
                out.append(" ")
            case 0x0A:
                out.append(contentsOf: "⏎".unicodeScalars)
            case 0x00..<0x20:
                out.append("^")
                out.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F:
                out.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F:
                out.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }
}
