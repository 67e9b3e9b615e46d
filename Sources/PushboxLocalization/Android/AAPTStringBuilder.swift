import PushboxJSON

/// AAPT2's `StringBuilder::AppendText` state machine.
struct AAPTStringBuilder {
    private(set) var text = ""
    private(set) var error: String?
    private var quote = false
    private var lastWasSpace = false

    mutating func resetState() {
        quote = false
        lastWasSpace = false
    }

    mutating func append(_ segment: String) {
        guard error == nil else { return }
        var it = segment.unicodeScalars.makeIterator()
        while let c = it.next() {
            if !quote, c.value < 128, Character(c).isASCIIWhitespaceForAAPT {
                if !lastWasSpace {
                    text.append(" ")
                    lastWasSpace = true
                }
                continue
            }
            lastWasSpace = false
            switch c {
            case "\\":
                guard let e = it.next() else { continue }
                switch e {
                case "t": text.append("\t")
                case "n": text.append("\n")
                case "#", "@", "?", "\"", "'", "\\": text.unicodeScalars.append(e)
                case "u":
                    var code: UInt32 = 0
                    for _ in 0..<4 {
                        guard let h = it.next() else { break }
                        guard h.isASCII, let digit = UInt32(String(h), radix: 16) else {
                            error = "invalid unicode escape sequence in string"
                            return
                        }
                        code = code << 4 | digit
                    }
                    guard let scalar = Unicode.Scalar(code) else {
                        error = "invalid unicode escape sequence in string"
                        return
                    }
                    text.unicodeScalars.append(scalar)
                default: text.unicodeScalars.append(e)
                }
            case "\"": quote.toggle()
            case "'" where !quote:
                error = "unescaped apostrophe in string"
                return
            default: text.unicodeScalars.append(c)
            }
        }
    }
}

extension Character {
    /// C's `isspace` for ASCII: space, tab, newline, vertical tab, form feed, carriage return.
    var isASCIIWhitespaceForAAPT: Bool {
        self == " " || self == "\t" || self == "\n" || self == "\u{0B}" || self == "\u{0C}" || self == "\r" || self == "\r\n"
    }
}

extension String {
    func trimmingAAPTWhitespace() -> String {
        String(drop { $0.isASCIIWhitespaceForAAPT }.reversed().drop { $0.isASCIIWhitespaceForAAPT }.reversed())
    }
}

extension LocalizationFileError {
    /// The error at byte `offset` of `bytes`.
    static func at(_ offset: Int, in bytes: [UInt8], file: String, _ message: String) -> LocalizationFileError {
        let (line, column) = TextPosition.of(offset, in: bytes)
        return LocalizationFileError(file: file, line: line, column: column, message: message)
    }
}
