import Foundation
import PushboxTestSupport
import Testing
import PushboxFetch
import PushboxText

/// `pushbox serve` as a separate process, driven by the real clients.
@Suite("serve, send, list, replay, export, and kill -9", .serialized)
struct ServeEndToEndTests {
    final class Served {
        let dir = "/tmp/pbe-\(UUID().uuidString.prefix(8))"
        var socket: String { dir + "/s.sock" }
        var db: String { dir + "/inbox.sqlite" }
        var process: Subprocess.Child?

        init() throws {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }

        func start() throws {
            var env = ProcessInfo.processInfo.environment
            env["XDG_CACHE_HOME"] = dir + "/cache"
            process = try Subprocess.Child(try #require(EndToEndTests.binary),
                                           ["serve", "--socket", socket, "--db", db, "--quiet", "--no-extension"],
                                           environment: env)
            // Ready when the socket answers.
            for _ in 0..<200 {
                if let c = UnixHTTPClient(socketPath: socket), case .success = c.request("GET", url: "http://localhost/ready", headers: [], body: [], timeoutMs: 500) { return }
                usleep(25_000)
            }
            Issue.record("serve did not start")
        }

        func kill9() {
            process?.kill()
            process = nil
        }

        func stop() {
            process?.terminate()  // SIGTERM: a clean stop (SIGKILL after 10 s)
            process = nil
        }

        deinit {
            stop()
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    final class Acks: @unchecked Sendable {
        private let lock = NSLock()
        private var ids: [String] = []
        func add(_ id: String) { lock.lock(); ids.append(id); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return ids }
    }

    @Test("a burst from many clients, kill -9 in the middle, a restart: every acknowledged apns-id is listed")
    func crash() throws {
        let s = try Served()
        try s.start()
        let acks = Acks()
        let group = DispatchGroup()
        let socket = s.socket
        for client in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let c = UnixHTTPClient(socketPath: socket) else { return }
                for i in 0..<5_000 {
                    let id = UUID().uuidString.lowercased()
                    let body = Array(#"{"aps":{"alert":"client \#(client) #\#(i)"}}"#.utf8)
                    guard case .success(let r) = c.request("POST", url: "http://localhost/3/device/abcd", headers: [("apns-id", id), ("apns-topic", "dev.pushbox.sample")], body: body, timeoutMs: 2000) else { return }
                    if r.status == 200 { acks.add(id) }
                }
            }
        }
        // Let the burst run, then kill the server without warning.
        for _ in 0..<200 where acks.all.count < 400 { usleep(10_000) }
        s.kill9()
        group.wait()
        let acknowledged = acks.all
        #expect(acknowledged.count >= 100, "only \(acknowledged.count) acknowledged before the kill")
        // The socket file is stale now; a restart replaces it.
        try s.start()
        let list = CLIRun(["list", "--db", s.db, "--json", "--history", "--no-extension"])
        #expect(list.status == 0)
        let listed = Set(try list.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue?["apnsId"]?.stringValue) })
        let lost = acknowledged.filter { !listed.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged notifications lost")
        s.stop()
        #expect(!FileManager.default.fileExists(atPath: s.socket))
    }

    @Test("send prints APNs' answer per file; list, replay and export work on what was sent")
    func commands() throws {
        let s = try Served()
        try s.start()
        let samples = ["01-game-invite.json", "08-score-update-1.json", "09-score-update-2.json", "invalid/BadPriority.json"].map { ProjectPaths.samples + "/" + $0 }
        let send = CLIRun(["send", "--socket", s.socket] + samples)
        #expect(send.status == 1)  // one refusal
        #expect(send.lines.count == 4)
        #expect(send.lines[0].contains(": 200 apns-id "))
        #expect(send.lines[3].contains(": 400 BadPriority apns-id "))
        let list = CLIRun(["list", "--db", s.db, "--json", "--no-extension"])
        let items = try list.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        // The two score updates share a collapse id: the inbox shows the second only.
        #expect(items.count == 3)
        #expect(items.contains { $0["title"] == "Seoul 1 – 1 Busan" })
        #expect(!items.contains { $0["title"] == "Seoul 1 – 0 Busan" })
        #expect(items.contains { $0["reason"] == "BadPriority" && $0["delivered"] == "rejected" })
        #expect(items.allSatisfy { $0["source"] == "socket" && $0["receivedAt"]?.stringValue != nil })
        let history = CLIRun(["list", "--db", s.db, "--history", "--no-extension"])
        #expect(history.lines.count == 4)
        let replay = CLIRun(["replay", "--db", s.db, "--socket", s.socket, "--speed", "0"])
        #expect(replay.lines.count == 4)
        let after = CLIRun(["list", "--db", s.db, "--json", "--history", "--no-extension"])
        #expect(after.lines.filter { $0.contains("\"source\":\"replay\"") }.count == 4)
        let exportDir = s.dir + "/export"
        let export = CLIRun(["export", "--db", s.db, exportDir])
        #expect(export.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: exportDir).filter { $0.hasSuffix(".apns") }
        #expect(files.count == 6)  // 3 accepted, twice (sent and replayed)
        let check = CLIRun(["validate"] + files.map { exportDir + "/" + $0 })
        #expect(check.status == 0, "\(check.out)")
        let firstFile = try #require(files.sorted().first)
        let first = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: exportDir + "/" + firstFile)))).objectValue
        #expect(first?["Simulator Target Bundle"] == "dev.pushbox.sample")
    }

    @Test("send without a running pushbox says so and fails")
    func noServer() {
        let run = CLIRun(["send", "--socket", "/tmp/pbe-none/s.sock", ProjectPaths.samples + "/01-game-invite.json"])
        #expect(run.status == 1)
        #expect(run.err.contains("is `pushbox serve` running?"))
    }
}
