import Foundation
import PushboxJSON
import Testing

/// The writer escapes at the byte level; this reference does it scalar by scalar, as the
/// definition reads, and both must agree on every string.
@Suite("JSON string escaping")
struct JSONWriterEscapeTests {
    static func reference(_ s: String) -> String {
        var out = "\""
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
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || (0x2028...0x202E).contains(scalar.value)
                    || (0x2066...0x2069).contains(scalar.value)
                {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    @Test(
        "random strings of ASCII, controls, C1, U+2028/9, bidi overrides and isolates, accents, CJK and emoji: byte-level output equals the reference, and parses back"
    )
    func agreesWithReference() throws {
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1B}", "\u{1F}", "\u{7F}",
            "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2065}",
            "\u{2066}", "\u{2069}", "\u{206A}", "\u{200F}", "한", "語", "😀", "\u{FEFF}",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &generator) { s.append(alphabet.randomElement(using: &generator)!) }
            let text = String(s)
            let written = JSONWriter.compact(.string(text))
            #expect(written == Self.reference(text), "\(Array(text.unicodeScalars))")
            #expect(try JSONParser.parse(Array(written.utf8)) == .string(text))
        }
    }

    @Test("each character of the alphabet at every offset of a long plain run, against the eight-byte steps, is written as the reference writes it")
    func everyOffsetOfAPlainRun() throws {
        let specials: [Unicode.Scalar] = [
            "\"", "\\", "\n", "\u{00}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "é", "\u{2028}", "\u{202E}", "\u{2069}", "한", "😀", "~", " ",
        ]
        for before in 0...17 {
            for special in specials {
                for after in [0, 1, 7, 8, 9, 16] {
                    let text = String(repeating: "a", count: before) + String(special) + String(repeating: "b", count: after)
                    let written = JSONWriter.compact(.string(text))
                    #expect(written == Self.reference(text), "\(before) \(special.value) \(after)")
                    #expect(try JSONParser.parse(Array(written.utf8)) == .string(text))
                }
            }
        }
    }

    @Test("objects and arrays, compact and pretty")
    func layout() {
        let value: JSONValue = .object(
            JSONObject([("a", .array([1, "x\u{2028}", nil])), ("b", .object(JSONObject([("c", true)]))), ("e", .array([]))]))
        #expect(JSONWriter.compact(value) == #"{"a":[1,"x\u2028",null],"b":{"c":true},"e":[]}"#)
        #expect(
            JSONWriter.pretty(value) == "{\n  \"a\": [\n    1,\n    \"x\\u2028\",\n    null\n  ],\n  \"b\": {\n    \"c\": true\n  },\n  \"e\": []\n}")
    }

    @Test("name-value pairs write what the same pairs as a JSONValue tree write")
    func pairs() {
        let pairs: [(name: String, value: String)] = [("apns-topic", "dev.pushbox.sample"), ("x-quote", "a\"b\u{7}\u{2029}"), ("", "")]
        let tree = JSONValue.array(pairs.map { .array([.string($0.name), .string($0.value)]) })
        #expect(JSONWriter.compactPairs(pairs) == JSONWriter.compact(tree))
        #expect(JSONWriter.compactPairs([]) == "[]")
    }
}
