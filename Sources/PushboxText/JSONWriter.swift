/// Writes `JSONValue`s as JSON text: compact (one line, for `--json` output and payload
/// sizes) or pretty (two-space indent, keys in the order they came).
public enum JSONWriter {
    /// One line, no spaces, every control character escaped.
    public static func compact(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, indent: nil, level: 0)
        return out
    }

    /// Indented by two spaces, keys in their order.
    public static func pretty(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, indent: "  ", level: 0)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String, indent: String?, level: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let text): out += text
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty { out += "[]"; return }
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent, level + 1)
                write(element, into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent, level)
            out += "]"
        case .object(let object):
            if object.isEmpty { out += "{}"; return }
            out += "{"
            for (i, entry) in object.entries.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent, level + 1)
                writeString(entry.key, into: &out)
                out += indent == nil ? ":" : ": "
                write(entry.value, into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent, level)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out += "\n"
        for _ in 0..<level { out += indent }
    }

    /// Quotes a string, escaping quotes, backslashes and every control character.
    public static func writeString(_ s: String, into out: inout String) {
        out += "\""
        // Most strings need no escape at all: copy them whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
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
