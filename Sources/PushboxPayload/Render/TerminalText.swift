/// Makes payload text safe to print on a terminal: no control character from a payload ever
/// reaches it, so no escape sequence can move the cursor, change colours or set the title, and
/// no bidi override can make the text print reversed. What is unsafe is `UnsafeScalar`'s table.
public enum TerminalText {
    /// Replaces C0 controls with their control pictures (`ESC` → `␛`), DEL with ␡, C1 controls
    /// with ⍰ and bidi controls with ⸿, exactly as the inbox shows them; keeps newlines when
    /// `keepNewlines` is set (else ⏎) and turns tabs into spaces.
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
            // The inbox's own signs, so text output and the screen show an escape alike (␛[31m).
            case let unsafe?:
                out.append(unsafe.visible)
            }
        }
        return String(out)
    }
}
