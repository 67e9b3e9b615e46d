import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// Every sample loc-key payload rendered in every sample language by the system (the extension
/// is off: it has its own tests), compared with the golden
/// file beside this test. `PUSHBOX_RECORD_GOLDEN=1 swift test` rewrites it (and fails, so a
/// recording is never mistaken for a pass).
@Suite("Golden: localized samples")
struct GoldenLocalizationTests {
    static let languages = [
        "en", "ko", "ja", "es", "fr", "de", "ar", "ru", "zh-Hans", "pt-BR", "fr-CA", "zh-TW", "it,ko", "accented", "right-to-left",
    ]
    static let payloads = ["01-game-invite.json", "05-rich-image.json", "06-alarm.json"]
    static let goldenPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/localized-samples.txt").path

    func renderAll() throws -> String {
        var lines: [String] = []
        for language in Self.languages {
            let files = Self.payloads.map { ProjectPaths.samples + "/" + $0 }
            let run = CLIRun(["render", "--json", "--no-extension", "--app", ProjectPaths.sampleApp, "--lang", language] + files)
            #expect(run.status == 0)
            for (file, line) in zip(Self.payloads, run.lines) {
                let o = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
                let fields = ["language", "title", "body"].map { o[$0]?.stringValue ?? "-" }
                lines.append("\(language) \(file): [\(fields[0])] \(fields[1]) | \(fields[2])")
                // zh-TW matches none of the app's localizations (Apple never shows zh-Hans for it): the
                // device falls back to English, and says so; every other language has no warning.
                let codes = o["diagnostics"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? []
                #expect(codes == (language == "zh-TW" ? ["unknown-language"] : []), "\(language) \(file): \(o["warnings"]!)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("every sample loc-key payload in every sample language matches the golden file")
    func golden() throws {
        let actual = try renderAll()
        if ProcessInfo.processInfo.environment["PUSHBOX_RECORD_GOLDEN"] == "1" {
            try actual.write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
            Issue.record("recorded \(Self.goldenPath); run again without PUSHBOX_RECORD_GOLDEN")
            return
        }
        let expected = try String(contentsOfFile: Self.goldenPath, encoding: .utf8)
        let a = actual.split(separator: "\n")
        let e = expected.split(separator: "\n")
        #expect(a.count == e.count)
        for (x, y) in zip(a, e) where x != y { Issue.record("got:      \(x)\nexpected: \(y)") }
    }
}
