import Foundation
import PushboxLocalization
import Testing

@testable import PushboxLint

/// The linters, on apps and payload folders written for each case.
@Suite("Lint: localizations and the payloads that use them")
struct LintTests {
    /// A folder of files, removed when the fixture goes.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-lint-\(UUID().uuidString)").path
        init(_ files: [String: String]) throws {
            for (name, text) in files {
                let full = path + "/" + name
                try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: full))
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static func plist(_ body: String, after: String = "") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n" + body + "\n</dict>\n</plist>\n" + after
    }

    @Test("each oddity CoreFoundation tolerates is a lint warning with its own code, not a broken file")
    func toleratedOddities() throws {
        let app = try Folder([
            "en.lproj/Localizable.strings": "\"k\" = \"v\";",
            "en.lproj/Localizable.stringsdict": Self.plist("<key>k</key><string>a\u{8}b</string>", after: "junk"),
        ])
        let findings = LocalizationLinter(app: AppLocalizations(directory: app.path, developmentRegion: "en")).lint()
        let codes = Set(findings.filter { $0.severity == .warning }.map(\.code))
        #expect(codes.isSuperset(of: [.controlCharacter, .contentAfterPlist]), "\(findings)")
        #expect(!findings.contains { $0.code == .brokenFile })
    }

    @Test("a payload's loc-key with no entry is an error at its line; a literal beside a loc-key is a warning")
    func payloadKeys() throws {
        let app = try Folder(["en.lproj/Localizable.strings": "\"GREETING\" = \"Hello %@\";"])
        let payloads = try Folder([
            "missing.json": "{\"aps\": {\n  \"alert\": {\n    \"loc-key\": \"NOPE\"\n  }\n}}",
            "both.json": #"{"aps": {"alert": {"body": "Hi", "loc-key": "GREETING", "loc-args": ["Ann"]}}}"#,
        ])
        let findings = PayloadKeyLinter(app: AppLocalizations(directory: app.path, developmentRegion: "en")).lint(folder: payloads.path)
        let missing = try #require(findings.first { $0.code == .payloadKeyMissing })
        #expect(missing.severity == .error && missing.key == "NOPE" && missing.line == 3 && missing.file.hasSuffix("missing.json"))
        #expect(findings.contains { $0.code == .literalAndLocKey && $0.severity == .warning && $0.file.hasSuffix("both.json") })
    }
}
