import Foundation
import PushboxFetch
import PushboxJSON
import PushboxSystem
import PushboxTestSupport
import Testing

/// `pushbox serve` as a separate process, driven by the real clients.
@Suite("serve, send, list, replay, export, and kill -9", .serialized)
struct ServeEndToEndTests {
    final class Served {
        let dir = "/tmp/pbe-\(UUID().uuidString.prefix(8))"
        var socket: String { dir + "/s.sock" }
        /// The inbox (a test may put it elsewhere before `start`).
        lazy var db = dir + "/inbox.sqlite"
        var process: Subprocess.Child?

        init() throws {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }

        /// `fileSizeLimitKB` starts serve under `ulimit -f` (in KB): files it writes cannot grow past it.
        func start(_ extra: [String] = [], fileSizeLimitKB: Int? = nil, stderr: Int32? = nil) throws {
            var env = ProcessInfo.processInfo.environment
            env["XDG_CACHE_HOME"] = dir + "/cache"
            env["XDG_DATA_HOME"] = dir + "/data"
            let binary = try #require(EndToEndTests.binary)
            let arguments = ["serve", "--socket", socket, "--db", db, "--quiet", "--no-extension", "--listen", "127.0.0.1:0"] + extra
            if let limit = fileSizeLimitKB {
                // bash counts -f in KB; exec keeps the limit for pushbox itself.
                process = try Subprocess.Child(
                    "/bin/bash", ["-c", "ulimit -f \(limit) && exec \"$0\" \"$@\"", binary] + arguments, environment: env, stderr: stderr)
            } else {
                process = try Subprocess.Child(binary, arguments, environment: env, stderr: stderr)
            }
            // Ready when the socket answers.
            for _ in 0..<200 {
                if let c = UnixHTTPClient(socketPath: socket),
                    case .success = c.request("GET", url: "http://localhost/ready", headers: [], body: [], timeoutMs: 500)
                {
                    return
                }
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

    /// apns-ids acknowledged, from several client threads.
    final class Acks: Sendable {
        private let ids = Locked<[String]>([])
        func add(_ id: String) { ids.withLock { $0.append(id) } }
        var all: [String] { ids.withLock { $0 } }
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
                    guard
                        case .success(let r) = c.request(
                            "POST", url: "http://localhost/3/device/abcd", headers: [("apns-id", id), ("apns-topic", "dev.pushbox.sample")],
                            body: body, timeoutMs: 2000)
                    else { return }
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

    @Test("curl's pushes are listed by curl's GET /inbox with their titles at once, rendered on demand when still waiting")
    func inboxOverCurl() throws {
        let s = try Served()
        try s.start()
        func curl(_ args: [String]) throws -> String {
            try Subprocess.run("/usr/bin/curl", ["-s", "--unix-socket", s.socket] + args, timeout: 20).out
        }
        for i in 0..<3 {
            let sent = try curl([
                "-o", "/dev/null", "-w", "%{http_code}", "-H", "apns-topic: dev.pushbox.sample",
                "-d", #"{"aps":{"alert":{"title":"T\#(i)","body":"b"}}}"#, "http://localhost/3/device/abcd",
            ])
            #expect(sent == "200")
        }
        let listed = try #require(try JSONParser.parse(Array(try curl(["http://localhost/inbox"]).utf8)).arrayValue)
        #expect(listed.compactMap { $0.objectValue?["title"]?.stringValue } == ["T2", "T1", "T0"])
    }

    @Test(
        "the disk fills while committing: the request is answered 500 InternalServerError naming the full disk, and nothing acknowledged before is lost"
    )
    func diskFull() throws {
        let s = try Served()
        // The inbox may not grow past 4 MB (the WAL file is the first to hit it).
        let log = s.dir + "/serve.err"
        let logFD = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(logFD) }
        try s.start(fileSizeLimitKB: 4096, stderr: logFD)
        guard let client = UnixHTTPClient(socketPath: s.socket) else {
            Issue.record("no client")
            return
        }
        var acknowledged: [String] = []
        var refusal: UnixHTTPClient.Response?
        let padding = String(repeating: "x", count: 3000)
        for i in 0..<5_000 where refusal == nil {
            let id = UUID().uuidString.lowercased()
            let body = Array(#"{"aps":{"alert":"n\#(i)"},"pad":"\#(padding)\#(i)"}"#.utf8)
            guard
                case .success(let r) = client.request(
                    "POST", url: "http://localhost/3/device/abcd", headers: [("apns-id", id), ("apns-topic", "dev.pushbox.sample")], body: body,
                    timeoutMs: 5000)
            else {
                Issue.record("serve stopped answering after \(acknowledged.count) notifications")
                return
            }
            if r.status == 200 { acknowledged.append(id) } else { refusal = r }
        }
        let answer = try #require(refusal, "the inbox never filled")
        #expect(answer.status == 500)
        let json = try JSONParser.parse(answer.body).objectValue
        #expect(json?["reason"] == "InternalServerError")
        #expect(acknowledged.count > 20)
        s.stop()
        // The body is APNs' alone; serve's stderr says what happened, naming the file.
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(said.contains("answered 500: the inbox could not store it: the disk holding \(s.db) is full"), "\(said)")
        // Without the limit, every acknowledged notification is there.
        let list = CLIRun(["list", "--db", s.db, "--json", "--history", "--no-extension"])
        #expect(list.status == 0, "\(list.err)")
        let listed = Set(try list.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue?["apnsId"]?.stringValue) })
        let lost = acknowledged.filter { !listed.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged notifications lost")
    }

    /// Whether this process may mount a tmpfs (root, as CI runs).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let probe = "/tmp/pb-tmpfs-probe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard (try? Subprocess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]))?.status == 0 else { return false }
        _ = try? Subprocess.run("/bin/umount", [probe])
        return true
    }()

    @Test(
        "the data folder on a small tmpfs that fills: 500 InternalServerError, never a 200, for what cannot be stored; serving again once space returns",
        .enabled(if: canMountTmpfs, "needs root to mount a tmpfs"))
    func tmpfsFull() throws {
        let s = try Served()
        let data = s.dir + "/tmpfs"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try #require(try Subprocess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", data]).status == 0)
        defer { _ = try? Subprocess.run("/bin/umount", ["-l", data]) }
        // A file that takes half the room, removed later to give space back.
        try Data(repeating: 0x55, count: 1024 * 1024).write(to: URL(fileURLWithPath: data + "/ballast"))
        s.db = data + "/inbox.sqlite"
        try s.start()
        let client = try #require(UnixHTTPClient(socketPath: s.socket))
        func post(_ i: Int) throws -> (Int, String) {
            let id = UUID().uuidString.lowercased()
            let body = Array(#"{"aps":{"alert":"n\#(i)"},"pad":"\#(String(repeating: "y", count: 3000))"}"#.utf8)
            let r = try client.request(
                "POST", url: "http://localhost/3/device/abcd", headers: [("apns-id", id), ("apns-topic", "dev.pushbox.sample")], body: body,
                timeoutMs: 5000
            ).get()
            return (r.status, id)
        }
        var acknowledged: [String] = []
        var statuses: [Int] = []
        for i in 0..<2000 {
            let (status, id) = try post(i)
            statuses.append(status)
            if status == 200 { acknowledged.append(id) } else { break }
        }
        #expect(statuses.last == 500, "the tmpfs never filled: \(statuses.count) answers")
        #expect(Set(statuses).isSubset(of: [200, 500]))
        // More requests while full: still 500, never a 200 that is not stored.
        for i in 0..<5 {
            let (status, _) = try post(10_000 + i)
            #expect(status == 500)
        }
        try FileManager.default.removeItem(atPath: data + "/ballast")
        // Space is back: serve takes pushes again without a restart.
        var after = 0
        for i in 0..<20 where after == 0 {
            let (status, id) = try post(20_000 + i)
            if status == 200 {
                after += 1
                acknowledged.append(id)
            } else {
                usleep(100_000)
            }
        }
        #expect(after == 1, "serve did not recover once space returned")
        s.stop()
        let list = CLIRun(["list", "--db", data + "/inbox.sqlite", "--json", "--history", "--no-extension"])
        let listed = Set(try list.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue?["apnsId"]?.stringValue) })
        #expect(acknowledged.allSatisfy(listed.contains), "acknowledged notifications are missing")
    }

