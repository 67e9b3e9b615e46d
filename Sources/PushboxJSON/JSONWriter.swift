/// Writes `JSONValue`s as JSON text: compact (one line, for `--json` output and payload
/// sizes) or pretty (two-space indent, keys in the order they came).
public enum JSONWriter {
    /// One line, no spaces, every control character escaped.
    public static func compact(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out, indent: nil, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// `[["name","value"],…]`, compact, written straight from the pairs: the store writes a
    /// push's headers this way for every push taken in, and building a `JSONValue` tree first
    /// cost more than writing it.
    public static func compactPairs(_ pairs: [(name: String, value: String)]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(16 + pairs.count * 48)
        for (i, pair) in pairs.enumerated() {
            // Byte by byte: an `Array` of the separator was an allocation per pair.
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            writeString(pair.name, into: &out)
            out.append(UInt8(ascii: ","))
            writeString(pair.value, into: &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented by two spaces, keys in their order.
    public static func pretty(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(value, into: &out, indent: 2, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    // The text is built as UTF-8 bytes: appending to a String costs a check per append, and
    // renderings are written for every notification taken in.
    private static func write(_ value: JSONValue, into out: inout [UInt8], indent: Int?, level: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent, level + 1)
                write(element, into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent, level)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (i, entry) in object.entries.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent, level + 1)
                writeString(entry.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(UInt8(ascii: " ")) }
                write(entry.value, into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent, level)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int?, _ level: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    /// Quotes a string, escaping quotes, backslashes and every control character (C0, DEL, C1,
    /// and the line and paragraph separators U+2028/U+2029, which some JSON readers treat as
    /// line ends).
    public static func writeString(_ s: String, into out: inout String) {
        var bytes: [UInt8] = []
        writeString(s, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { u in
            let n = u.count
            var run = 0
            var i = 0
            while i < n {
                // Plain ASCII needs no escape: eight bytes a step while none may.
                while i + 8 <= n, !ByteWords.mayNeedEscape(ByteWords.word(u, at: i)) { i += 8 }
                guard i < n else { break }
                let b = u[i]
                let escaped: UInt32?
                let width: Int
                switch b {
                case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C, 0x00..<0x20, 0x7F:
                    (escaped, width) = (UInt32(b), 1)
                case 0xC2 where i + 1 < n && (0x80...0x9F).contains(u[i + 1]):
                    (escaped, width) = (UInt32(u[i + 1]), 2)
                case 0xE2 where i + 2 < n && u[i + 1] == 0x80 && (0xA8...0xAE).contains(u[i + 2]):
                    // U+2028, U+2029 and the bidi embeddings and overrides U+202A–202E.
                    (escaped, width) = (0x2000 | UInt32(u[i + 2] & 0x3F), 3)
                case 0xE2 where i + 2 < n && u[i + 1] == 0x81 && (0xA6...0xA9).contains(u[i + 2]):
                    // The bidi isolates U+2066–2069.
                    (escaped, width) = (0x2040 | UInt32(u[i + 2] & 0x3F), 3)
                default:
                    (escaped, width) = (nil, 1)
                }
                guard let scalar = escaped else {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: u[run..<i]))
                appendEscape(scalar, into: &out)
                i += width
                run = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: u[run..<n]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape of one character: the short forms JSON has, else `\u` and four lowercase hex digits.
    private static func appendEscape(_ scalar: UInt32, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch scalar {
        case 0x22: out.append(UInt8(ascii: "\""))
        case 0x5C: out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((scalar >> UInt32(shift)) & 0xF)]) }
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByIntegerLiteral {
    /// A string literal is a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A Boolean literal is a JSON Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `nil` is JSON null.
    public init(nilLiteral: ()) { self = .null }
    /// An integer literal is a JSON number.
    public init(integerLiteral value: Int) { self = .number(String(value)) }
}

extension JSONValue {
    /// A JSON string value, or null when nil.
    public static func optionalString(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    /// A JSON number from an Int, or null when nil.
    public static func optionalInt(_ i: Int?) -> JSONValue { i.map { .number(String($0)) } ?? .null }
}
