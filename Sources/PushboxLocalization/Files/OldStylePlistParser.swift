import PushboxJSON

/// Reads the text form of a `.strings` file (an old-style property list) as CoreFoundation
/// does (`CFOldStylePList.c`): `"key" = "value";` pairs with or without enclosing braces,
/// `"key";` meaning value = key, `//` and `/* */` comments, `"` or `'` quotes, unquoted strings
/// of `A-Z a-z 0-9 _ $ / : . -`, the escapes `\a \b \f \n \r \t \v`, `\U` with up to four
/// hex digits, `\` with one to three octal digits (NeXTSTEP Latin), any other escaped
/// character as itself. The last of duplicate keys wins. Without braces, CoreFoundation stops
/// at the first thing that cannot start a key and ignores the rest of the file: so does
/// pushbox, and notes it.
struct OldStylePlistParser {
    private let bytes: [UInt8]
    private var index = 0
    let file: String
    var notes: [FileNote] = []
    /// The line each key was (last) defined on, for lint and warnings.
    private(set) var keyLines: [String: Int] = [:]

    /// CoreFoundation's nesting limit on 64-bit systems (`MAX_DEPTH`).
    static let maxDepth = 512

    init(utf8 bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// A failure at a byte offset: its line and column are worked out only for the one that
    /// ends the parse, since CoreFoundation's arrays swallow their elements' failures (a file of
    /// nested arrays would otherwise cost a line count per level).
    struct Failure: Error {
        let offset: Int
        let message: String
    }

    /// Parses a whole `.strings` file into its top-level dictionary: one value (a dictionary
    /// in braces), or, when a string comes first and more follows, `key = value;` pairs.
    mutating func parseStringsFile() throws(LocalizationFileError) -> [String: PlistValue] {
        do throws(Failure) { return try parseWholeFile() } catch {
            let (line, column) = TextPosition.of(error.offset, in: bytes)
            throw LocalizationFileError(file: file, line: line, column: column, message: error.message)
        }
    }

    private mutating func parseWholeFile() throws(Failure) -> [String: PlistValue] {
        skipSpace()
        guard index < bytes.count else { return [:] }
        guard let first = try parseObject(required: true, depth: 0) else { throw error("expected a key") }
        skipSpace()
        if index >= bytes.count {
            guard case .dict(let d) = first else {
                index = 0
                throw error("the file holds a \(first.typeName), not a dictionary")
            }
            return d
        }
        guard case .string = first else { throw error("unexpected \(describe()) after the \(first.typeName)") }
        index = 0
        return try parseDictionaryContent(depth: 0, braced: false)
    }

    /// `key = value;` pairs until something that cannot start a key (`parsePlistDictContent`);
    /// without braces, whatever is left is ignored.
    private mutating func parseDictionaryContent(depth: Int, braced: Bool) throws(Failure) -> [String: PlistValue] {
        var dict: [String: PlistValue] = [:]
        while true {
            skipSpace()
            let keyStart = index
            let keyLine = currentLine()
            guard let key = try parseString(required: false) else {
                if !braced, keyStart < bytes.count {
                    index = keyStart
                    let what = bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") ? "a string that never ends" : describe()
                    notes.append(
                        FileNote(
                            .restOfFileIgnored, file: file, line: keyLine,
                            message: "\(what) where a key belongs: CoreFoundation stops reading here and ignores the rest of the file"))
                }
                index = keyStart
                return dict
            }
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file after key \"\(key)\": missing ';'") }
            let value: PlistValue
            if bytes[index] == UInt8(ascii: ";") {
                value = .string(key)
            } else if bytes[index] == UInt8(ascii: "=") {
                index += 1
                guard let v = try parseObject(required: true, depth: depth + 1) else { throw error("expected a value") }
                value = v
            } else {
                throw error("unexpected \(describe()) after key \"\(key)\", expected '=' or ';'")
            }
            if dict[key] != nil, depth == 0 {
                notes.append(
                    FileNote(
                        .duplicateKey, file: file, line: keyLine,
                        message: "duplicate key \"\(key)\" (first defined on line \(keyLines[key] ?? 0)); the last one wins"))
            }
            if depth == 0 { keyLines[key] = keyLine }
            dict[key] = value
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
                throw error(
                    index < bytes.count
                        ? "missing ';' after the value of \"\(key)\" (found \(describe()))"
                        : "unexpected end of file: missing ';' after the value of \"\(key)\"")
            }
            index += 1
        }
    }

    /// One value (`parsePlistObject`); nil when `required` is false and nothing starts here.
    private mutating func parseObject(required: Bool, depth: Int) throws(Failure) -> PlistValue? {
        guard depth <= Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels") }
        skipSpace()
        guard index < bytes.count else {
            if required { throw error("unexpected end of file, expected a value") }
            return nil
        }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            let dict = try parseDictionaryContent(depth: depth, braced: true)
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                throw error(index < bytes.count ? "unexpected \(describe()) in a dictionary: missing '}'" : "unexpected end of file: missing '}'")
            }
            index += 1
            return .dict(dict)
        case UInt8(ascii: "("):
            index += 1
            var array: [PlistValue] = []
            var item = parseElement(depth: depth + 1)
            while let value = item {
                array.append(value)
                skipSpace()
                guard index < bytes.count else { throw error("unexpected end of file: missing ')'") }
                item = nil
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    item = parseElement(depth: depth + 1)
                }
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ")") else {
                throw error("unexpected \(describe()) in an array, expected ',' or ')'")
            }
            index += 1
            return .array(array)
        case UInt8(ascii: "<"):
            return .data(try parseData())
        default:
            guard let s = try parseString(required: required) else {
                if required { throw error("unexpected \(describe()), expected a value") }
                return nil
            }
            return .string(s)
        }
    }

    /// An array's next element: like CoreFoundation, an element that fails to parse ends the
    /// array where the failure left off, and the array is fine if a `)` is there.
    private mutating func parseElement(depth: Int) -> PlistValue? {
        do { return try parseObject(required: false, depth: depth) } catch { return nil }
    }

    /// A quoted or unquoted string (`parsePlistString`). When not `required`, nothing that
    /// starts here, and a quoted string that never ends, give nil — CoreFoundation clears that
    /// error on its way out.
    private mutating func parseString(required: Bool) throws(Failure) -> String? {
        guard index < bytes.count else { return nil }
        let c = bytes[index]
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            if required { return try parseQuoted(c) }
            let open = index
            do { return try parseQuoted(c) } catch {
                index = open + 1
                return nil
            }
        }
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
                var value = UInt8(e - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    value = value &<< 3 &+ (bytes[index] - UInt8(ascii: "0"))  // a byte, as in CF: \777 is 0xFF
                    index += 1
                    digits += 1
                }
                ByteText.appendUTF8(NeXTSTEPLatin.character(value), to: &out)
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

    /// `<hex bytes>` (`parsePlistData`): pairs of hex digits, with space, tab, CR, LF, U+2028
    /// or U+2029 between pairs, never inside one.
    private mutating func parseData() throws(Failure) -> [UInt8] {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: ">") {
                index += 1
                return out
            }
            if let high = ByteText.hexValue(c) {
                index += 1
                guard index < bytes.count, let low = ByteText.hexValue(bytes[index]) else { throw error("odd number of hex digits in data") }
                out.append(high << 4 | low)
                index += 1
            } else if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                index += 1
            } else if let width = lineSeparatorWidth(at: index) {
                index += width
            } else {
                throw error("unexpected \(describe()) in data, expected hex digits")
            }
        }
        throw error("unexpected end of file: missing '>'")
    }

    /// 3 when U+2028 or U+2029 starts at `i`.
    private func lineSeparatorWidth(at i: Int) -> Int? {
        i + 2 < bytes.count && bytes[i] == 0xE2 && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) ? 3 : nil
    }

    /// Skips whitespace (tab to CR, space, U+2028, U+2029) and comments.
    private mutating func skipSpace() {
        while index < bytes.count {
            let c = bytes[index]
            if c == 0x20 || (0x09...0x0D).contains(c) {
                index += 1
                continue
            }
            if let width = lineSeparatorWidth(at: index) {
                index += width
                continue
            }
            if c == UInt8(ascii: "/"), index + 1 < bytes.count {
                if bytes[index + 1] == UInt8(ascii: "/") {
                    index += 2
                    while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D, lineSeparatorWidth(at: index) == nil { index += 1 }
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

    private var lines = LineCounter()

    /// The current line, counted incrementally so a whole file costs one pass.
    mutating func currentLine() -> Int { lines.line(at: index, in: bytes) }

    private func error(_ message: String) -> Failure { Failure(offset: index, message: message) }
}
