import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxTestSupport
import Testing

@testable import PushboxCLI

@Suite("pushbox render")
struct RenderCommandTests {
    static let contractFields = [
        "title", "subtitle", "body", "language", "attachments", "category", "actions", "threadId",
        "badge", "sound", "interruptionLevel", "delivered", "reason", "warnings", "trace",
    ]

    func objects(_ run: CLIRun) throws -> [JSONObject] {
        try run.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
    }

    @Test("--json gives one object per file, in input order, with every contract field")
    func jsonContract() throws {
        let files = ["06-alarm.json", "invalid/BadPriority.json", "01-game-invite.json"].map { ProjectPaths.samples + "/" + $0 }
        let run = CLIRun(["render", "--json", "--app", ProjectPaths.sampleApp, "--lang", "ko-KR,en"] + files)
        #expect(run.status == 1)  // BadPriority.json is refused: render exits 1, as validate does
        let notes = try objects(run)
        #expect(notes.count == 3)
        #expect(notes.map { $0["file"]?.stringValue } == files)
        for note in notes {
            for field in Self.contractFields { #expect(note[field] != nil, "missing \(field)") }
        }
        #expect(notes[0]["delivered"] == "original")
        #expect(notes[0]["category"] == "ALARM")
        #expect(notes[0]["interruptionLevel"] == "time-sensitive")
        #expect(notes[0]["language"] == "ko")  // the localization matching chose for ko-KR
        #expect(notes[1]["delivered"] == "rejected")
        #expect(notes[1]["reason"] == "BadPriority")
        #expect(notes[2]["badge"] == .number("3"))
        #expect(notes[2]["threadId"] == "games")
        let trace = try #require(notes[2]["trace"]?.arrayValue?.first?.objectValue)
        #expect(trace["step"] == "validate")
        #expect(trace["outcome"] == "accepted")
    }

    @Test("a string alert is the body; a dictionary gives title, subtitle and body")
    func literalAlert() throws {
        let s = try objects(CLIRun(["render", "--json", "-"], stdin: #"{"aps":{"alert":"Just a body","sound":{"name":"a.caf","critical":1}}}"#))[0]
        #expect(s["title"] == .null)
        #expect(s["body"] == "Just a body")
        #expect(s["sound"] == "a.caf")
        let d = try objects(CLIRun(["render", "--json", "-"], stdin: #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"}}}"#))[0]
        #expect([d["title"], d["subtitle"], d["body"]] == ["T", "S", "B"])
    }

    @Test("an FCM message for another language topic is not delivered to this device")
    func fcmTargeting() throws {
        let files = ["03-fcm-news-en.json", "04-fcm-news-fr.json"].map { ProjectPaths.samples + "/" + $0 }
        let en = try objects(CLIRun(["render", "--json", "--platform", "ios", "--app", ProjectPaths.sampleApp, "--lang", "en-US"] + files))
        #expect(en.map { $0["delivered"]?.stringValue } == ["original", "rejected"])
        #expect(en[0]["title"] == "Storm warning for the coast")
        let fr = try objects(CLIRun(["render", "--json", "--platform", "ios", "--app", ProjectPaths.sampleApp, "--lang", "fr-FR"] + files))
        #expect(fr.map { $0["delivered"]?.stringValue } == ["rejected", "original"])
        #expect(fr[1]["title"] == "Alerte tempête sur la côte")
        // Both phones by default for an FCM message: Android is not addressed either.
        let both = try objects(CLIRun(["render", "--json", "--app", ProjectPaths.sampleApp, "--lang", "fr-FR"] + files))
        #expect(both.map { $0["platform"]?.stringValue } == ["ios", "android", "ios", "android"])
        #expect(both.map { $0["delivered"]?.stringValue } == ["rejected", "rejected", "original", "shown"])
    }

    @Test("text output shows the notification and sanitizes payload text")
    func text() {
        let run = CLIRun(["render", "-"], stdin: #"{"aps":{"alert":{"title":"Hi \u001b]0;pwned\u0007","body":"line 1\nline 2"},"badge":2}}"#)
        #expect(run.status == 0)
        #expect(!run.out.contains("\u{1B}"))
        #expect(!run.out.contains("\u{07}"))
        #expect(run.out.contains("title:    Hi ␛]0;pwned␇"))
        #expect(run.out.contains("body:     line 1\n             line 2"))
        #expect(run.out.contains("badge 2"))
    }

    @Test("pushbox with no command renders every bundled sample")
    func defaultRun() {
        let run = CLIRun([], environment: ["PUSHBOX_SAMPLES": ProjectPaths.samples, "XDG_CACHE_HOME": CLIRun.cacheHome])
        #expect(run.status == 0)
        let headers = run.lines.filter { $0.hasPrefix("── ") }
        let samples = ResourceLocator.samplePayloadFiles(in: ProjectPaths.samples)
        // One card per sample, and an Android card beside each FCM message's.
        let fcm = samples.filter { (try? String(contentsOfFile: $0, encoding: .utf8))?.contains("\"message\"") == true }
        #expect(headers.filter { !$0.contains(" · android · ") }.count == samples.count)
        #expect(headers.filter { $0.contains(" · android · ") }.count == fcm.count)
        #expect(run.out.contains("From the Simulator"))
    }

    @Test("a broken --app profile is a clear usage error")
    func badApp() {
        let run = CLIRun(["render", "--app", "/nonexistent/app", "-"], stdin: "{}")
        #expect(run.status == 2)
        #expect(run.err.contains("no such app folder"))
    }
}

/// Rough edges of daily use, each with what it did before.
@Suite("Rough edges: render's exit status and failed steps, list and export on a missing inbox")
struct RoughEdgeCommandTests {
    @Test("render exits 1 for a payload APNs refuses (as validate does) and 0 for one it accepts")
    func renderExit() {
        let refused = CLIRun(["render", ProjectPaths.samples + "/invalid/BadPriority.json"])
        #expect(refused.status == 1, "\(refused.out)")
        #expect(refused.out.contains("BadPriority"))
        #expect(CLIRun(["render", ProjectPaths.samples + "/06-alarm.json"]).status == 0)
    }

    @Test("render in text mode prints a failed extension step and why, as the trace does")
    func renderFailedStep() {
        let encrypted = #"{"aps":{"alert":{"title":"x","body":"y"},"mutable-content":1},"encrypted_data":"not base64!"}"#
        let run = CLIRun(["render", "-"], stdin: encrypted)
        #expect(run.out.contains("decrypt failed (bad-base64)"), "\(run.out)")
    }

    @Test("--lang kr and --lang xx-YY say so, in text and in JSON, instead of falling back to English in silence")
    func unknownLanguage() throws {
        let kr = CLIRun(["render", "--lang", "kr", ProjectPaths.samples + "/06-alarm.json"])
        #expect(kr.err.contains("kr matches none of the app's localizations; did you mean ko (the language of KR)?"), "\(kr.err)")
        let xx = CLIRun(["render", "--json", "--lang", "xx-YY", ProjectPaths.samples + "/06-alarm.json"])
        let note = try #require(try JSONParser.parse(Array(xx.lines[0].utf8)).objectValue)
        let codes = note["diagnostics"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? []
        #expect(codes.contains("unknown-language"), "\(note)")
        #expect(CLIRun(["render", "--lang", "ko-KR", ProjectPaths.samples + "/06-alarm.json"]).err.isEmpty)
    }

    @Test("list, replay and export refuse a --db that names no inbox instead of making an empty one")
    func missingInbox() {
        let path = "/tmp/pushbox-no-such-\(UUID().uuidString.prefix(8))/inbox.sqlite"
        for command in [["list"], ["export", "/tmp/pushbox-export-\(UUID().uuidString.prefix(6))"], ["replay"]] {
            let run = CLIRun(command + ["--db", path])
            #expect(run.status == 2 && run.err.contains("no inbox at \(path)"), "\(command): \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}

extension RoughEdgeCommandTests {
    @Test("render judges the text under a named presentation: a body too long for the lock screen is a truncated finding and a preview step")
    func previewFinding() throws {
        let long = #"{"aps":{"alert":{"title":"Long","body":"\#(String(repeating: "word ", count: 60))"}}}"#
        let run = CLIRun(["render", "--json", "-"], stdin: long)
        let note = try #require(try JSONParser.parse(Array(run.lines[0].utf8)).objectValue)
        #expect(note["diagnostics"]?.arrayValue?.contains { $0.objectValue?["code"] == "truncated" } == true, "\(note)")
        let expanded = try #require(
            try JSONParser.parse(Array(CLIRun(["render", "--json", "--profile", "expanded", "-"], stdin: long).lines[0].utf8)).objectValue)
        #expect(expanded["diagnostics"]?.arrayValue?.contains { $0.objectValue?["code"] == "truncated" } == false)
        #expect(CLIRun(["render", "--profile", "watch", "-"], stdin: long).status == 2)
        #expect(CLIRun(["render", "--profile", "banner:huge", "-"], stdin: long).status == 2)
        // A body of exactly two lines on a regular iPhone takes three on a small one.
        let two = #"{"aps":{"alert":{"title":"T","body":"\#(String(repeating: "abcd ", count: 15))"}}}"#
        func cut(_ profile: String) throws -> Bool {
            let o = try #require(
                try JSONParser.parse(Array(CLIRun(["render", "--json", "--profile", profile, "-"], stdin: two).lines[0].utf8)).objectValue)
            return o["diagnostics"]?.arrayValue?.contains { $0.objectValue?["code"] == "truncated" } == true
        }
        #expect(try !cut("banner"))
        #expect(try cut("banner:small"))
        #expect(try !cut("banner:large"))
    }
}

extension RoughEdgeCommandTests {
    @Test("a broken strings file is one finding: render says it once, lint does not add the missing keys that follow from it")
    func brokenFileOnce() throws {
        let folder = TemporaryFolder("pbbroken")
        try FileManager.default.createDirectory(atPath: folder.path + "/app/en.lproj", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/payloads", withIntermediateDirectories: true)
        try #""A" = "x";\#n"B" = "#.write(toFile: folder.path + "/app/en.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        let payload = #"{"aps":{"alert":{"title-loc-key":"A","loc-key":"B"}}}"#
        try payload.write(toFile: folder.path + "/payloads/p.json", atomically: true, encoding: .utf8)
        let render = CLIRun(["render", "--json", "--app", folder.path + "/app", "-"], stdin: payload)
        let note = try #require(try JSONParser.parse(Array(render.lines[0].utf8)).objectValue)
        let codes = note["diagnostics"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? []
        #expect(codes.filter { $0 == "broken-file" }.count == 1, "\(codes)")
        let lint = CLIRun(["lint", "--app", folder.path + "/app", "--payloads", folder.path + "/payloads"])
        #expect(lint.out.contains("[broken-file]") && !lint.out.contains("has no entry"), "\(lint.out)")
    }
}
