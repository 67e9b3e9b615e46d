import PushboxJSON

/// AAPT2's `StringBuilder::AppendText` state machine, over UTF-8 bytes: runs of ordinary
/// bytes are copied whole; whitespace (outside quotes), `\`, `"` and `'` are what it acts on.
struct AAPTStringBuilder {
    private var bytes: [UInt8] = []
    private(set) var error: String?
    private var quote = false
    private var lastWasSpace = false

    /// The text built so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// Its length in UTF-8 bytes.
    var utf8Count: Int { bytes.count }

    mutating func resetState() {
        quote = false
        lastWasSpace = false
    }

    mutating func append(_ segment: String) {
        guard error == nil else { return }
        var segment = segment
        segment.withUTF8 { append(bytes: $0) }
    }

    private mutating func append(bytes input: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = input.count
        while i < n {
            let c = input[i]
            if !quote, c.isAAPTWhitespace {
                if !lastWasSpace {
                    bytes.append(0x20)
                    lastWasSpace = true
                }
                i += 1
                continue
            }
            lastWasSpace = false
            switch c {
            case UInt8(ascii: "\\"):
                i += 1
                guard i < n else { return }
                let e = input[i]
                i += 1
                switch e {
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "u"):
                    var code: UInt32 = 0
                    var digits = 0
                    while digits < 4, i < n {
                        guard let digit = ByteText.hexValue(input[i]).map(UInt32.init) else {
                            error = "invalid unicode escape sequence in string"
                            return
                        }
                        code = code << 4 | digit
                        digits += 1
                        i += 1
                    }
                    guard let scalar = Unicode.Scalar(code) else {
                        error = "invalid unicode escape sequence in string"
                        return
                    }
                    ByteText.appendUTF8(scalar, to: &bytes)
                default:
                    // `\#`, `\@`, `\?`, `\"`, `\'`, `\\` and any other: the character itself, whole.
                    let end = Self.scalarEnd(input, from: i - 1)
                    bytes.append(contentsOf: input[(i - 1)..<end])
                    i = end
                }
            case UInt8(ascii: "\""):
                quote.toggle()
                i += 1
            case UInt8(ascii: "'") where !quote:
                error = "unescaped apostrophe in string"
                return
            default:
                // A run of bytes nothing acts on, copied at once.
                var end = i + 1
                while end < n, !Self.acts(input[end], quote: quote) { end += 1 }
                bytes.append(contentsOf: input[i..<end])
                i = end
            }
        }
    }

    /// Whether the builder acts on byte `c` (else it is copied as it is).
    private static func acts(_ c: UInt8, quote: Bool) -> Bool {
        c == UInt8(ascii: "\\") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || (!quote && c.isAAPTWhitespace)
    }

    /// The end of the UTF-8 sequence that starts at `i`.
    private static func scalarEnd(_ input: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
        var end = i + 1
        while end < input.count, input[end] & 0xC0 == 0x80 { end += 1 }
        return end
    }
}

extension UInt8 {
    /// Space, tab, line feed, vertical tab, form feed, carriage return: `isspace` in the C locale.
    var isAAPTWhitespace: Bool { self == 0x20 || (0x09...0x0D).contains(self) }
}

extension String {
    /// Without leading and trailing ASCII whitespace, judged byte by byte as AAPT2's
    /// `util::TrimWhitespace` judges it.
    func trimmingAAPTWhitespace(leading: Bool = true, trailing: Bool = true) -> String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !$0.isAAPTWhitespace }), let last = bytes.lastIndex(where: { !$0.isAAPTWhitespace }) else {
            return ""
        }
        return String(self[(leading ? first : startIndex)..<(trailing ? bytes.index(after: last) : endIndex)])
    }

    /// The first byte that is not ASCII whitespace, if any.
    var firstNonAAPTWhitespace: UInt8? { utf8.first { !$0.isAAPTWhitespace } }
}

extension LocalizationFileError {
    /// The error at byte `offset` of `bytes`.
    static func at(_ offset: Int, in bytes: [UInt8], file: String, _ message: String) -> LocalizationFileError {
        let (line, column) = TextPosition.of(offset, in: bytes)
        return LocalizationFileError(file: file, line: line, column: column, message: message)
    }
}
