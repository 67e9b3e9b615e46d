/// Makes payload text safe to print on a terminal: no control character from a payload ever
/// reaches it, so no escape sequence can move the cursor, change colours or set the title, and
/// no bidi override can make the text print reversed. What is unsafe is `UnsafeScalar`'s table.
public enum TerminalText {
    /// Replaces C0 and C1 control characters and DEL with visible caret notation (`ESC` → `^[`)
    /// and bidi controls with ⸿ (as the TUI shows them), keeping newlines when `keepNewlines` is
    /// set and turning tabs into spaces.
    public static func sanitize(_ text: String, keepNewlines: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch UnsafeScalar.classify(scalar) {
            case nil:
                out.append(scalar)
            case .c0(0x0A) where keepNewlines:
                out.append(scalar)
            case .c0(0x09):
                out.append(" ")
            case .c0(0x0A):
                out.append(contentsOf: "⏎".unicodeScalars)
            case .c0(let code):
                out.append("^")
                out.append(Unicode.Scalar(code + 0x40))
            case .delete:
                out.append(contentsOf: "^?".unicodeScalars)
            case .c1:
                out.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            case .bidiControl:
                out.append(UnsafeScalar.bidiMarker)
            }
        }
        return String(out)
    }
}
