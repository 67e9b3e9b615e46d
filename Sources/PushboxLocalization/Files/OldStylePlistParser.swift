import PushboxText

/// Reads the text form of a `.strings` file (an old-style property list, CFOldStylePList.c):
/// `"key" = "value";` pairs with or without enclosing braces, `"key";` meaning value = key,
/// `//` and `/* */` comments, `"` or `'` quotes, unquoted strings of `A-Z a-z 0-9 _ $ / : . -`,
/// the escapes `\a \b \f \n \r \t \v`, `\U` with up to four hex digits, `\` with one to three
/// octal digits, any other escaped character as itself. The last of duplicate keys wins.
struct OldStylePlistParser {
    private let bytes: [UInt8]
    private var index = 0
    private let file: String
    private(set) var notes: [FileNote] = []
    /// The line each key was (last) defined on, for lint and warnings.
    private(set) var keyLines: [String: Int] = [:]
    private var depth = 0

    init(utf8 bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    typealias Failure = LocalizationFileError

    /// Parses a whole `.strings` file into its top-level dictionary.
    mutating func parseStringsFile() throws(Failure) -> [String: PlistValue] {
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
            guard case .dict(let d) = try parseValue() else { throw error("expected a dictionary") }
            skipSpace()
            guard index >= bytes.count else { throw error("unexpected \(describe()) after the dictionary") }
            return d
        }
        var dict: [String: PlistValue] = [:]
        try parseDictionaryContent(into: &dict, terminator: nil)
        return dict
    }

