import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// `lint` for both platforms: what the Android build refuses or drops, translations whose
/// arguments differ, and an FCM payload folder's keys on each phone.
@Suite("pushbox lint on Android and across platforms")
struct AndroidLintTests {
    /// A Flutter-style root: ios/ with Localizable.strings, android/ with strings.xml, payloads/.
    final class Planted {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pblint-\(UUID().uuidString.prefix(8))").path
        func write(_ relative: String, _ text: String) throws {
            let path = dir + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        init() throws {
            try write("pushbox.json", #"{"name": "Planted", "bundleId": "dev.pushbox.planted"}"#)
            try write(
                "ios/Runner/en.lproj/Localizable.strings", "\"INVITE\" = \"%@ invited you\";\n\"SHARED\" = \"%@ and %@\";\n\"IOS_ONLY\" = \"iOS\";\n")
            let res = "android/app/src/main/res/"
            try write(
                res + "values/strings.xml",
                #"<resources><string name="invite">%1$s invited you</string><string name="SHARED">%1$s only</string><string name="score">%1$s leads by %2$d</string><string name="two">%s and %d</string></resources>"#
            )
            try write(
                res + "values-ko/strings.xml",
                #"<resources><string name="invite">%1$s 님, %2$s</string><string name="ko_only">한국어</string></resources>"#)
            // Hebrew under its modern code only: never read; Indonesian under both: read.
            try write(res + "values-he/strings.xml", #"<resources><string name="invite">%1$s הזמין אותך</string></resources>"#)
            try write(res + "values-id/strings.xml", #"<resources><string name="invite">%1$s mengundang</string></resources>"#)
            try write(res + "values-in/strings.xml", #"<resources><string name="invite">%1$s mengundang</string></resources>"#)
            try write(res + "values-fr/strings.xml", "<resources>\n<string name=\"invite\">L'invitation</string>\n</resources>")
            try write(
                "payloads/score.json",
                #"{"message":{"topic":"t","android":{"notification":{"body_loc_key":"score","body_loc_args":["Ana","3"],"title_loc_key":"IOS_ONLY"}},"apns":{"payload":{"aps":{"alert":{"loc-key":"SHARED","loc-args":["a","b"]}}}}}}"#
            )
        }
        deinit { try? FileManager.default.removeItem(atPath: dir) }
    }

    @Test("each planted problem once, with its code and file, and exit 1 for the errors")
    func planted() throws {
        let p = try Planted()
        let run = CLIRun(["lint", "--app", p.dir, "--payloads", p.dir + "/payloads", "--json"])
        #expect(run.status == 1)
        let findings = try run.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        func has(_ code: String, file: String, key: String? = nil) -> Bool {
            findings.contains {
                $0["code"]?.stringValue == code && $0["file"]?.stringValue?.hasSuffix(file) == true && (key == nil || $0["key"]?.stringValue == key)
            }
        }
        #expect(has("android-broken-file", file: "values-fr/strings.xml"))
        #expect(findings.first { $0["code"]?.stringValue == "android-broken-file" }?["line"]?.intValue == 2)
        #expect(has("android-non-positional", file: "values/strings.xml"))
        #expect(has("android-no-default", file: "values", key: "ko_only"))
        #expect(has("android-argument-mismatch", file: "values-ko", key: "invite"))
        #expect(has("android-format-exception", file: "payloads/score.json", key: "score"))
        #expect(has("cross-platform-missing", file: "payloads/score.json", key: "IOS_ONLY"))
        #expect(has("cross-platform-arguments", file: "payloads/score.json", key: "SHARED"))
        #expect(
            findings.filter { $0["code"]?.stringValue == "android-unread-folder" }.compactMap { $0["file"]?.stringValue?.split(separator: "/").last }
                == ["values-he"])
    }
}
