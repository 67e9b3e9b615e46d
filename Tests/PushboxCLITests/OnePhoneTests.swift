import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

/// One phone: every command on an inbox sees the device its pushbox runs (its app and
/// languages), not the bundled sample app; a new user's inbox is theirs.
@Suite("One phone: commands see the inbox's device", .serialized)
struct OnePhoneTests {
    /// An app of the user's own, not the bundled sample: another bundle id, Korean strings, a
    /// Live Activity type of its own.
    static func makeApp(in dir: String) throws -> String {
        let app = dir + "/PublApp"
        for lproj in ["en", "ko"] {
            try FileManager.default.createDirectory(atPath: "\(app)/\(lproj).lproj", withIntermediateDirectories: true)
        }
        try
            #"{"name":"Publ","bundleId":"com.example.publapp","developmentRegion":"en","liveActivities":{"types":{"Delivery":{"attributes":{"order":"String"},"contentState":{"eta":"Int"}}}}}"#
            .write(toFile: app + "/pushbox.json", atomically: true, encoding: .utf8)
        try #""SHIPPED" = "Your order has shipped";"#.write(toFile: app + "/en.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        try #""SHIPPED" = "주문하신 상품이 발송되었습니다";"#.write(toFile: app + "/ko.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        return app
    }

    static let shipped = #"{"aps":{"alert":{"loc-key":"SHIPPED"}}}"#

    @Test(
        "serve --app APP --lang ko-KR: device, render, activity start and send without --app or --lang use that app and language; a refusal says why"
    )
    func commandsUseTheRunningDevice() throws {
        let s = try ServeEndToEndTests.Served()
        let app = try Self.makeApp(in: s.dir)
        try s.start(["--app", app, "--lang", "ko-KR"])
        let payload = s.dir + "/shipped.json"
        try Self.shipped.write(toFile: payload, atomically: true, encoding: .utf8)

        let device = CLIRun(["device", "--db", s.db, "--json"])
        let o = try #require(try JSONParser.parse(Array(device.out.utf8)).objectValue, "\(device.out) \(device.err)")
        #expect(o["bundleID"] == "com.example.publapp")
        #expect(o["languages"] == .array(["ko-KR"]))
        let topics = o["topics"]?.arrayValue?.compactMap { $0.objectValue?["topic"]?.stringValue } ?? []
        #expect(topics.contains("LangKoKR") && !topics.contains("LangEnUS"), "\(topics)")

        let rendered = CLIRun(["render", "--db", s.db, "--json", "--no-extension", payload])
        let r = try #require(try JSONParser.parse(Array(rendered.out.utf8)).objectValue, "\(rendered.out) \(rendered.err)")
        #expect(r["body"] == "주문하신 상품이 발송되었습니다", "\(r)")

        let attributes = s.dir + "/attributes.json"
        try #"{"order":"A-1"}"#.write(toFile: attributes, atomically: true, encoding: .utf8)
        let state = s.dir + "/state.json"
        try #"{"eta":5}"#.write(toFile: state, atomically: true, encoding: .utf8)
        let started = CLIRun(["activity", "start", "--db", s.db, "--type", "Delivery", "--attributes", attributes, "--state", state])
        #expect(started.status == 0, "\(started.out) \(started.err)")

        // The running pushbox tells any client its device (curl on the socket, as a script would ask).
        let asked = try Subprocess.run("/usr/bin/curl", ["-s", "--unix-socket", s.socket, "http://localhost/pushbox/device"])
        let running = try #require(try JSONParser.parse(Array(asked.out.utf8)).objectValue, "\(asked.out)")
        #expect(running["bundleID"] == "com.example.publapp" && running["languages"] == .array(["ko-KR"]) && running["database"] == .string(s.db))
        #expect(running["topics"]?.arrayValue?.contains("LangKoKR") == true, "\(running)")
        // send addresses the running app's bundle id, as the app's own backend would.
        let sent = CLIRun(["send", "--socket", s.socket, payload])
        #expect(sent.status == 0 && sent.out.contains(": 200"), "\(sent.out) \(sent.err)")
        // A topic of another app is refused, and send says pushbox's cause after the reason.
        let refused = CLIRun(["send", "--socket", s.socket, "--topic", "dev.pushbox.sample", payload])
        #expect(refused.status == 1)
        let line = try #require(refused.lines.first)
        #expect(line.contains(": 400 DeviceTokenNotForTopic apns-id "), "\(line)")
        let cause = line.components(separatedBy: " apns-id ").last?.split(separator: ":", maxSplits: 1).last
        #expect((cause?.trimmingCharacters(in: .whitespaces).count ?? 0) > 10, "no cause after the reason: \(line)")

        // --lang that differs is applied where the command is for it, and the inbox keeps its own.
        let english = CLIRun(["render", "--db", s.db, "--json", "--no-extension", "--lang", "en-US", payload])
        #expect((try? JSONParser.parse(Array(english.out.utf8)).objectValue?["body"]) == "Your order has shipped")
        #expect((try JSONParser.parse(Array(CLIRun(["device", "--db", s.db, "--json"]).out.utf8))).objectValue?["languages"] == .array(["ko-KR"]))
    }

