import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

/// How the phone presented a notification, set from a shell (`pushbox device focus|summary|
/// previews|silent`) and said by `render --json`, `list --json` and the trace.
@Suite("Presentation from the command line", .serialized)
struct PresentationCommandTests {
    @Test("device focus on: the sample game invite is silenced, the time-sensitive alarm breaks through; the device says what is set")
    func focusFromTheShell() throws {
        let s = try ProviderLibraryTests.PortServed()
        #expect(CLIRun(["device", "focus", "on", "--allow-apps", "com.example.chat", "--db", s.db]).status == 0)
        #expect(CLIRun(["device", "silent", "--db", s.db]).status == 0)
        let device = CLIRun(["device", "--db", s.db, "--json"])
        let attention = try JSONParser.parse(Array(device.out.utf8)).objectValue?["attention"]?.objectValue
        #expect(attention?["focus"]?.objectValue?["allowApps"] == .array(["com.example.chat"]) && attention?["silent"] == .bool(true))
        #expect(CLIRun(["device", "previews", "sometimes", "--db", s.db]).status == 2)
        #expect(CLIRun(["device", "summary", "on", "--times", "25:00", "--db", s.db]).status == 2)
        func rendered(_ file: String) throws -> JSONObject {
            let r = CLIRun(["render", "--db", s.db, "--json", "--no-extension", ProjectPaths.samples + "/" + file])
            return try #require(try JSONParser.parse(Array(r.out.utf8)).objectValue, "\(r.err)")
        }
        let invite = try rendered("01-game-invite.json")
        #expect(invite["presentation"]?.objectValue?["outcome"] == "silenced")
        #expect(invite["trace"]?.arrayValue?.last?.objectValue?["step"] == "present")
        let alarm = try rendered("06-alarm.json")
        #expect(alarm["presentation"]?.objectValue?["outcome"] == "shown" && alarm["presentation"]?.objectValue?["sound"] == "vibrates")
        // What a running pushbox stores keeps how it was presented then, whatever is set after.
        try s.start()
        let sent = CLIRun(["send", "--socket", s.dir + "/s.sock", ProjectPaths.samples + "/01-game-invite.json"])
        #expect(sent.status == 0, "\(sent.err)")
        #expect(CLIRun(["device", "focus", "off", "--db", s.db]).status == 0)
        let listed = CLIRun(["list", "--db", s.db, "--json", "--no-extension"])
        let row = try #require(
            try listed.lines.map { try JSONParser.parse(Array($0.utf8)).objectValue }.first { $0?["title"] == "Game invite" } ?? nil)
        #expect(row["presentation"]?.objectValue?["outcome"] == "silenced")
        // The same settings through the API; a value that cannot be read changes nothing.
        let socket = s.dir + "/s.sock"
        let bad = try APIv1Tests.curl([
            "--unix-socket", socket, "-X", "PUT", "-d", #"{"summary": ["09:00"], "previews": "sometimes"}"#, "http://localhost/api/v1/device",
        ])
        #expect(bad.status == 400 && bad.body["error"] == "BadDeviceChange")
        let good = try APIv1Tests.curl([
            "--unix-socket", socket, "-X", "PUT", "-d", #"{"summary": ["21:00", "09:00"], "silent": false}"#, "http://localhost/api/v1/device",
        ])
        let kept = good.body["attention"]?.objectValue
        #expect(good.status == 200 && kept?["summaryTimes"] == .array(["09:00", "21:00"]) && kept?["silent"] == .bool(false))
    }

    @Test(
        "the presentation page's chat example: the sample message through the communicate step, shown with Focus off, shown under a Focus that allows Mina, silenced under one that allows nobody (Apple, Implementing communication notifications)"
    )
    func chatUnderFocus() throws {
        let s = try ProviderLibraryTests.PortServed()
        func rendered() throws -> JSONObject {
            let r = CLIRun(["render", "--db", s.db, "--json", ProjectPaths.samples + "/17-chat-message.json"])
            return try #require(try JSONParser.parse(Array(r.out.utf8)).objectValue, "\(r.err)")
        }
        let off = try rendered()
        #expect(off["title"] == "Mina" && off["subtitle"] == "Family" && off["communication"]?.objectValue?["handle"] == "mina@example.com")
        #expect(off["presentation"]?.objectValue?["outcome"] == "shown")
        #expect(CLIRun(["device", "focus", "on", "--allow-people", "mina@example.com", "--db", s.db]).status == 0)
        let allowed = try rendered()["presentation"]?.objectValue
        #expect(allowed?["outcome"] == "shown" && allowed?["rule"]?.stringValue?.contains("mina@example.com") == true)
        #expect(CLIRun(["device", "focus", "on", "--allow-people", "", "--db", s.db]).status == 0)
        #expect(try rendered()["presentation"]?.objectValue?["outcome"] == "silenced")
        // The Focus filter option is the device command's too.
        #expect(CLIRun(["device", "focus", "on", "--allow-apps", "dev.pushbox.sample", "--filter", "work", "--db", s.db]).status == 0)
        #expect(try rendered()["presentation"]?.objectValue?["outcome"] == "silenced")
    }

    @Test(
        "an FCM chat message: the iPhone's communicate step makes it a communication card, the Android card says the FCM SDK shows no conversation style (no MessagingStyle for notification messages)"
    )
    func androidConversation() throws {
        let s = try ProviderLibraryTests.PortServed()
        let file = s.dir + "/chat-fcm.json"
        try Data(
            #"{"message":{"topic":"NewsApp","notification":{"title":"New message","body":"Dinner at 7?"},"apns":{"payload":{"aps":{"mutable-content":1},"sender":{"name":"Mina","id":"mina@example.com"}}}}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: file))
        let r = CLIRun(["render", "--db", s.db, "--json", file])
        let cards = try r.lines.compactMap { try JSONParser.parse(Array($0.utf8)).objectValue }
        let ios = try #require(cards.first { $0["platform"] == "ios" }, "\(r.out) \(r.err)")
        let android = try #require(cards.first { $0["platform"] == "android" })
        func codes(_ card: JSONObject) -> [String] { card["diagnostics"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? [] }
        #expect(ios["title"] == "Mina" && !codes(ios).contains("android-conversation"))
        #expect(android["title"] == "New message" && codes(android).contains("android-conversation"))
    }

    @Test("device summary on: held for a summary time (the next on the device clock, which DeviceAttentionTests pins)")
    func summaryFromTheShell() throws {
        let s = try ProviderLibraryTests.PortServed()
        #expect(CLIRun(["device", "summary", "on", "--times", "08:00,18:00", "--db", s.db]).status == 0)
        let r = CLIRun(["render", "--db", s.db, "--json", "--no-extension", ProjectPaths.samples + "/01-game-invite.json"])
        let presentation = try JSONParser.parse(Array(r.out.utf8)).objectValue?["presentation"]?.objectValue
        #expect(presentation?["outcome"] == "summary", "\(r.out) \(r.err)")
        #expect(["08:00", "18:00"].contains(presentation?["summaryAt"]?.stringValue ?? ""))
    }

    @Test("each phone of the fleet presents a push by its own settings: the Japanese iPhone's Focus silences what the inbox's own phone shows")
    func fleet() throws {
        let s = try ProviderLibraryTests.PortServed()
        #expect(CLIRun(["device", "add", "ja", "--lang", "ja-JP", "--db", s.db]).status == 0)
        #expect(CLIRun(["device", "focus", "on", "--device", "ja", "--db", s.db]).status == 0)
        try s.start()
        let message = #"{"message":{"topic":"NewsApp","notification":{"title":"Breaking","body":"news"}}}"#
        let sent = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", s.dir + "/s.sock", "-d", message,
                "http://localhost/v1/projects/shop/messages:send",
            ])
        #expect(sent.out == "200")
        let rows = try CLIRun(["list", "--db", s.db, "--json", "--no-extension"]).lines.compactMap {
            try JSONParser.parse(Array($0.utf8)).objectValue
        }
        let outcome = Dictionary(
            uniqueKeysWithValues: rows.compactMap { r in
                r["device"]?.stringValue.map { ($0, r["presentation"]?.objectValue?["outcome"]?.stringValue ?? "-") }
            })
        #expect(outcome == ["phone": "shown", "ja": "silenced"], "\(rows)")
    }
}
