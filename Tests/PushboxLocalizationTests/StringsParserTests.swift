import Foundation
import Testing

@testable import PushboxLocalization

@Suite(".strings files in every form and encoding")
struct StringsParserTests {
    @Test("comments, both quotes, unquoted strings and \"key\";")
    func syntax() throws {
        let t = try strings(
            """
            // line comment
            /* block
               comment */ "a" = "1";
            'b' = 'two words';
            unquoted_key.x = value-1/2:$;
            "same";
            "c"="x" ; /* trailing */
            """)
        #expect(t == ["a": "1", "b": "two words", "unquoted_key.x": "value-1/2:$", "same": "same", "c": "x"])
    }

    @Test(
        "every escape",
        arguments: [
            (#""k" = "a\nb\tc\rd";"#, "a\nb\tc\rd"),
            (#""k" = "\a\b\f\v";"#, "\u{7}\u{8}\u{C}\u{B}"),
            (#""k" = "\"q\" \'s\' \\";"#, "\"q\" 's' \\"),
            (#""k" = "\U00e9\U4e2d";"#, "é中"),
            (#""k" = "\UD83D\UDE00";"#, "😀"),
            (#""k" = "\101\60\7";"#, "A0\u{7}"),
            (#""k" = "\q\%";"#, "q%"),
            ("\"k\" = \"a\\\nb\";", "a\nb"),
        ])
    func escapes(text: String, value: String) throws {
        #expect(try strings(text)["k"] == value)
    }

    @Test("the last of duplicate keys wins, and the duplicate is noted with its line")
    func duplicates() throws {
        let r = try StringsFileReader.readStrings(Array("\"k\" = \"1\";\n\"k\" = \"2\";\n".utf8), file: "T.strings")
        #expect(r.table["k"] == "2")
        #expect(r.lines["k"] == 2)
        #expect(r.notes.first?.kind == .duplicateKey)
        #expect(r.notes.first?.line == 2)
    }

    @Test("a dictionary in braces is read too")
    func braces() throws {
        #expect(try strings("{ \"a\" = \"b\"; c = d; }") == ["a": "b", "c": "d"])
    }

    @Test(
        "malformed files are refused whole with line and column",
        arguments: [
            ("\"a\" = \"b\";\n\"c\" = \"unterminated;\n", 2, 7, "unterminated string"),
            ("\"a\" = \"b\"\n\"c\" = \"d\";", 2, 1, "missing ';'"),
            ("\"a\" = \"b\";\n\"c\" = \"d\\", 2, 7, "unterminated string"),
            ("\"a\" \"b\";", 1, 5, "expected '=' or ';'"),
            ("\"a\" = ;", 1, 7, "expected a value"),
            ("= \"b\";", 1, 1, "unexpected '='"),
            ("{ \"a\" = \"b\";", 1, 13, "missing '}'"),
        ])
    func malformed(text: String, line: Int, column: Int, message: String) {
        let e = stringsError(text)
        #expect(e?.line == line && e?.column == column, "\(String(describing: e))")
        #expect(e?.message.contains(message) == true, "\(String(describing: e))")
        #expect(e?.description.hasPrefix("T.strings:\(line):\(column): ") == true)
    }

    @Test(
        "encodings: BOMs, BOM-less UTF-16 and UTF-32",
        arguments: [
            String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .utf8,
        ])
    func encodings(encoding: String.Encoding) throws {
        let text = "\"greeting\" = \"안녕 😀\";"
        var bom: [UInt8]
        switch encoding {
        case .utf16LittleEndian: bom = [0xFF, 0xFE]
        case .utf16BigEndian: bom = [0xFE, 0xFF]
        case .utf32LittleEndian: bom = [0xFF, 0xFE, 0, 0]
        case .utf32BigEndian: bom = [0, 0, 0xFE, 0xFF]
        default: bom = [0xEF, 0xBB, 0xBF]
        }
        let body = Array(text.data(using: encoding)!)
        #expect(try StringsFileReader.readStrings(bom + body, file: "T").table["greeting"] == "안녕 😀")
        if encoding == .utf16LittleEndian || encoding == .utf16BigEndian {
            // Without a BOM, a zero byte at the start says UTF-16, and CoreFoundation drops the
            // first two bytes and reads the rest little-endian: this file loses its quote.
            #expect(throws: LocalizationFileError.self) { try StringsFileReader.readStrings(body, file: "T") }
            #expect(PlistOracle.read(body) == nil)
        }
    }

    @Test("without braces, a stray character where a key belongs ends the file: the rest is ignored and noted")
    func restIgnored() throws {
        for text in ["\"a\" = \"b\";\n  ✓ = \"c\";", "\"a\" = \"b\";\n\"c\" = \"d\"", "\"a\" = \"b\";\n\"never ends = d;\n"] {
            let bytes = Array(text.utf8)
            if text.hasSuffix("\"d\"") {
                // A value without its ';' is no such case: the file is refused.
                #expect(throws: LocalizationFileError.self) { try StringsFileReader.readStrings(bytes, file: "T") }
                continue
            }
            let r = try StringsFileReader.readStrings(bytes, file: "T")
            #expect(r.table == ["a": "b"])
            #expect(r.notes.map(\.kind) == [.restOfFileIgnored])
            #expect(r.notes.first?.line == 2)
            #expect(PlistOracle.disagreement(bytes) == nil)
        }
    }

    @Test("an unpaired UTF-16 surrogate becomes U+FFFD with a note, in the file or in a \\U escape")
    func unpairedSurrogate() throws {
        var units: [UInt16] = Array("\"k\" = \"a".utf16) + [0xD800] + Array("b\";".utf16)
        let bytes = [0xFF, 0xFE] + units.withUnsafeBytes { Array($0) }
        let r = try StringsFileReader.readStrings(bytes, file: "T")
        #expect(r.table["k"] == "a\u{FFFD}b")
        #expect(r.notes.contains { $0.kind == .unpairedSurrogate })
        let e = try StringsFileReader.readStrings(Array(#""k" = "x\UD83Dy";"#.utf8), file: "T")
        #expect(e.table["k"] == "x\u{FFFD}y")
        #expect(!e.notes.isEmpty)
        units.removeAll()
    }

    @Test("invalid UTF-8 is refused with its position")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("\"a\" = \"b\";\n\"c\" = \"".utf8) + [0xFF] + Array("\";".utf8)
        do {
            _ = try StringsFileReader.readStrings(bytes, file: "T")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains("not valid UTF-8"))
        }
    }

    @Test("XML and binary plist forms read to the same table")
    func plistForms() throws {
        let dict = ["a": "1", "ü": "two\nlines", "k": "%1$@ %2$@"]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: dict, format: format, options: 0)
            #expect(try StringsFileReader.readStrings(Array(data), file: "T").table == dict)
        }
    }

    @Test("a broken binary plist is an error, not a crash")
    func brokenBinary() throws {
        var data = Array(try PropertyListSerialization.data(fromPropertyList: ["a": "b"], format: .binary, options: 0))
        data[data.count - 9] = 0xFF  // offset table pointer past the end
        #expect(throws: LocalizationFileError.self) { try StringsFileReader.readStrings(data, file: "T") }
        #expect(throws: LocalizationFileError.self) { try StringsFileReader.readStrings(Array(data.prefix(20)), file: "T") }
    }

    @Test("a 10 MB file parses in one pass")
    func largeFile() throws {
        var text = ""
        text.reserveCapacity(10_500_000)
        var i = 0
        while text.utf8.count < 10_000_000 {
            text += "/* entry \(i) */\n\"key.\(i)\" = \"Value number \(i) with some text, \\\"quotes\\\" and ünïcödé\";\n"
            i += 1
        }
        let r = try StringsFileReader.readStrings(Array(text.utf8), file: "big.strings")
        #expect(r.table.count == i)
        #expect(r.lines["key.\(i - 1)"] == 2 * i)
    }
}
