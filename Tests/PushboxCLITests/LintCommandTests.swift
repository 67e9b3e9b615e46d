import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

@Suite("pushbox lint")
struct LintCommandTests {
    /// An app and payload folder with one planted problem of each kind.
    final class Planted {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-lint-\(UUID().uuidString)").path
        var app: String { root + "/App" }
        var payloads: String { root + "/payloads" }

        init() throws {
            let plural = { (forms: String) in
                #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>FILES</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@f@</string><key>f</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string>"#
                    + forms + "</dict></dict></dict></plist>"
            }
            let files: [String: String] = [
                "App/pushbox.json": #"{"bundleId": "dev.example.lint"}"#,
                "App/en.lproj/Localizable.strings": "\"GREETING\" = \"Hello %@\";\n\"BOTH\" = \"%1$@ and %2$@\";\n\"ONLY_EN\" = \"x\";\n",
                "App/en.lproj/Localizable.stringsdict": plural("<key>one</key><string>%d file</string><key>other</key><string>%d files</string>"),
                "App/de.lproj/Localizable.strings": "\"GREETING\" = \"Hallo %d\";\n\"BOTH\" = \"nur %2$@\";\n\"BOTH\" = \"nur %2$@\";\n",
                "App/de.lproj/Localizable.stringsdict": plural("<key>one</key><string>%d Datei</string><key>other</key><string>%d Dateien</string>"),
                "App/ru.lproj/Localizable.strings": "\"GREETING\" = \"Привет %@\";\n\"BOTH\" = \"%1$@ и %2$@\";\n\"ONLY_EN\" = \"x\\UD83D\";\n",
                "App/ru.lproj/Localizable.stringsdict": plural("<key>one</key><string>%d файл</string><key>other</key><string>%d файлов</string>"),
                "App/pl.lproj/Localizable.strings": "\"GREETING\" = \"Cześć %@\";\n\"BOTH\" = \"%1$@ i %2$@\";\n\"ONLY_EN\" = \"x\";\n",
                "App/pl.lproj/Localizable.stringsdict": plural("<key>one</key><string>%d plik</string><key>few</key><string>%d pliki</string>"),
                "App/fr.lproj/Localizable.strings": "\"GREETING\" = \"Bonjour %@\"\n\"BOTH\" = \"x\";\n",
                "payloads/missing.json": #"{"aps":{"alert":{"loc-key":"NOPE"}}}"#,
                "payloads/args.json": #"{"aps":{"alert":{"body":"literal","loc-key":"BOTH","loc-args":["only one"]}}}"#,
                "payloads/rejected.json": #"{"aps":"#,
                "payloads/fine.json": #"{"aps":{"alert":{"loc-key":"GREETING","loc-args":["Ana"]}}}"#,
            ]
            for (path, text) in files {
                let full = root + "/" + path
                try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: full, atomically: true, encoding: .utf8)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test("reports exactly what was planted, and exits 1 for the errors")
    func planted() throws {
        let p = try Planted()
        let run = CLIRun(["lint", "--app", p.app, "--payloads", p.payloads, "--json"])
        #expect(run.status == 1)
        let found = try run.lines.map { line -> String in
            let o = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
            let place = o["language"]?.stringValue ?? (o["file"]?.stringValue.map { ($0 as NSString).lastPathComponent } ?? "")
            return "\(o["severity"]!.stringValue!) \(o["code"]!.stringValue!) \(place) \(o["key"]?.stringValue ?? "")"
        }
        #expect(
            Set(found) == [
                "error broken-file fr ",
                "warning duplicate-key de ",
                "error specifier-type de GREETING",
                "warning skipped-argument de BOTH",
                "warning specifier-count de BOTH",
                "warning missing-key de ONLY_EN",
                "warning missing-plural-category ru FILES",
                "error missing-plural-category pl FILES",
                "warning missing-key fr BOTH", "warning missing-key fr FILES", "warning missing-key fr GREETING", "warning missing-key fr ONLY_EN",
                "error payload-key-missing en NOPE",
                "warning literal-and-loc-key args.json BOTH",
                "warning payload-args en BOTH",
                "warning payload-rejected rejected.json ",
                "warning unpaired-surrogate ru ",
            ], "\(found.sorted())")
        #expect(found.count == 17)
        _ = p
    }

    @Test("the text report groups findings by file with file:line")
    func text() throws {
        let p = try Planted()
        let run = CLIRun(["lint", "--app", p.app])
        #expect(run.status == 1)
        #expect(run.out.contains("de.lproj/Localizable.strings:1: error [specifier-type]"))
        #expect(run.out.contains("de.lproj/Localizable.strings:3: warning [duplicate-key]"))
        #expect(run.out.contains("fr.lproj/Localizable.strings:2: error [broken-file] 2:1: missing ';'"))
        #expect(run.lines.last == "3 error(s) and 10 warning(s) in 5 file(s)")
        _ = p
    }

    @Test("the bundled sample app and its payloads are clean")
    func clean() {
        let run = CLIRun(["lint", "--app", ProjectPaths.sampleApp, "--payloads", ProjectPaths.samples])
        #expect(run.status == 0)
        #expect(
            run.lines == [
                "Localizable: no problems in 10 localization(s) (ar, de, en, es, fr, ja, ko, pt-BR, ru, zh-Hans)",
                "strings.xml: no problems in 8 folder(s) (values, values-ar, values-b+es+419, values-de, values-es, values-fr, values-ja, values-ko)",
            ])
    }
}
