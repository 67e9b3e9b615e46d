import Foundation
import FoundationXML
import Testing

@testable import PushboxLocalization

/// Strings files as CoreFoundation reads them — what it tolerates that a strict XML parser
/// refuses, and what it refuses — each case checked against CoreFoundation itself.
@Suite("Strings files read as CoreFoundation reads them")
struct CoreFoundationReadingTests {
    static func plist(_ body: String, before: String = "", after: String = "") -> [UInt8] {
        Array(
            (before + "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
                + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n" + body + "\n</dict>\n</plist>\n" + after)
                .utf8)
    }

    static let entry = "<key>files</key><string>%#@n@</string>"

    /// Whether libxml2 (FoundationXML's XMLParser, a strict XML 1.0 parser) refuses the bytes.
    static func strictXMLRefuses(_ bytes: [UInt8]) -> Bool { !XMLParser(data: Data(bytes)).parse() }

    struct Tolerated: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let note: FileNote.Kind
        let strictXMLRefuses: Bool
        var testDescription: String { name }
    }

    static let toleratedCases: [Tolerated] = [
        Tolerated(
            name: "raw U+0008 in a string", bytes: plist("<key>k</key><string>a\u{8}b</string>"), note: .controlCharacter, strictXMLRefuses: true),
        Tolerated(name: "raw U+001B in a key", bytes: plist("<key>k\u{1B}</key><string>v</string>"), note: .controlCharacter, strictXMLRefuses: true),
        Tolerated(name: "&#8; and &#0;", bytes: plist("<key>k</key><string>a&#8;b&#x0;</string>"), note: .controlCharacter, strictXMLRefuses: true),
        // XML 1.0 forbids both, but FoundationXML's XMLParser stops at the end of the root
        // element without saying so, so it cannot witness these two.
        Tolerated(name: "text after </plist>", bytes: plist(entry, after: "garbage <<< &"), note: .contentAfterPlist, strictXMLRefuses: false),
        Tolerated(
            name: "a second top-level element", bytes: plist(entry, after: "<plist><dict/></plist>"), note: .contentAfterPlist,
            strictXMLRefuses: false),
        Tolerated(name: "whitespace before <?xml", bytes: plist(entry, before: "\n  "), note: .misplacedXMLDeclaration, strictXMLRefuses: true),
        Tolerated(name: "-- inside a comment", bytes: plist("<!-- a -- b -->" + entry), note: .commentDoubleHyphen, strictXMLRefuses: true),
        Tolerated(
            name: "a byte that is not UTF-8 in a comment", bytes: plist("<!-- Q -->" + entry).replacing(Array("Q".utf8), with: [0xFF]),
            note: .invalidUTF8OutsideStrings, strictXMLRefuses: true),
        Tolerated(name: "a <key> as a value", bytes: plist("<key>a</key><key>b</key>"), note: .keyAsValue, strictXMLRefuses: false),
        Tolerated(
            name: "a duplicate key", bytes: plist("<key>a</key><string>1</string><key>a</key><string>2</string>"), note: .duplicateKey,
            strictXMLRefuses: false),
        Tolerated(
            name: "UTF-16 with an odd byte at the end", bytes: utf16LE("\"k\" = \"v\";", bom: true) + [0x41], note: .trailingBytes,
            strictXMLRefuses: false),
        Tolerated(
            name: "BOM-less UTF-16 starting with a newline", bytes: utf16LE("\n\"k\" = \"v\";", bom: false), note: .utf16WithoutBOM,
            strictXMLRefuses: false),
    ]

