/// Byte-level helpers the text parsers share.
public enum ByteText {
    /// The value of an ASCII hex digit, or nil.
    @inline(__always)
    public static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Appends a scalar's UTF-8 bytes.
    public static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let v = scalar.value
        switch v {
        case ..<0x80: out.append(UInt8(v))
        case ..<0x800: out += [UInt8(0xC0 | v >> 6), UInt8(0x80 | v & 0x3F)]
        case ..<0x10000: out += [UInt8(0xE0 | v >> 12), UInt8(0x80 | v >> 6 & 0x3F), UInt8(0x80 | v & 0x3F)]
        default: out += [UInt8(0xF0 | v >> 18), UInt8(0x80 | v >> 12 & 0x3F), UInt8(0x80 | v >> 6 & 0x3F), UInt8(0x80 | v & 0x3F)]
        }
    }

    /// `text` without the spaces and tabs around it (HTTP's optional whitespace), read as UTF-8:
    /// Foundation's `trimmingCharacters(in:)` goes through UTF-16 and was a tenth of the HTTP/2
    /// intake's CPU, trimming a provider token on every request.
    public static func trimmingSpaces<S: StringProtocol>(_ text: S) -> String {
        let text = Substring(text)
        let utf8 = text.utf8
        let isSpace = { (b: UInt8) in b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = utf8.lastIndex(where: { !isSpace($0) })!
        return String(text[first...last])
    }
}
