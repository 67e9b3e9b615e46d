import Foundation
import PushboxJSON
import PushboxPayload
import Testing

@testable import PushboxJSON

/// The project's sample payloads, beside this test folder.
private let samplesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sample-payloads").path

@Suite("Strict JSON parser")
struct JSONParserTests {
    func parse(_ s: String, maxDepth: Int = 100) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(s.utf8), maxDepth: maxDepth)
    }

    @Test("reads every kind of value, keeping key order and number text")
    func values() throws {
        let v = try parse(#" {"b": [1, -2.5e3, true, false, null], "a": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"} "#)
        let o = try #require(v.objectValue)
        #expect(o.keys == ["b", "a"])
        #expect(o["b"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]))
        #expect(o["a"] == .string("x\"\\/\u{8}\u{C}\n\r\té😀"))
    }

    @Test("keeps duplicate keys, and lookup returns the last")
    func duplicates() throws {
        let o = try #require(try parse(#"{"a":1,"b":2,"a":3}"#).objectValue)
        #expect(o.entries.count == 3)
        #expect(o["a"] == .number("3"))
        #expect(o.duplicateKeys == ["a"])
    }

    @Test("a dotted key path walks nested objects, the last of a repeated key, and nothing through a non-object")
    func keyPaths() throws {
        let o = try #require(try parse(#"{"aps":{"data":{"k":"v","k":"w"},"n":1},"":{"":2},"a.b":3}"#).objectValue)
        #expect(o.value(atPath: "aps.data.k") == .string("w"))
        #expect(o.value(atPath: "aps.n") == .number("1"))
        #expect(o.value(atPath: "aps")?.objectValue?.keys == ["data", "n"])
        #expect(o.value(atPath: "aps.n.x") == nil)
        #expect(o.value(atPath: "aps.missing") == nil)
        #expect(o.value(atPath: "aps.data.") == nil)
        #expect(o.value(atPath: ".") == .number("2"))
        #expect(o.value(atPath: "a.b") == nil)
        // Components of any script; a dot separates even when a combining mark follows it.
        let wide = try #require(try parse(#"{"é":{"ü😀":{"x":1}},"a":{"\u0301b":2},"日本":{"語":3}}"#).objectValue)
        #expect(wide.value(atPath: "é.ü😀.x") == .number("1"))
        #expect(wide.value(atPath: "a.\u{301}b") == .number("2"))
        #expect(wide.value(atPath: "日本.語") == .number("3"))
        #expect(wide.value(atPath: "日本.語.x") == nil)
    }

    @Test(
        "refuses malformed documents with line and column",
        arguments: [
            ("{\"a\":1,}", 1, 8, "trailing comma"),
            ("[1,2,]", 1, 6, "trailing comma"),
            ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}'"),
            ("{'a':1}", 1, 2, "expected a key"),
            ("{\"a\":01}", 1, 7, "may not start with 0"),
            ("{\"a\":tru}", 1, 6, "expected a value"),
            ("{\"a\":\"x", 1, 8, "unterminated string"),
            ("{\"a\":1} x", 1, 9, "after the end"),
            ("{\"a\":\"\\x\"}", 1, 7, "invalid escape"),
            ("{\"a\":\"\\ud800\"}", 1, 13, "lone high surrogate"),
            ("{\"a\":\"tab\there\"}", 1, 10, "control character"),
            ("", 1, 1, "unexpected end"),
        ])
    func malformed(text: String, line: Int, column: Int, message: String) {
        #expect {
            try parse(text)
        } throws: { error in
            let e = error as! JSONParseError
            return e.kind == .syntax && e.line == line && e.column == column && e.message.contains(message)
        }
    }

    @Test("10,000 levels of nesting are refused as too deep, without a crash")
    func deepNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try parse(deep) }
        do { _ = try parse(deep) } catch { #expect(error.kind == .tooDeep) }
        let objects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        do {
            _ = try parse(objects)
            Issue.record("accepted")
        } catch { #expect(error.kind == .tooDeep) }
    }

    @Test("the depth limit is exact: 100 levels pass, 101 do not")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        _ = try parse(ok)
        let over = String(repeating: "[", count: 101) + String(repeating: "]", count: 101)
        #expect(throws: JSONParseError.self) { try parse(over) }
    }

    @Test(
        "invalid UTF-8 is found at its offset",
        arguments: [
            ([0x22, 0xC3, 0x28, 0x22], 1),  // bad continuation
            ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // UTF-16 surrogate
            ([0x22, 0x61, 0xF0, 0x9F, 0x98], 2),  // truncated at the end
            ([0x22, 0xFF, 0x22], 1),
        ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        #expect(UTF8Check.firstInvalidOffset(in: bytes) == offset)
        do {
            _ = try JSONParser.parse(bytes)
            Issue.record("accepted")
        } catch { #expect(error.kind == .invalidUTF8) }
    }

    @Test("the UTF-8 check finds a bad sequence wherever it falls against the eight-byte ASCII steps, and agrees with the standard library")
    func invalidUTF8AtEveryAlignment() {
        let bad: [[UInt8]] = [[0xC3, 0x28], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0x80], [0xF4, 0x90, 0x80, 0x80]]
        let lead: [[UInt8]] = [[], Array("é".utf8), Array("😀".utf8)]
        for prefix in 0...17 {
            for first in lead {
                let before = Array(repeating: UInt8(ascii: "a"), count: prefix) + first
                for sequence in bad {
                    for suffix in [0, 1, 9] {
                        let bytes = before + sequence + Array(repeating: UInt8(ascii: "b"), count: suffix)
                        #expect(UTF8Check.firstInvalidOffset(in: bytes) == before.count, "\(bytes)")
                        #expect(String(validating: bytes, as: UTF8.self) == nil)
                    }
                }
                let good = before + Array(repeating: UInt8(ascii: "c"), count: prefix)
                #expect(UTF8Check.firstInvalidOffset(in: good) == nil)
                #expect(String(validating: good, as: UTF8.self) != nil)
                #expect(UTF8Check.firstInvalidOffset(in: good + [0xE2, 0x82], from: min(prefix, good.count)) == good.count)
            }
        }
    }

    @Test(
        "keys with other code units are other keys, as in Foundation's dictionaries: a precomposed é and e + U+0301 are two, in small and large objects",
        arguments: [0, 20])
    func keysCompareAsCodeUnits(filler: Int) throws {
        let others = (0..<filler).map { "\"k\($0)\": \($0)" }
        let text = "{" + (others + ["\"\u{E9}\": 1", "\"e\u{301}\": 2", "\"caf\u{E9}\": 3", "\"caf\u{E9}\": 4"]).joined(separator: ", ") + "}"
        guard case .object(let o) = try parse(text) else {
            Issue.record("not an object")
            return
        }
        #expect(o["\u{E9}"] == .number("1"))
        #expect(o["e\u{301}"] == .number("2"))
        #expect(o["caf\u{E9}"] == .number("4"))
        #expect(o.duplicateKeys == ["caf\u{E9}"])
        #expect(o.value(atPath: "e\u{301}") == .number("2"))
    }

    @Test(
        "the eight-byte scans stop for a quote, a backslash or a control character (and, writing, DEL or any non-ASCII byte) in any lane, over any neighbours, and for nothing else"
    )
    func stringScanLanes() {
        func reference(_ word: UInt64) -> Bool {
            (0..<8).contains { lane in
                let b = UInt8(truncatingIfNeeded: word >> (8 * UInt64(lane)))
                return b == 0x22 || b == 0x5C || b < 0x20
            }
        }
        // The writer's test: those, DEL and every byte of a non-ASCII character.
        func writerReference(_ word: UInt64) -> Bool {
            reference(word) || (0..<8).contains { lane in UInt8(truncatingIfNeeded: word >> (8 * UInt64(lane))) >= 0x7F }
        }
        // Every byte value in every lane, over fillers that sit just beside the stop bytes and
        // at the top of the range (borrows from one lane must not hide or fake another's).
        for filler: UInt8 in [0x61, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF] {
            let base = UInt64(filler) &* 0x0101_0101_0101_0101
            for lane in 0..<8 {
                for value in 0...255 {
                    let shift = UInt64(8 * lane)
                    let word = base & ~(0xFF << shift) | UInt64(value) << shift
                    #expect(ByteWords.mayEndString(word) == reference(word), "\(String(word, radix: 16))")
                    #expect(ByteWords.mayNeedEscape(word) == writerReference(word), "\(String(word, radix: 16))")
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            let word = generator.next() as UInt64
            if ByteWords.mayEndString(word) != reference(word) { Issue.record("\(String(word, radix: 16))") }
            if ByteWords.mayNeedEscape(word) != writerReference(word) { Issue.record("writer \(String(word, radix: 16))") }
        }
    }

    @Test("strings with an escape, a quote or a control character at every offset from the eight-byte steps read as Foundation reads them")
    func stringsAtEveryAlignment() throws {
        for prefix in 0...17 {
            for lead in ["", "é", "😀"] {
                for tail in [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "", "🙂"] {
                    let text = String(repeating: "a", count: prefix) + lead + tail + String(repeating: "b", count: prefix % 9)
                    let document = #"{"k\#(prefix)": ""# + text + #"", "n": 1}"#
                    let ours = try parse(document)
                    let theirs = try JSONSerialization.jsonObject(with: Data(document.utf8))
                    #expect(FoundationBridge.matches(ours, theirs), "\(document)")
                }
            }
            let control = Array(#"{"k": ""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: prefix) + [0x1F] + Array(#""}"#.utf8)
            do {
                _ = try JSONParser.parse(control)
                Issue.record("accepted a raw control character after \(prefix) bytes")
            } catch {
                #expect(error.kind == .syntax)
                #expect(error.column == 8 + prefix)
            }
        }
    }

    @Test("valid multi-byte text passes the UTF-8 check")
    func validUTF8() {
        #expect(UTF8Check.firstInvalidOffset(in: Array("한국어 日本語 العربية 😀👨‍👩‍👧".utf8)) == nil)
    }

    @Test("a NUL byte is refused, inside or outside a string")
    func nulBytes() {
        for bytes: [UInt8] in [[0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0x00, 0x22, 0x7D], [0x7B, 0x7D, 0x00], [0x00]] {
            do {
                _ = try JSONParser.parse(bytes)
                Issue.record("accepted")
            } catch { #expect(error.kind == .nulByte) }
        }
    }

    @Test("agrees with JSONSerialization on the sample payloads and generated ones")
    func agreesWithFoundation() throws {
        var documents = try FileManager.default.contentsOfDirectory(atPath: samplesDirectory)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".apns") }
            .map { try Data(contentsOf: URL(fileURLWithPath: samplesDirectory + "/" + $0)) }
        for i in 0..<200 { documents.append(Data(SyntheticPayloads.make(i).utf8)) }
        #expect(documents.count > 200)
        for data in documents {
            let ours = try JSONParser.parse(Array(data))
            let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            #expect(FoundationBridge.matches(ours, theirs))
        }
    }

    @Test("the writer round-trips values and escapes control characters")
    func writer() throws {
        let text = #"{"a":"\u001b[31m\n","b":[1,2.5,true,null],"c":{}}"#
        let value = try parse(text)
        #expect(JSONWriter.compact(value) == text)
        #expect(try parse(JSONWriter.pretty(value)) == value)
    }
}

/// Compares pushbox's JSON values with Foundation's, as the conformance oracle.
enum FoundationBridge {
    static func matches(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let b): return (theirs as? NSNumber).map { String(cString: $0.objCType) == "c" && $0.boolValue == b } ?? false
        case .number(let text): return (theirs as? NSNumber).map { $0.doubleValue == Double(text) } ?? false
        case .string(let s): return (theirs as? String) == s
        case .array(let a):
            guard let t = theirs as? [Any], t.count == a.count else { return false }
            return zip(a, t).allSatisfy { matches($0, $1) }
        case .object(let o):
            guard let t = theirs as? [String: Any], t.count == Set(o.keys).count else { return false }
            return o.keys.allSatisfy { k in t[k].map { matches(o[k]!, $0) } ?? false }
        }
    }
}