    /// `key = value;` pairs until `terminator` (or the end of the file when nil).
    private mutating func parseDictionaryContent(into dict: inout [String: PlistValue], terminator: UInt8?) throws(Failure) {
        while true {
            skipSpace()
            if index >= bytes.count {
                if terminator != nil { throw error("unexpected end of file: missing '}'") }
                return
            }
            if let terminator, bytes[index] == terminator {
                index += 1
                return
            }
            let keyLine = currentLine()
            guard let key = try parseString() else { throw error("unexpected \(describe()), expected a key (a quoted or unquoted string)") }
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file after key \"\(key)\": missing ';'") }
            let value: PlistValue
            if bytes[index] == UInt8(ascii: ";") {
                value = .string(key)
            } else if bytes[index] == UInt8(ascii: "=") {
                index += 1
                skipSpace()
                value = try parseValue()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
                    throw error(
                        index < bytes.count
                            ? "missing ';' after the value of \"\(key)\" (found \(describe()))"
                            : "unexpected end of file: missing ';' after the value of \"\(key)\"")
                }
            } else {
                throw error("unexpected \(describe()) after key \"\(key)\", expected '=' or ';'")
            }
            index += 1
            if dict[key] != nil, depth == 0 {
                notes.append(
                    FileNote(
                        .duplicateKey, file: file, line: keyLine,
                        message: "duplicate key \"\(key)\" (first defined on line \(keyLines[key] ?? 0)); the last one wins"))
            }
            if depth == 0 { keyLines[key] = keyLine }
            dict[key] = value
        }
    }

    private mutating func parseValue() throws(Failure) -> PlistValue {
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            depth += 1
            guard depth < 64 else { throw error("nested more than 64 levels") }
            var dict: [String: PlistValue] = [:]
            try parseDictionaryContent(into: &dict, terminator: UInt8(ascii: "}"))
            depth -= 1
            return .dict(dict)
        case UInt8(ascii: "("):
            index += 1
            depth += 1
            guard depth < 64 else { throw error("nested more than 64 levels") }
            var array: [PlistValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ")") {
                index += 1
                depth -= 1
                return .array(array)
            }
            while true {
                skipSpace()
                array.append(try parseValue())
                skipSpace()
                guard index < bytes.count else { throw error("unexpected end of file: missing ')'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ")") {
                        index += 1
                        break
                    }
                    continue
                }
                if bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    break
                }
                throw error("unexpected \(describe()) in an array, expected ',' or ')'")
            }
            depth -= 1
            return .array(array)
        case UInt8(ascii: "<"):
            return .data(try parseData())
        default:
            guard let s = try parseString() else { throw error("unexpected \(describe()), expected a value") }
            return .string(s)
        }
    }

    /// A quoted or unquoted string; nil when the current character starts neither.
    private mutating func parseString() throws(Failure) -> String? {
        guard index < bytes.count else { return nil }
        let c = bytes[index]
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { return try parseQuoted(c) }
        guard Self.isUnquoted(c) else { return nil }
        let start = index
        while index < bytes.count, Self.isUnquoted(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    static func isUnquoted(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    // Long on purpose: one escape table, read top to bottom as CFOldStylePList's is.
    private mutating func parseQuoted(_ quote: UInt8) throws(Failure) -> String {
        let openIndex = index
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != quote, bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count else {
            index = openIndex
            throw error("unterminated string")
        }
        if bytes[index] == quote {
            let s = String(decoding: bytes[start..<index], as: UTF8.self)
            index += 1
            return s
        }
        // Escapes: build the UTF-8 bytes, pairing \U surrogates as CFString would.
        var out = Array(bytes[start..<index])
        var pendingHigh: UInt16?
        func flushPending(_ parser: inout OldStylePlistParser) {
            if pendingHigh != nil {
                ByteText.appendUTF8("\u{FFFD}", to: &out)
                parser.notes.append(
                    FileNote(
                        .unpairedSurrogate, file: parser.file, line: parser.currentLine(),
                        message: "\\U escape gives an unpaired UTF-16 surrogate; shown as U+FFFD"))
                pendingHigh = nil
            }
        }
        while index < bytes.count {
            let c = bytes[index]
            if c == quote {
                flushPending(&self)
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            guard c == UInt8(ascii: "\\") else {
                flushPending(&self)
                out.append(c)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            if e == UInt8(ascii: "U") {
                var value: UInt16 = 0
                var digits = 0
                while digits < 4, index < bytes.count, let h = ByteText.hexValue(bytes[index]) {
                    value = value << 4 | UInt16(h)
                    index += 1
                    digits += 1
                }
                if (0xDC00...0xDFFF).contains(value), let high = pendingHigh {
                    let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(value) - 0xDC00)
                    ByteText.appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out)
                    pendingHigh = nil
                    continue
                }
                flushPending(&self)
                if (0xD800...0xDBFF).contains(value) {
                    pendingHigh = value
                } else if (0xDC00...0xDFFF).contains(value) {
                    pendingHigh = value
                    flushPending(&self)
                } else {
                    ByteText.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}", to: &out)
                }
                continue
            }
            flushPending(&self)
            switch e {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(e - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    value = value * 8 + UInt32(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                // Values of 128 and up are NeXTSTEP-encoded in CF; Latin-1 agrees for the letters in use.
                ByteText.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}", to: &out)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "v"): out.append(0x0B)
            default: out.append(e)  // \" \' \\ backslash-newline and any other: the character itself
            }
        }
        index = openIndex
        throw error("unterminated string (a backslash at the end of the file escapes nothing)")
    }

    private mutating func parseData() throws(Failure) -> [UInt8] {
        index += 1
        var out: [UInt8] = []
        var high: UInt8?
        while index < bytes.count {
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: ">") {
                guard high == nil else { throw error("odd number of hex digits in data") }
                return out
            }
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { continue }
            guard let v = ByteText.hexValue(c) else {
                index -= 1
                throw error("unexpected \(describe()) in data, expected hex digits")
            }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        throw error("unexpected end of file: missing '>'")
    }

    /// Skips whitespace (tab to CR, space, U+2028, U+2029) and comments.
    private mutating func skipSpace() {
        while index < bytes.count {
            let c = bytes[index]
            if c == 0x20 || (0x09...0x0D).contains(c) {
                index += 1
                continue
            }
            if c == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                index += 3
                continue
            }
            if c == UInt8(ascii: "/"), index + 1 < bytes.count {
                if bytes[index + 1] == UInt8(ascii: "/") {
                    index += 2
                    while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
                    continue
                }
                if bytes[index + 1] == UInt8(ascii: "*") {
                    index += 2
                    while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                    // An unterminated comment runs to the end of the file, as in CF.
                    index = min(index + 2, bytes.count)
                    continue
                }
            }
            return
        }
    }

    private func describe() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b >= 0x80 {
            // Name the whole character.
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return "'\(String(decoding: bytes[index..<end], as: UTF8.self))'"
        }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    private var lineCursor = 0
    private var lineAtCursor = 1

    /// The current line, counted incrementally so a whole file costs one pass.
    mutating func currentLine() -> Int {
        if index < lineCursor {
            lineCursor = 0
            lineAtCursor = 1
        }
        while lineCursor < index {
            let b = bytes[lineCursor]
            if b == 0x0A || (b == 0x0D && (lineCursor + 1 >= bytes.count || bytes[lineCursor + 1] != 0x0A)) { lineAtCursor += 1 }
            lineCursor += 1
        }
        return lineAtCursor
    }

    /// 1-based line and column (in characters) of the current index.
    private func position() -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var i = 0
        let end = min(index, bytes.count)
        while i < end {
            if bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        let column = bytes[lineStart..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } + 1
        return (line, column)
    }

    private func error(_ message: String) -> Failure {
        let (line, column) = position()
        return LocalizationFileError(file: file, line: line, column: column, message: message)
    }
}
