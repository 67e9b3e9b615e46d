/// Why a body could not be read as JSON, with the position a user can find it at.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong with the text.
    public enum Kind: Sendable, Equatable {
        case syntax
        case invalidUTF8
        case nulByte
        case tooDeep
    }
    /// What went wrong.
    public var kind: Kind
    /// What went wrong, in words.
    public var message: String
    /// 1-based line and column (columns count bytes, as editors' byte columns do).
    public var line: Int
    /// The column (in characters) where it went wrong.
    public var column: Int

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Foundation's `JSONSerialization` accepts trailing commas, stops at 512 levels with only a
/// character offset, and cannot say which key repeats; APNs and the people sending pushes
/// need exact answers, so pushbox reads JSON itself. Values nest at most `maxDepth` deep.
public struct JSONParser {
    /// The nesting depth refused beyond (APNs' own limit is unpublished; 100 keeps the stack safe).
    public static let defaultMaxDepth = 100

    /// The document, borrowed for the parse: reading through a buffer pointer skips the
    /// array's per-byte bounds and ownership checks (the parser checks `index` itself).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxDepth: Int
    private var depth = 0
    /// Whether an object may hold a key twice: set when a key meets an earlier one of an object
    /// of up to `repeatCheckLimit` keys, and when a key of a larger object shares its length
    /// with an earlier one (not compared: a pass per key is quadratic). Validation spells out
    /// repeated keys only for a document that may have them.
    private var mayRepeatKeys = false
    /// Objects with more keys are not compared key by key here.
    static let repeatCheckLimit = 16

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses one JSON document; anything but whitespace after it is an error.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var mayRepeatKeys = false
        return try parse(bytes, maxDepth: maxDepth, mayRepeatKeys: &mayRepeatKeys)
    }

    /// `parse`, also saying whether any object in the document may hold a key twice (false:
    /// none does).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth, mayRepeatKeys: inout Bool) throws(JSONParseError)
        -> JSONValue
    {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                return .success(try parse(buffer, maxDepth: maxDepth, mayRepeatKeys: &mayRepeatKeys))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, mayRepeatKeys: inout Bool) throws(JSONParseError)
        -> JSONValue
    {
        if let bad = UTF8Check.firstInvalidOffset(in: bytes) {
            var p = JSONParser(bytes: bytes, maxDepth: maxDepth)
            p.index = bad
            throw p.error(.invalidUTF8, "invalid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at offset \(bad))")
        }
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw parser.error(.syntax, "a byte order mark starts the body; JSON sent to APNs is plain UTF-8")
        }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error(.syntax, "unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        mayRepeatKeys = parser.mayRepeatKeys
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error(.syntax, "unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error(.syntax, "unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw error(.tooDeep, "nesting deeper than \(maxDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        var entries: [(key: String, value: JSONValue)] = []
        entries.reserveCapacity(4)
        /// Bit n: a key of n UTF-8 bytes is among the entries (bit 63: of 63 or more).
        var lengths: UInt64 = 0
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                let trailing = peek(UInt8(ascii: "}"))
                throw error(.syntax, trailing ? "trailing comma before '}'" : "unexpected \(describeCurrent()), expected a key in double quotes")
            }
            let key = try parseString()
            if !mayRepeatKeys {
                // Keys are compared only with earlier keys of their UTF-8 length (as `sameKey`
                // tells keys apart); most keys of an object have a length of their own.
                let bit: UInt64 = 1 << UInt64(min(key.utf8.count, 63))
                if lengths & bit != 0 {
                    mayRepeatKeys = entries.count >= Self.repeatCheckLimit || entries.contains { JSONObject.sameKey($0.key, key) }
                }
                lengths |= bit
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error(.syntax, "unexpected \(describeCurrent()), expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            entries.append((key, value))
            switch try next(closing: UInt8(ascii: "}")) {
            case .another: continue
            case .closed: return .object(JSONObject(entries))
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw error(.syntax, "trailing comma before ']'") }
            elements.append(try parseValue())
            switch try next(closing: UInt8(ascii: "]")) {
            case .another: continue
            case .closed: return .array(elements)
            }
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes. Eight bytes a step while none of them ends the fast path.
        while index + 8 <= bytes.count, !ByteWords.mayEndString(ByteWords.word(bytes, at: index)) {
            index += 8
        }
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw controlCharacterError(b) }
            index += 1
        }
        var scalars = Array(bytes[start..<index])
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &scalars)
            case ..<0x20:
                throw controlCharacterError(b)
            default:
                scalars.append(b)
                index += 1
            }
        }
        throw error(.syntax, "unterminated string")
    }

    private func controlCharacterError(_ b: UInt8) -> JSONParseError {
        if b == 0 { return error(.nulByte, "NUL byte inside a string") }
        return error(.syntax, "unescaped control character 0x\(String(b, radix: 16, uppercase: true)) inside a string")
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(JSONParseError) {
        index += 1
        guard index < bytes.count else { throw error(.syntax, "unterminated escape") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by \u and a low surrogate.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error(.syntax, "high surrogate not followed by a low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    throw error(.syntax, "lone high surrogate in \\u escape")
                }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(.syntax, "lone low surrogate in \\u escape")
            }
            ByteText.appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out)
        default:
            index -= 2  // point at the backslash
            throw error(.syntax, "invalid escape \\\(describeByte(c))")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = ByteText.hexValue(bytes[index]) else {
                throw error(.syntax, "\\u must be followed by four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error(.syntax, "a number may not start with 0") }
        } else {
            guard try skipDigits() else { throw error(.syntax, "expected a digit") }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard try skipDigits() else { throw error(.syntax, "expected a digit after '.'") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard try skipDigits() else { throw error(.syntax, "expected a digit in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Skips digits; tells whether there was at least one.
    private mutating func skipDigits() throws(JSONParseError) -> Bool {
        let start = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index > start
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == expected else {
                index = start
                throw error(.syntax, "unexpected \(describeCurrent()), expected a value")
            }
            index += 1
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ b: UInt8) -> Bool { index < bytes.count && bytes[index] == b }

    /// What follows a member of an object or array: a comma (another member), or `close`.
    private enum AfterMember {
        case another
        case closed
    }

    /// Reads past the comma, or past `close` (leaving the container's depth), after a member.
    private mutating func next(closing close: UInt8) throws(JSONParseError) -> AfterMember {
        skipWhitespace()
        if peek(UInt8(ascii: ",")) {
            index += 1
            return .another
        }
        guard peek(close) else {
            throw error(.syntax, "unexpected \(describeCurrent()), expected ',' or '\(Character(Unicode.Scalar(close)))'")
        }
        index += 1
        depth -= 1
        return .closed
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        return describeByte(bytes[index])
    }

    private func describeByte(_ b: UInt8) -> String {
        if b == 0 { return "NUL byte" }
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    private func error(_ kind: JSONParseError.Kind, _ message: String) -> JSONParseError {
        var line = 1
        var lineStart = 0
        var i = 0
        let end = min(index, bytes.count)
        while i < end {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        let kind = (kind == .syntax && index < bytes.count && bytes[index] == 0) ? .nulByte : kind
        return JSONParseError(kind: kind, message: message, line: line, column: end - lineStart + 1)
    }
}

/// UTF-8 validation that says where the first bad byte is.
public enum UTF8Check {
    /// The offset of the first byte at or after `start` that does not start or continue a valid
    /// UTF-8 sequence, reading as if a sequence began at `start`.
    public static func firstInvalidOffset(in bytes: [UInt8], from start: Int = 0) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0, from: start) }
    }

    /// `firstInvalidOffset` over bytes already borrowed (the parser's own buffer).
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        var i = start
        let n = bytes.count
        while i < n {
            // Eight ASCII bytes at a time: a payload is mostly ASCII.
            if i + 8 <= n, ByteWords.word(bytes, at: i) & ByteWords.highs == 0 {
                i += 8
                continue
            }
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var minScalar: UInt32
            var scalar: UInt32
            switch b {
            case 0xC2...0xDF:
                length = 2
                minScalar = 0x80
                scalar = UInt32(b & 0x1F)
            case 0xE0...0xEF:
                length = 3
                minScalar = 0x800
                scalar = UInt32(b & 0x0F)
            case 0xF0...0xF4:
                length = 4
                minScalar = 0x10000
                scalar = UInt32(b & 0x07)
            default: return i
            }
            guard i + length <= n else { return i }
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minScalar || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += length
        }
        return nil
    }
}
