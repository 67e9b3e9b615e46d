import Foundation
import PushboxTestSupport
import Testing

/// The real binary in tmux: a user's own app starts with an empty inbox in the device's own
/// language, and two inboxes on one database see each other's changes.
@Suite("One phone in tmux: a user's inbox, two inboxes on one database", .serialized)
struct TwoInboxesTests {
    typealias Session = TUIEndToEndTests.Session

    func send(_ socket: String, _ json: String) throws {
        let run = CLIRun(["send", "--socket", socket, "-"], stdin: json)
        #expect(run.status == 0, "\(run.out) \(run.err)")
    }

    @Test("--app of the user's own on a new inbox: no bundled samples, and an old config.json's languages do not choose the device language")
    func usersOwnApp() throws {
        let scratch = "/tmp/pbx-app-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let app = try OnePhoneTests.makeApp(in: scratch)
        let s = try Session(arguments: ["--app", app], config: #"{"languages":["es"],"theme":"dark"}"#)
        #expect(s.waitFor("Publ"), "\(s.screen)")
        #expect(s.waitFor("(en-US)"), "\(s.screen)")
        #expect(s.screen.contains("0 notifications"), "\(s.screen)")
        try send(s.socket, OnePhoneTests.shipped)
        #expect(s.waitFor("Your order has shipped"), "\(s.screen)")
        #expect(s.screen.contains("1 notification"), "\(s.screen)")
        try s.keys("q")
        #expect(s.waitForExit())
    }

    @Test(
        "a second inbox on the same database shows the first one's pushes, its delete reaches the first, and device online from a shell updates the row"
    )
    func twoInboxes() throws {
        let first = try Session(arguments: [])
        #expect(first.waitFor("notifications"), "\(first.screen)")
        let database = first.dir + "/inbox.sqlite"
        let second = try Session(arguments: ["--no-socket"], database: database)
        #expect(second.waitFor("notifications"), "\(second.screen)")
        try send(first.socket, #"{"aps":{"alert":{"title":"Zebra crossing","body":"one"}}}"#)
        #expect(first.waitFor("Zebra crossing"), "\(first.screen)")
        #expect(second.waitFor("Zebra crossing"), "the second inbox did not follow: \(second.screen)")
        // The newest is selected in both: d in the second deletes it, and the first follows.
        try second.keys("g")
        try second.keys("d")
        #expect(second.waitFor("deleted"), "\(second.screen)")
        #expect(
            first.waitUntil(seconds: 5) { !$0.contains("Zebra crossing") }, "the delete in the second inbox did not reach the first: \(first.screen)")
        // Offline from a shell: kept; online from a shell: delivered from storage, in the first inbox too.
        #expect(CLIRun(["device", "offline", "--db", database]).status == 0)
        #expect(first.waitFor("device offline"), "\(first.screen)")
        try send(first.socket, #"{"aps":{"alert":{"title":"Yak shaving","body":"two"}}}"#)
        #expect(first.waitFor("Yak shaving"), "\(first.screen)")
        try first.keys("g")
        #expect(first.waitFor("stored — device offline"), "\(first.screen)")
        #expect(CLIRun(["device", "online", "--db", database]).status == 0)
        #expect(
            first.waitUntil(seconds: 5) { !$0.contains("stored — device offline") && $0.contains("Yak shaving — two") },
            "the first inbox kept the row as stored: \(first.screen)")
        // The trace says how it reached the device.
        try first.keys("Tab")
        #expect(first.waitFor("delivered from storage"), "\(first.screen)")
        #expect(second.waitFor("Yak shaving"), "\(second.screen)")
        try first.keys("q")
        try second.keys("q")
        #expect(first.waitForExit() && second.waitForExit())
    }
}