    static func utf16LE(_ text: String, bom: Bool) -> [UInt8] {
        (bom ? [0xFF, 0xFE] : []) + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    @Test("read as CoreFoundation reads them, with a lint note", arguments: toleratedCases)
    func tolerated(_ c: Tolerated) throws {
        let theirs = try #require(PlistOracle.read(c.bytes), "CoreFoundation refuses \(c.name)")
        let ours = try StringsFileReader.readPlist(c.bytes, file: "T")
        #expect(PlistOracle.equal(.dict(ours.dict), theirs), "\(ours.dict) vs \(theirs)")
        #expect(ours.notes.map(\.kind).contains(c.note), "\(ours.notes)")
        if c.strictXMLRefuses { #expect(Self.strictXMLRefuses(c.bytes), "libxml2 reads \(c.name)") }
    }

    @Test("CR LF inside a string is kept, and a leading U+FEFF of a string dropped, as CoreFoundation does")
    func stringBytes() throws {
        let bytes = Self.plist("<key>a</key><string>x\r\ny</string><key>b</key><string>\u{FEFF}Hi</string>")
        let ours = try StringsFileReader.readPlist(bytes, file: "T")
        #expect(ours.dict["a"] == .string("x\r\ny"))
        #expect(ours.dict["b"] == .string("Hi"))
        #expect(PlistOracle.disagreement(bytes) == nil)
        #expect(ours.notes.isEmpty)
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let line: Int
        var testDescription: String { name }
    }

    static let refusedCases: [Refused] = [
        Refused(name: "UTF-16 LE with two byte-order marks", bytes: [0xFF, 0xFE] + utf16LE("\"k\" = \"v\";", bom: true), line: 1),
        Refused(
            name: "UTF-16 BE with two byte-order marks",
            bytes: [0xFE, 0xFF, 0xFE, 0xFF] + Array("\"k\" = \"v\";".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, line: 1),
        Refused(name: "UTF-8 with two byte-order marks", bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("\"k\" = \"v\";".utf8), line: 1),
        Refused(name: "an XML plist after two byte-order marks", bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + plist(entry), line: 1),
        Refused(name: "BOM-less UTF-16 starting with a quote", bytes: utf16LE("\"k\" = \"v\";", bom: false), line: 1),
        Refused(name: "text between elements", bytes: plist("junk" + entry), line: 5),
        Refused(name: "an inline DTD", bytes: Array("<!DOCTYPE plist [ ]><plist><dict/></plist>".utf8), line: 1),
        Refused(name: "an entity CoreFoundation does not know", bytes: plist("<key>k</key><string>a&nbsp;b</string>"), line: 5),
        Refused(name: "a string that is not UTF-8", bytes: plist("<key>k</key><string>Q</string>").replacing(Array("Q".utf8), with: [0xC3]), line: 5),
        Refused(name: "an integer with a space after it", bytes: plist("<key>k</key><integer>5 </integer>"), line: 5),
        Refused(name: "a character reference to no character", bytes: plist("<key>k</key><string>&#xD800;</string>"), line: 5),
    ]

    @Test("refused whole as CoreFoundation refuses them, with the line", arguments: refusedCases)
    func refused(_ c: Refused) {
        #expect(PlistOracle.read(c.bytes) == nil, "CoreFoundation reads \(c.name)")
        do {
            let ours = try StringsFileReader.readPlist(c.bytes, file: "T")
            Issue.record("pushbox reads \(ours.dict)")
        } catch {
            #expect(error.line == c.line, "\(error)")
        }
    }

    @Test("nesting at and past CoreFoundation's limits: read or refused as it does, never a crash", arguments: [64, 127, 128, 512, 513, 2000])
    func nesting(depth: Int) {
        let text = "\"k\" = " + String(repeating: "(", count: depth) + String(repeating: ")", count: depth) + ";"
        #expect(PlistOracle.disagreement(Array(text.utf8)) == nil)
        let xml = Self.plist("<key>k</key>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth))
        if (128...511).contains(depth) {
            // iOS's XML limit is 128 levels (CFPropertyList_Internal.h); the oracle, built for
            // Linux, allows 512.
            #expect(throws: LocalizationFileError.self) { try StringsFileReader.readPlist(xml, file: "T") }
        } else {
            #expect(PlistOracle.disagreement(xml) == nil)
        }
    }

    /// A seeded generator, so a failure names the same mutant on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("thousands of mutated files: pushbox reads and refuses exactly what CoreFoundation does")
    func mutants() {
        let seeds: [[UInt8]] = [
            Self.plist(
                "<key>files</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@ &amp; &#x41;</string>"
                    + "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                    + "<key>one</key><string><![CDATA[one <file>]]></string><key>other</key><string>%d files</string></dict></dict>"
                    + "<!-- note --><key>list</key><array><integer>-12</integer><real>1.5</real><true/><false/>"
                    + "<date>2024-02-29T12:00:00Z</date><data>aGVsbG8=</data></array>"),
            Array("/* c */\n\"a\" = \"1\";\n'b' = 'x\\ny';\nc = d;\n\"e\";\n{ }".utf8),
            Array("// line\n\"k\" = (\"a\", <0a1b 2c>, { x = y; }, ());\n\"e\\U00e9\\351\\777\\376\" = 'v\\'\\t';\n".utf8),
        ]
        let alphabet: [UInt8] = Array("<>/!?-&#;x=\"'[] \n\r\t{}();aZ09".utf8) + [0x00, 0x08, 0x1B, 0x7F, 0xC3, 0xA9, 0xEF, 0xBB, 0xBF, 0xFF]
        var random = SplitMix(state: 0x5EED)
        var disagreements: [String] = []
        var compared = 0
        for seed in seeds {
            for _ in 0..<2000 {
                var bytes = seed
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                    case 1: bytes.remove(at: at)
                    default: bytes[at] = alphabet.randomElement(using: &random)!
                    }
                }
                compared += 1
                if let d = PlistOracle.disagreement(bytes) {
                    disagreements.append("\(String(decoding: bytes, as: UTF8.self).debugDescription): \(d)")
                }
            }
        }
        #expect(compared == 6000)
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(compared) differ; first: \(disagreements.prefix(3))")
    }
}

extension [UInt8] {
    fileprivate func replacing(_ a: [UInt8], with b: [UInt8]) -> [UInt8] {
        guard let r = firstRange(of: a) else { return self }
        var out = self
        out.replaceSubrange(r, with: b)
        return out
    }
}
