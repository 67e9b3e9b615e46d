import Foundation
import PushboxFetch
import PushboxJSON
import PushboxLoopback
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// `pushbox snapshot`: record once, verify on every change, a diff that names the file and the
/// line, JUnit for CI, and what a backend's run sent (`--from-inbox`).
@Suite("Golden files: pushbox snapshot", .serialized)
struct SnapshotCommandTests {
    /// A copy of the sample app, so a test may change a translation.
    final class Copy {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pbsnap-\(UUID().uuidString.prefix(8))").path
        var app: String { dir + "/SampleApp" }
        var golden: String { dir + "/golden" }
        init() throws {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: ProjectPaths.sampleApp, toPath: app)
        }
        /// TMPDIR is the copy's own folder: a failed picture's drawing goes there, removed with it.
        func run(_ extra: [String], environment: [String: String] = [:]) -> CLIRun {
            CLIRun(
                ["snapshot", "--golden", golden, "--app", app, "--lang", "en-US,ko-KR", "--no-extension"] + extra + [
                    ProjectPaths.samples + "/01-game-invite.json", ProjectPaths.samples + "/12-fcm-invite-both.json",
                ],
                environment: environment.merging(["XDG_CACHE_HOME": CLIRun.cacheHome, "XDG_DATA_HOME": CLIRun.dataHome, "TMPDIR": dir]) { a, _ in a })
        }
        deinit { try? FileManager.default.removeItem(atPath: dir) }
    }

    @Test("record writes a text and a JSON file per payload × language × phone; verify then passes; a second record changes nothing")
    func recordAndVerify() throws {
        let c = try Copy()
        let recorded = c.run(["--record"])
        #expect(recorded.status == 0, "\(recorded.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: c.golden).sorted()
        #expect(
            files == [
                "01-game-invite.ios.en-US.json", "01-game-invite.ios.en-US.txt", "01-game-invite.ios.ko-KR.json", "01-game-invite.ios.ko-KR.txt",
                "12-fcm-invite-both.android.en-US.json", "12-fcm-invite-both.android.en-US.txt", "12-fcm-invite-both.android.ko-KR.json",
                "12-fcm-invite-both.android.ko-KR.txt", "12-fcm-invite-both.ios.en-US.json", "12-fcm-invite-both.ios.en-US.txt",
                "12-fcm-invite-both.ios.ko-KR.json", "12-fcm-invite-both.ios.ko-KR.txt",
            ])
        #expect(c.run([]).status == 0)
        #expect(c.run(["--record"]).out.contains(", 0 changed"))
        // Stable and free of times: the JSON has no trace, and no absolute cache path.
        let json = try String(contentsOfFile: c.golden + "/01-game-invite.ios.ko-KR.json", encoding: .utf8)
        #expect(!json.contains("\"trace\"") && !json.contains("\"ms\""))
        // Keys as JSON spells them; an Android card is not judged by iPhone's preview profiles.
        #expect(try JSONParser.parse(Array(json.utf8)).objectValue?["languageRequested"]?.stringValue == "ko-KR")
        let android = try String(contentsOfFile: c.golden + "/12-fcm-invite-both.android.en-US.txt", encoding: .utf8)
        #expect(!android.contains("iPhone):") && android.contains("preview: not judged"), "\(android)")
    }

    @Test("goldens travel: recorded from one folder, they verify from another (a laptop's and CI's), and hold no absolute path")
    func goldensTravel() throws {
        let c = try Copy()
        // The same payloads (and their .headers) in two folders, as on a laptop and on CI.
        let names = ["01-game-invite.json", "07-silent-refresh.json", "07-silent-refresh.headers", "12-fcm-invite-both.json"]
        var folders: [String] = []
        for place in ["Users/me/app/pushes", "home/runner/work/app/pushes"] {
            let folder = c.dir + "/" + place
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for name in names { try FileManager.default.copyItem(atPath: ProjectPaths.samples + "/" + name, toPath: folder + "/" + name) }
            folders.append(folder)
        }
        func snapshot(_ folder: String, _ extra: [String]) -> CLIRun {
            CLIRun(["snapshot", "--golden", c.golden, "--app", c.app, "--lang", "en-US", "--no-extension"] + extra + [folder])
        }
        let recorded = snapshot(folders[0], ["--record"])
        #expect(recorded.status == 0, "\(recorded.err)")
        let verified = snapshot(folders[1], [])
        #expect(verified.status == 0, "\(verified.out)")
        for file in try FileManager.default.contentsOfDirectory(atPath: c.golden) {
            let text = try String(contentsOfFile: c.golden + "/" + file, encoding: .utf8)
            #expect(!text.contains(c.dir) && !text.contains("Users/me"), "\(file) holds a path of the machine it was recorded on")
        }
        let json = try JSONParser.parse(Array(try String(contentsOfFile: c.golden + "/01-game-invite.ios.en-US.json", encoding: .utf8).utf8))
        #expect(json.objectValue?["file"]?.stringValue == "01-game-invite.json")
    }

    @Test("one translation changed: verify fails with a unified diff naming the golden file and the line; JUnit has the failure")
    func translationChanged() throws {
        let c = try Copy()
        #expect(c.run(["--record"]).status == 0)
        let strings = c.app + "/Resources/ko.lproj/Localizable.strings"
        var text = try String(contentsOfFile: strings, encoding: .utf8)
        text = text.replacingOccurrences(of: "모노폴리 게임에 초대했습니다", with: "모노폴리에 초대했어요")
        try Data(text.utf8).write(to: URL(fileURLWithPath: strings))
        let junit = c.dir + "/junit.xml"
        let r = c.run(["--junit", junit])
        #expect(r.status == 1)
        #expect(r.out.contains("--- \(c.golden)/01-game-invite.ios.ko-KR.txt"))
        #expect(r.out.split(separator: "\n").contains { $0.hasPrefix("@@ -") })
        #expect(r.out.split(separator: "\n").contains { $0.hasPrefix("+") && $0.contains("초대했어요") })
        #expect(r.out.split(separator: "\n").contains { $0.hasPrefix("-") && $0.contains("초대했습니다") })
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"failures=""#) && !xml.contains(#"failures="0""#))
        #expect(xml.contains(#"name="01-game-invite.ios.ko-KR.txt""#))
    }

    @Test("a missing golden and a golden without a payload each fail verify")
    func missingAndExtra() throws {
        let c = try Copy()
        #expect(c.run(["--record"]).status == 0)
        try FileManager.default.removeItem(atPath: c.golden + "/01-game-invite.ios.en-US.json")
        try Data("x".utf8).write(to: URL(fileURLWithPath: c.golden + "/99-gone.ios.en-US.txt"))
        let r = c.run([])
        #expect(r.status == 1)
        #expect(r.out.contains("missing golden \(c.golden)/01-game-invite.ios.en-US.json"))
        #expect(r.out.contains("99-gone.ios.en-US.txt has no payload"))
    }

    @Test(
        "--from-inbox: what one pushbox exec run received becomes golden files a backend's test can assert on",
        .enabled(if: ExecTests.available, ExecTests.reason))
    func fromInbox() throws {
        let f = try ExecTests.ExecFixture()
        let curl =
            "curl -sS -m 10 -o /dev/null -H \"authorization: bearer $0\" -H 'apns-topic: dev.pushbox.sample' -d '{\"aps\":{\"alert\":{\"title\":\"Your order shipped\",\"body\":\"It arrives Friday\"}}}' https://api.sandbox.push.apple.com/3/device/\(ExecTests.deviceToken)"
        let r = try f.exec(["--", "/bin/sh", "-c", curl, try ExecTests.token()])
        try #require(r.status == 0, "\(r.err)")
        let golden = f.dir + "/golden"
        let record = CLIRun(
            ["snapshot", "--golden", golden, "--record", "--from-inbox", "--db", f.db, "--lang", "en-US"], environment: f.environment)
        #expect(record.status == 0, "\(record.err)")
        let text = try String(contentsOfFile: golden + "/inbox-001.ios.en-US.txt", encoding: .utf8)
        #expect(text.contains("Your order shipped"))
        let verify = CLIRun(["snapshot", "--golden", golden, "--from-inbox", "--db", f.db, "--lang", "en-US"], environment: f.environment)
        #expect(verify.status == 0, "\(verify.out)")
    }

    static var chromiumReady: Bool { CardPictures.browser(ProcessInfo.processInfo.environment) != nil }

    /// Pictures recorded on this kind of machine (Debian's Chromium and Noto fonts), which the
    /// ones drawn now must match; `PUSHBOX_RECORD_PICTURES=1` records them anew.
    static let recordedPictures = ProjectPaths.projectRoot + "/Tests/Pictures"

    @Test(
        "--png: a picture per golden, drawn by the browser inbox's page in Chromium, matching the recorded ones; a changed translation fails its picture",
        .enabled(if: chromiumReady, "needs Debian's chromium (make test installs it)"))
    func pictures() throws {
        let c = try Copy()
        let recorded = c.run(["--record", "--png"])
        #expect(recorded.status == 0, "\(recorded.err)")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: c.golden).filter { $0.hasSuffix(".png") }.sorted()
        #expect(
            pictures == [
                "01-game-invite.ios.en-US.png", "01-game-invite.ios.ko-KR.png", "12-fcm-invite-both.android.en-US.png",
                "12-fcm-invite-both.android.ko-KR.png", "12-fcm-invite-both.ios.en-US.png", "12-fcm-invite-both.ios.ko-KR.png",
            ])
        for name in pictures {
            let picture = try #require(FileManager.default.contents(atPath: c.golden + "/" + name).flatMap { Picture(png: Array($0)) })
            // The lock screen's card on a regular iPhone: 393 points less its margins.
            #expect(picture.width == 377 && picture.height > 60, "\(name)")
            let reference = Self.recordedPictures + "/" + name
            if ProcessInfo.processInfo.environment["PUSHBOX_RECORD_PICTURES"] == "1" {
                try FileManager.default.createDirectory(atPath: Self.recordedPictures, withIntermediateDirectories: true)
                try Data(picture.png).write(to: URL(fileURLWithPath: reference))
                Issue.record("recorded \(reference): run again without PUSHBOX_RECORD_PICTURES")
                continue
            }
            let expected = try #require(FileManager.default.contents(atPath: reference).flatMap { Picture(png: Array($0)) }, "\(reference)")
            let difference = picture.difference(from: expected)
            #expect(difference.within(CardPictures.tolerance), "\(name): \(difference)")
        }
        #expect(c.run(["--png"]).status == 0)
        #expect(c.run(["--record", "--png"]).out.hasSuffix(", 0 changed\n"))
        // The Korean invitation made longer: the Korean iPhone cards' text and pictures differ; the
        // Android card (its own strings) only gains a finding, so its picture stays; English is as it was.
        let strings = c.app + "/Resources/ko.lproj/Localizable.strings"
        let text = try String(contentsOfFile: strings, encoding: .utf8).replacingOccurrences(
            of: "모노폴리 게임에 초대했습니다", with: "모노폴리 게임에 초대했습니다. 지금 바로 참여하세요")
        try Data(text.utf8).write(to: URL(fileURLWithPath: strings))
        let junit = c.dir + "/junit.xml"
        // The pictures drawn now go under TMPDIR: the copy's own folder.
        #expect(c.run(["--png", "--junit", junit]).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: c.dir).contains { $0.hasPrefix("pushbox-snapshot-") })
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        let failed = xml.components(separatedBy: "<testcase ").filter { $0.contains("<failure") }.compactMap { testcase in
            testcase.components(separatedBy: " name=\"").dropFirst().first?.components(separatedBy: "\"").first
        }
        let korean = ["01-game-invite.ios.ko-KR", "12-fcm-invite-both.ios.ko-KR"]
        var expected: [String] = korean.flatMap { name in ["json", "png", "txt"].map { name + "." + $0 } }
        expected += ["12-fcm-invite-both.android.ko-KR.json", "12-fcm-invite-both.android.ko-KR.txt"]
        expected.sort()
        #expect(failed.sorted() == expected, "\(xml)")
    }

    @Test("--png without Chromium: the text goldens are written as ever, no picture, and a message")
    func picturesWithoutChromium() throws {
        let c = try Copy()
        let r = c.run(["--record", "--png"], environment: ["PUSHBOX_CHROMIUM": ""])
        #expect(r.status == 0 && !r.err.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: c.golden)
        #expect(files.count == 12 && !files.contains { $0.hasSuffix(".png") })
    }

    @Test("the unified diff: context, hunks with line numbers, additions and removals")
    func diff() {
        let d = UnifiedDiff.make("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nD\ne\nf\ng\nh\n", from: "old", to: "new")
        #expect(d == "--- old\n+++ new\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g")
    }

    @Test(
        "a chat app's communication step: the golden's card is from the sender in the group with the avatar, its JSON says communication, and --png draws it",
        .enabled(if: chromiumReady, "needs Debian's chromium (make test installs it)"))
    func communicationCard() throws {
        let c = try Copy()
        let server = try LoopbackHTTPServer { _ in
            .init(
                headers: [("Content-Type", "image/png")],
                body: Array(FileManager.default.contents(atPath: ProjectPaths.samples + "/media/lighthouse.png") ?? Data()))
        }
        defer { server.stop() }
        // The sample app, made a chat app: the capability and the communicate step.
        let profilePath = c.app + "/pushbox.json"
        var profile = try String(contentsOfFile: profilePath, encoding: .utf8)
        profile = profile.replacingOccurrences(
            of: #"{ "type": "attach""#,
            with:
                #"{ "type": "communicate", "sender": "sender.name", "handle": "sender.id", "avatar": "sender.avatar", "group": "chat.name" }, { "type": "attach""#
        )
        try Data(profile.utf8).write(to: URL(fileURLWithPath: profilePath))
        let payload = c.dir + "/chat.json"
        try Data(
            #"{"aps":{"alert":{"title":"New message","body":"Dinner at 7?"},"mutable-content":1},"sender":{"name":"Mina","id":"mina@example.com","avatar":"\#(server.baseURL)/mina.png"},"chat":{"name":"Family"}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: payload))
        let r = CLIRun(["snapshot", "--golden", c.golden, "--app", c.app, "--lang", "en-US", "--record", "--png", payload])
        #expect(r.status == 0, "\(r.err)")
        let json = try JSONParser.parse(Array(try String(contentsOfFile: c.golden + "/chat.ios.en-US.json", encoding: .utf8).utf8)).objectValue
        let communication = json?["communication"]?.objectValue
        #expect(json?["title"] == "Mina" && json?["subtitle"] == "Family")
        #expect(communication?["sender"] == "Mina" && communication?["avatar"]?.objectValue?["width"]?.intValue == 320)
        let text = try String(contentsOfFile: c.golden + "/chat.ios.en-US.txt", encoding: .utf8)
        #expect(text.contains("from Mina (mina@example.com) in Family · av"), "\(text)")
        let picture = try #require(FileManager.default.contents(atPath: c.golden + "/chat.ios.en-US.png").flatMap { Picture(png: Array($0)) })
        #expect(picture.width == 377)
    }
}