    @Test("pushbox clear empties the inbox (list shows nothing), counts what it deleted, and refuses an inbox that does not exist")
    func clear() throws {
        let s = try ServeEndToEndTests.Served()
        try s.start()
        let payload = s.dir + "/p.json"
        try #"{"aps":{"alert":{"title":"one"}}}"#.write(toFile: payload, atomically: true, encoding: .utf8)
        for _ in 0..<3 { #expect(CLIRun(["send", "--socket", s.socket, payload]).status == 0) }
        #expect(CLIRun(["list", "--db", s.db, "--json", "--no-extension"]).lines.count == 3)
        let cleared = CLIRun(["clear", "--db", s.db])
        #expect(cleared.status == 0)
        #expect(cleared.out.hasPrefix("cleared 3 notifications"), "\(cleared.out)")
        #expect(CLIRun(["list", "--db", s.db, "--json", "--no-extension"]).lines.isEmpty)
        #expect(CLIRun(["clear", "--db", s.dir + "/nothing.sqlite"]).status == 1)
        // One operand at most, and it is a query: one that cannot be read is a usage error.
        #expect(CLIRun(["clear", "--db", s.db, "one", "two"]).status == 2)
        #expect(CLIRun(["clear", "--db", s.db, "colour:red"]).status == 2)
    }

    @Test("render is a dry run on the inbox's device: uninstalled it is 410 Unregistered, offline the push is kept, as a send would be")
    func renderJudgesAsTheDevice() throws {
        let folder = TemporaryFolder("pbrender")
        let db = folder.path + "/inbox.sqlite"
        let payload = ProjectPaths.samples + "/01-game-invite.json"
        func rendered() throws -> JSONObject {
            let run = CLIRun(["render", "--db", db, "--json", "--no-extension", payload])
            return try #require(try JSONParser.parse(Array(run.out.utf8)).objectValue, "\(run.out) \(run.err)")
        }
        #expect(try rendered()["status"] == 200)
        #expect(CLIRun(["device", "uninstall", "--db", db]).status == 0)
        let uninstalled = try rendered()
        #expect(uninstalled["status"] == 410 && uninstalled["reason"] == "Unregistered")
        #expect(CLIRun(["device", "install", "--db", db]).status == 0)
        #expect(CLIRun(["device", "offline", "--db", db]).status == 0)
        let offline = try rendered()
        #expect(offline["status"] == 200 && offline["delivered"] == "stored")
        // Nothing was changed by the dry runs: the inbox holds no notification.
        #expect(CLIRun(["list", "--db", db, "--json", "--no-extension"]).lines.isEmpty)
    }
}
