import Foundation
import Testing

@testable import PushboxLocalization

/// Which script a text is in, from ICU, held against Unicode's own Scripts.txt; which scripts a
/// language uses, from CLDR's likely subtags.
@Suite("Scripts of texts and languages")
struct TextScriptTests {
    static let scripts = "/usr/share/unicode/Scripts.txt"
    static let aliases = "/usr/share/unicode/PropertyValueAliases.txt"
    static let haveUnicodeData = FileManager.default.fileExists(atPath: scripts) && FileManager.default.fileExists(atPath: aliases)

    @Test(
        "the first code point of every range of Scripts.txt is in its script (ISO 15924 short names from PropertyValueAliases.txt)",
        .enabled(if: haveUnicodeData, "needs Debian's unicode-data (Scripts.txt, PropertyValueAliases.txt)"))
    func againstScriptsTxt() throws {
        var short: [String: String] = [:]
        for line in try String(contentsOfFile: Self.aliases, encoding: .utf8).split(separator: "\n") where line.hasPrefix("sc ;") {
            let fields = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.count >= 3 { short[fields[2]] = fields[1] }
        }
        var checked = 0
        var seenScripts = Set<String>()
        for line in try String(contentsOfFile: Self.scripts, encoding: .utf8).split(separator: "\n") {
            let content = line.split(separator: "#").first.map(String.init) ?? ""
            let fields = content.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2, fields[1] != "Common", fields[1] != "Inherited", let code = short[fields[1]],
                let value = UInt32(fields[0].split(separator: ".").first ?? "", radix: 16), let scalar = Unicode.Scalar(value)
            else { continue }
            let found = TextScript.dominant(in: String(Character(scalar)))
            // A script newer than the toolchain's ICU is Unknown to it: not counted, and not wrong.
            guard let found, found.script != "Zzzz" else { continue }
            #expect(found.script == code, "U+\(fields[0]) is \(fields[1]) (\(code)), ICU says \(found.script)")
            checked += 1
            seenScripts.insert(code)
        }
        #expect(checked > 1000 && seenScripts.count > 120, "\(checked) ranges, \(seenScripts.count) scripts")
    }

    @Test("a text's dominant script and its share; digits and punctuation not counted")
    func dominant() {
        let korean = TextScript.dominant(in: "주문 #1234가 발송되었습니다!")
        #expect(korean?.script == "Hang" && korean?.share == 1 && korean?.counted == 10)
        let mixed = TextScript.dominant(in: "iPhone 16 주문")
        #expect(mixed?.script == "Latn" && mixed?.counted == 8)
        #expect(TextScript.dominant(in: "12:30 — !") == nil)
        #expect(TextScript.dominant(in: "ご注文")?.script == "Hani", "two Han, one Hiragana")
        #expect(TextScript.dominant(in: "ご注文を発送しました")?.script == "Hira")
    }

    @Test("the scripts a language is written in, by its likely script")
    func languages() {
        #expect(TextScript.scripts(ofLanguage: "ko-KR") == ["Hang", "Hani"])
        #expect(TextScript.scripts(ofLanguage: "ja") == ["Hira", "Kana", "Hani"])
        #expect(TextScript.scripts(ofLanguage: "zh-TW") == ["Hani", "Bopo"])
        #expect(TextScript.scripts(ofLanguage: "es-ES") == ["Latn"])
        #expect(TextScript.scripts(ofLanguage: "sr") == ["Cyrl"])
        #expect(TextScript.scripts(ofLanguage: "ar") == ["Arab"])
    }
}