    @Test("send prints APNs' answer per file; list, replay and export work on what was sent")
    func commands() throws {
        let s = try Served()
        try s.start()
        let samples = ["01-game-invite.json", "08-score-update-1.json", "09-score-update-2.json", "invalid/BadPriority.json"].map {
            ProjectPaths.samples + "/" + $0
        }
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

    @Test("serve with a clock and the alarm: pending, cancel by prefix, schedule more, advance, list the local notifications")
    func localNotifications() throws {
        let s = try Served()
        let alarm = ProjectPaths.samples + "/schedules/alarm.json"
        try s.start(["--clock", "2026-12-07T06:09:50", "--tz", "UTC", "--speed", "0", "--schedule", alarm, "--lang", "ko-KR"])
        let pending = CLIRun(["pending", "--socket", s.socket, "--json"])
        #expect(pending.status == 0, "\(pending.err)")
        let items = try pending.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        #expect(items.map { $0["identifier"]?.stringValue } == (0..<12).map { "alarm-2-\($0 * 5)" })
        #expect(items.first?["nextFire"] == "2026-12-07T06:10:00Z")
        #expect(items.first?.value(atPath: "content.userInfo.deepLink") == "pushboxsample://alarm/2/0610")
        let text = CLIRun(["pending", "--socket", s.socket])
        // Identifiers are padded to the longest (alarm-2-55), so the triggers line up.
        #expect(text.lines.first == "2026-12-07T06:10:00Z  alarm-2-0   every Monday 06:10:00")
        #expect(text.err.contains("12/64 pending; device clock 2026-12-07T06:09:50Z"))

        let cancel = CLIRun(["cancel", "--socket", s.socket, "alarm-2-5*"])
        #expect(cancel.status == 0)
        #expect(cancel.out == "cancelled 3: alarm-2-5, alarm-2-50, alarm-2-55\n")
        #expect(CLIRun(["cancel", "--socket", s.socket, "alarm-2-5*"]).status == 1)  // nothing left to match

        // Scheduling again replaces by identifier; a refused request makes the status 1.
        let again = CLIRun(["schedule", "--socket", s.socket, alarm])
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out == "scheduled 12; 12/64 pending\n")
        let refused = CLIRun(
            ["schedule", "--socket", s.socket, "-"],
            stdin: #"{"requests":[{"identifier":"fast","content":{"body":"x"},"trigger":{"timeInterval":5,"repeats":true}}]}"#)
        #expect(refused.status == 1)
        #expect(refused.err.contains("not scheduled: fast: time interval must be at least 60 if repeating"))

        // A minute on the device clock: eleven alarms arrive, localized for the serving device.
        let client = try #require(UnixHTTPClient(socketPath: s.socket))
        _ = client.request("POST", url: "http://localhost/pushbox/clock", headers: [], body: Array(#"{"advance":60}"#.utf8))
        let list = CLIRun(["list", "--db", s.db, "--json", "--lang", "ko-KR", "--no-extension"])
        let listed = try list.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        #expect(listed.count == 11)
        #expect(listed.allSatisfy { $0["source"] == "local" && $0["title"] == "일어날 시간이에요" })
        // They are not pushes: export and replay leave them out and say so.
        let export = CLIRun(["export", "--db", s.db, s.dir + "/export"])
        #expect(export.err.contains("skipping 11 local notification(s)"))
        #expect(export.out.contains("wrote 0"))
        let replay = CLIRun(["replay", "--db", s.db, "--speed", "0", "--socket", s.socket])
        #expect(replay.err.contains("skipping 11 local notification(s)"))
        // cancel lists what it removed in the identifiers' order (numbers as numbers), whatever
        // order they fire in: alarm-2-55 fires today, the others next Monday.
        let all = CLIRun(["cancel", "--socket", s.socket, "alarm-2-*"])
        #expect(all.out == "cancelled 12: " + (0..<12).map { "alarm-2-\($0 * 5)" }.joined(separator: ", ") + "\n", "\(all.out)")
        s.stop()
    }

    @Test("schedule, pending and cancel without a running pushbox say what to do")
    func localCommandsWithoutServer() {
        let socket = "/tmp/pbe-none-\(getpid()).sock"
        let run = CLIRun(["schedule", "--socket", socket, ProjectPaths.samples + "/schedules/alarm.json"])
        #expect(run.status == 1)
        #expect(run.err.contains("cannot reach pushbox on \(socket)"))
        #expect(CLIRun(["pending", "--socket", socket]).status == 1)
        #expect(CLIRun(["cancel", "--socket", socket, "x"]).status == 1)
        #expect(CLIRun(["schedule", "--socket", socket, "--json", ProjectPaths.samples + "/schedules/alarm.json"]).status == 2)
    }
}
