import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// `pushbox serve` on its TCP port, reached by the APNs libraries people use (aioapns and
/// PyAPNs2 from PyPI, in the venvs `make pyclients` prepares) and by Python's h2 in a burst
/// that ends with kill -9.
@Suite("APNs provider libraries deliver to pushbox serve", .serialized)
struct ProviderLibraryTests {
    static let keyID = "ABCDE12345", teamID = "TEAM123456"
    static let clients = ProjectPaths.projectRoot + "/Tests/Clients"

    /// `serve` on an ephemeral port with a provider key of its own; the port read from its banner.
    final class PortServed {
        let dir = "/tmp/pbl-\(UUID().uuidString.prefix(8))"
        var db: String { dir + "/inbox.sqlite" }
        var key: String { dir + "/AuthKey_\(ProviderLibraryTests.keyID).p8" }
        var ca: String { dir + "/data/pushbox/tls/ca.pem" }
        var port = 0
        var process: Subprocess.Child?
        /// More arguments for serve (a folder to watch).
        var extraArguments: [String] = []
        /// Whether the app's service extension runs (downloads attachments); off by default.
        var runsExtension = false

        init() throws {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let made = CLIRun(["provider-key", key])
            try #require(made.status == 0, "\(made.err)")
        }

        /// Starts serve on `port` (0: an ephemeral one, read from its banner).
        func start(port: Int = 0) throws {
            var env = ProcessInfo.processInfo.environment
            env["XDG_CACHE_HOME"] = dir + "/cache"
            env["XDG_DATA_HOME"] = dir + "/data"
            let log = dir + "/serve.err"
            let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            defer { close(fd) }
            process = try Subprocess.Child(
                try #require(EndToEndTests.binary),
                [
                    "serve", "--socket", dir + "/s.sock", "--db", db, "--quiet", "--listen", "127.0.0.1:\(port)",
                    "--provider-key", key, "--team-id", ProviderLibraryTests.teamID,
                ] + (runsExtension ? [] : ["--no-extension"]) + extraArguments, environment: env, stderr: fd)
            for _ in 0..<400 {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: #"127\.0\.0\.1:(\d+) \("#, options: .regularExpression) {
                    self.port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast(2)) ?? 0
                    return
                }
                usleep(25_000)
            }
            Issue.record("serve did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }

        /// A service account of project demo-proj made for this serve, and the environment an
        /// unchanged Firebase client needs to reach it: the data folder, HTTPS_PROXY, the CA.
        func firebaseClient(project: String = "demo-proj") throws -> (account: String, environment: [String: String]) {
            var env = ProcessInfo.processInfo.environment
            env["XDG_DATA_HOME"] = dir + "/data"
            // A file of its own each time: fcm-credentials never replaces one.
            let account = dir + "/service-account-\(UUID().uuidString.prefix(8)).json"
            let made = CLIRun(["fcm-credentials", account, "--project", project, "--listen", "127.0.0.1:\(port)"], environment: env)
            try #require(made.status == 0, "\(made.err)")
            env["HTTPS_PROXY"] = "http://127.0.0.1:\(port)"
            env["REQUESTS_CA_BUNDLE"] = ca
            env["SSL_CERT_FILE"] = ca
            return (account, env)
        }

        func list() throws -> [JSONObject] {
            let run = CLIRun(["list", "--db", db, "--json", "--history", "--no-extension"])
            return try run.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        }

        deinit {
            process?.terminate()
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    /// The venv's python for `name` (made by `make pyclients`).
    static func venvPython(_ name: String) -> String { ProjectPaths.projectRoot + "/.build/pyclients/\(name)/bin/python" }

    /// Whether `make pyclients` made the venv `name` (it needs PyPI; CI fails when it cannot).
    static func venvReady(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: ProjectPaths.projectRoot + "/.build/pyclients/\(name)/.ready")
    }

    @Test(
        "aioapns, with only host, port and CA changed: 200 for each, rendered in list --json with how they arrived",
        .enabled(if: venvReady("aioapns"), "needs the aioapns venv that make pyclients installs from PyPI"))
    func aioapns() throws { try library(venv: "aioapns", script: "aioapns_send.py", title: "aioapns") }

    @Test(
        "firebase-admin sends one message with notification, apns and android blocks: both phones are in the inbox, each from its own strings",
        .enabled(if: venvReady("firebase"), "needs the firebase venv that make pyclients installs from PyPI"))
    func firebaseBothPhones() throws {
        let s = try PortServed()
        try s.start()
        let (account, env) = try s.firebaseClient()
        let r = try Subprocess.run(Self.venvPython("firebase"), [Self.clients + "/firebase_both.py", account], environment: env, timeout: 120)
        #expect(r.status == 0 && r.out.hasPrefix("send projects/demo-proj/messages/"), "\(r.out) \(r.err)")
        let n = try #require(try s.list().first)
        #expect(n["title"] == "Game invite")
        #expect(n["body"] == "Shelly and Rick have invited you to play Monopoly")
        let android = try #require(n["android"]?.objectValue)
        // A literal title beats title_loc_key on Android; the body comes from strings.xml.
        #expect(android["title"] == "Game invite")
        #expect(android["body"] == "Shelly and Rick invited you to play Monopoly")
        #expect(android["language"] == "values")
        #expect(android["channel"]?.objectValue?["id"] == "invites")
        #expect(android["diagnostics"]?.arrayValue?.contains { $0.objectValue?["code"] == "platform-divergence" } == true)
    }

    @Test(
        "PyAPNs2, with only host, port and CA changed: 200 for each, rendered in list --json with how they arrived",
        .enabled(if: venvReady("apns2"), "needs the apns2 venv that make pyclients installs from PyPI"))
    func pyapns2() throws { try library(venv: "apns2", script: "pyapns2_send.py", title: "PyAPNs2") }

    /// Three pushes from one library's script: each answered 200 and listed, rendered, with how it arrived.
    func library(venv: String, script: String, title: String) throws {
        let s = try PortServed()
        try s.start()
        let run = try Subprocess.run(Self.venvPython(venv), [Self.clients + "/" + script, String(s.port), s.ca, s.key, Self.keyID, Self.teamID, "3"])
        #expect(run.status == 0, "\(title): \(run.err)")
        #expect(run.out.split(separator: "\n").filter { $0.hasPrefix("200 ") }.count == 3, "\(title): \(run.out)")
        let all = try s.list()
        #expect(all.count == 3)
        let items = all.filter { $0["title"]?.stringValue == title }
        #expect(items.count == 3)
        let arrival = try #require(items.first?["arrival"]?.objectValue)
        #expect(arrival["protocol"]?.stringValue == "h2")
        #expect(arrival.value(atPath: "authentication.signatureVerified") == .bool(true))
        #expect(items.allSatisfy { $0["delivered"]?.stringValue == "original" && $0["body"]?.stringValue?.hasPrefix("message ") == true })
    }

    @Test(
        "firebase-admin, unchanged, through HTTPS_PROXY: send, dry_run, InvalidArgumentError with pushbox's message, send_each, a token of the wrong form, another project's URL",
        .enabled(if: venvReady("firebase"), "needs the firebase venv that make pyclients installs from PyPI"))
    func firebaseAdmin() throws {
        let python = Self.venvPython("firebase")
        let s = try PortServed()
        try s.start()
        // The service account is made while serve runs: serve reads its key when it first sees it.
        let (account, env) = try s.firebaseClient()
        let run = try Subprocess.run(python, [Self.clients + "/firebase_send.py", account], environment: env)
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(run.out) \(run.err.suffix(800))")
        let listed = try s.list()
        let sent = try #require(listed.first { $0["title"]?.stringValue == "firebase-admin" })
        #expect(lines.first == "send projects/demo-proj/messages/\(sent["apnsId"]?.stringValue ?? "?")")
        #expect(lines.dropFirst().first == "dry projects/demo-proj/messages/fake_message_id")
        #expect(lines.dropFirst(2).first?.hasPrefix("invalid InvalidArgumentError message.condition column") == true)
        #expect(lines.dropFirst(3).first == "batch 4 0")
        #expect(lines.dropFirst(4).first == "token InvalidArgumentError The registration token is not a valid FCM registration token")
        // Google's 403 for a token of another project: the SDK's own exception.
        #expect(lines.last == "project PermissionDeniedError")
        // The dry run stored nothing; the refused ones are stored with their reasons (the other
        // project's request never reached the intake); the batch is rendered.
        #expect(listed.filter { $0["source"]?.stringValue == "fcm" }.count == 7)
        // What is stored is what was answered: both refusals are 400 INVALID_ARGUMENT.
        let refused = listed.filter { $0["source"]?.stringValue == "fcm" && $0["delivered"]?.stringValue == "rejected" }
        #expect(refused.map { $0["status"]?.intValue } == [400, 400], "\(refused)")
        #expect(listed.filter { $0["title"]?.stringValue == "batch" && $0["delivered"]?.stringValue == "original" }.count == 4)
        #expect(sent.value(atPath: "arrival.authentication.signatureVerified") == .bool(true))
        #expect(sent.value(atPath: "arrival.fcmProject")?.stringValue == "demo-proj")
    }

    @Test("kill -9 mid-burst over HTTP/2: every acknowledged apns-id is listed after the restart")
    func crashOverHTTP2() throws {
        let s = try PortServed()
        try s.start()
        let token = try makeToken(s)
        let out = s.dir + "/acks.txt"
        let client = try Self.client(
            "/usr/bin/python3", [Self.clients + "/h2_send.py", String(s.port), "--cafile", s.ca, "--count", "20000", "--token", token], output: out)
        func acked() -> [String] { Self.acknowledged(in: out) }
        let deadline = Date().addingTimeInterval(30)
        while acked().count < 500 && Date() < deadline { usleep(10_000) }
        _ = s.process?.kill()
        s.process = nil
        _ = client.wait(timeout: 20)
        let acknowledged = acked()
        #expect(acknowledged.count >= 500, "only \(acknowledged.count) acknowledged before the kill")
        try s.start()
        let listed = Set(try s.list().compactMap { $0["apnsId"]?.stringValue })
        let lost = acknowledged.filter { !listed.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged over HTTP/2 were lost")
    }

    @Test(
        "a device token belongs to one APNs environment: curl to the other environment's host gets 400 BadDeviceToken naming both, to its own 200",
        arguments: [
            ("development", "api.sandbox.push.apple.com", "api.push.apple.com"),
            ("production", "api.push.apple.com", "api.development.push.apple.com"),
        ])
    func environments(device: String, own: String, other: String) throws {
        let s = try PortServed()
        s.extraArguments = ["--apns-environment", device]
        try s.start()
        let token = try makeToken(s)
        func push(_ host: String) throws -> (body: String, status: String) {
            let r = try Subprocess.run(
                "/usr/bin/curl",
                [
                    "-s", "--http2", "--cacert", s.ca, "--connect-to", "\(host):443:127.0.0.1:\(s.port)", "-H", "authorization: bearer \(token)",
                    "-H", "apns-topic: dev.pushbox.sample", "-d", #"{"aps":{"alert":"x"}}"#, "-w", "\n%{http_code}",
                    "https://\(host)/3/device/" + String(repeating: "ab", count: 32),
                ])
            let parts = r.out.split(separator: "\n", omittingEmptySubsequences: false)
            return (parts.dropLast().joined(separator: "\n"), String(parts.last ?? ""))
        }
        #expect(try push(own).status == "200")
        let refused = try push(other)
        #expect(refused.status == "400" && refused.body.contains("BadDeviceToken"), "\(refused)")
        let listed = try s.list().first { $0["reason"] == "BadDeviceToken" }
        let detail = listed?["detail"]?.stringValue ?? ""
        #expect(detail.contains("\(device) environment") && detail.contains(other), "\(String(describing: listed))")
        // pushbox device, with no flag, shows what the running pushbox judges by (kept beside the inbox).
        let shown = CLIRun(["device", "--db", s.db, "--json"])
        #expect(try JSONParser.parse(Array(shown.out.utf8)).objectValue?["apnsEnvironment"]?.stringValue == device, "\(shown.out)")
    }

    @Test(
        "a registration token belongs to one Firebase project: another project's firebase-admin gets SenderIdMismatchError, in both token modes",
        .enabled(if: venvReady("firebase"), "needs the firebase venv that make pyclients installs from PyPI"), arguments: ["any", "strict"])
    func senderMismatch(mode: String) throws {
        let s = try PortServed()
        s.extraArguments = ["--fcm-tokens", mode]
        try s.start()
        let (own, ownEnv) = try s.firebaseClient(project: "demo-proj")
        let (other, otherEnv) = try s.firebaseClient(project: "other-proj")
        func send(_ account: String, _ env: [String: String]) throws -> String {
            let r = try Subprocess.run(
                Self.venvPython("firebase"), [Self.clients + "/firebase_unregistered.py", account, DeviceCommand.fcmToken], environment: env)
            return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // The first project that sends is the device's; another's message to its token is refused.
        #expect(try send(own, ownEnv).hasPrefix("sent projects/demo-proj/messages/"))
        let foreign = try send(other, otherEnv)
        #expect(foreign == "error SenderIdMismatchError", "\(foreign)")
        #expect(try send(own, ownEnv).hasPrefix("sent projects/demo-proj/messages/"))
        let device = CLIRun(["device", "--db", s.db, "--json"])
        #expect(try JSONParser.parse(Array(device.out.utf8)).objectValue?["fcmProject"] == "demo-proj", "\(device.out)")
        let listed = try s.list()
        #expect(listed.filter { $0["reason"] == "SENDER_ID_MISMATCH" && $0["status"] == 403 }.count == 1, "\(listed)")
    }

    /// A provider token signed with the served key by Python's cryptography (Debian's python3-cryptography).
    @Test(
        "an uninstalled app: aioapns gets 410 Unregistered with its timestamp, PyAPNs2 raises Unregistered, firebase-admin UnregisteredError; installed again, 200",
        .enabled(
            if: venvReady("aioapns") && venvReady("apns2") && venvReady("firebase"),
            "needs the aioapns, apns2 and firebase venvs that make pyclients installs from PyPI"))
    func uninstalled() throws {
        let s = try PortServed()
        try s.start()
        let (account, fcmEnv) = try s.firebaseClient()
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        try #require(CLIRun(["device", "uninstall", "--db", s.db]).status == 0)
        let apns = try Subprocess.run(
            Self.venvPython("aioapns"), [Self.clients + "/aioapns_send.py", String(s.port), s.ca, s.key, Self.keyID, Self.teamID, "2"])
        let answers = apns.out.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(answers.count == 2 && answers.allSatisfy { $0.first == "410" && $0.last == "Unregistered" }, "\(apns.out) \(apns.err)")
        // PyAPNs2 raises its own exception for it.
        let pyapns2 = try Subprocess.run(
            Self.venvPython("apns2"), [Self.clients + "/pyapns2_send.py", String(s.port), s.ca, s.key, Self.keyID, Self.teamID, "1"])
        #expect(pyapns2.status != 0 && pyapns2.err.contains("apns2.errors.Unregistered"), "\(pyapns2.err.suffix(400))")
        // The body says since when, in milliseconds, as APNs' does.
        let curl = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-s", "--http2", "--cacert", s.ca, "-H", "authorization: bearer \(try makeToken(s))", "-H", "apns-topic: dev.pushbox.sample",
                "-d", #"{"aps":{"alert":"x"}}"#, "https://localhost:\(s.port)/3/device/" + String(repeating: "ab", count: 32),
            ])
        let body = try #require(try JSONParser.parse(Array(curl.out.utf8)).objectValue, "\(curl.out)")
        #expect(body["reason"] == "Unregistered")
        #expect((body["timestamp"]?.intValue).map { Int64($0) >= before - 1000 && Int64($0) <= before + 60_000 } == true, "\(body)")
        let fcm = try Subprocess.run(
            Self.venvPython("firebase"), [Self.clients + "/firebase_unregistered.py", account, DeviceCommand.fcmToken], environment: fcmEnv)
        #expect(fcm.out.trimmingCharacters(in: .whitespacesAndNewlines) == "error UnregisteredError", "\(fcm.out) \(fcm.err.suffix(600))")
        // Stored as answered, shown as discarded.
        let listed = try s.list()
        #expect(listed.count == 5)
        #expect(listed.allSatisfy { $0["delivered"] == "rejected" }, "\(listed)")
        #expect(listed.filter { $0["reason"] == "Unregistered" && $0["status"] == 410 }.count == 4)
        #expect(listed.filter { $0["reason"] == "UNREGISTERED" && $0["status"] == 404 }.count == 1)
        // APNs' came over TLS (the port), FCM's over FCM's API: the listing says so, not "socket".
        #expect(listed.filter { $0["source"] == "tls" }.count == 4 && listed.filter { $0["source"] == "fcm" }.count == 1, "\(listed)")
        try #require(CLIRun(["device", "install", "--db", s.db]).status == 0)
        let again = try Subprocess.run(
            Self.venvPython("aioapns"), [Self.clients + "/aioapns_send.py", String(s.port), s.ca, s.key, Self.keyID, Self.teamID, "1"])
        #expect(again.out.hasPrefix("200 "), "\(again.out)")
        let fcmAgain = try Subprocess.run(
            Self.venvPython("firebase"), [Self.clients + "/firebase_unregistered.py", account, DeviceCommand.fcmToken], environment: fcmEnv)
        #expect(fcmAgain.out.hasPrefix("sent projects/demo-proj/messages/"), "\(fcmAgain.out) \(fcmAgain.err.suffix(600))")
    }

    @Test(
        "firebase-admin's dry runs (send and send_each with dry_run=True) raise what the real sends raise, under strict FCM tokens and with the app uninstalled",
        .enabled(if: venvReady("firebase"), "needs the firebase venv that make pyclients installs from PyPI"))
    func fcmDryRunsAnswerAsSends() throws {
        let s = try PortServed()
        s.extraArguments = ["--fcm-tokens", "strict"]
        try s.start()
        let (account, env) = try s.firebaseClient()
        func run() throws -> [String: [String]] {
            let r = try Subprocess.run(
                Self.venvPython("firebase"), [Self.clients + "/firebase_dry_run.py", account, DeviceCommand.fcmToken], environment: env)
            var steps: [String: [String]] = [:]
            for line in r.out.split(separator: "\n") {
                let parts = line.split(separator: " ").map(String.init)
                if parts.count == 5 { steps[parts[0]] = Array(parts.dropFirst()) }
            }
            #expect(steps.count == 5, "\(r.out) \(r.err.suffix(800))")
            return steps
        }
        let expected = [
            "device-token": "sent", "foreign-token": "UnregisteredError", "malformed-token": "InvalidArgumentError",
            "malformed-fid": "UnregisteredError", "topic": "sent",
        ]
        for (target, steps) in try run() {
            #expect(steps == Array(repeating: expected[target] ?? "?", count: 4), "\(target): dry, real, each dry, each real")
        }
        try #require(CLIRun(["device", "uninstall", "--db", s.db]).status == 0)
        for (target, steps) in try run() where target != "malformed-token" {
            let answer = target == "topic" ? "sent" : "UnregisteredError"
            #expect(steps == Array(repeating: answer, count: 4), "\(target) after uninstall: dry, real, each dry, each real")
        }
    }

    @Test(
        "firebase-admin with strict FCM tokens: malformed and stale tokens and fids get the SDK's own errors, send_each and multicast the per-message mix, subscribe_to_topic changes the device's topics",
        .enabled(if: venvReady("firebase"), "needs the firebase venv that make pyclients installs from PyPI"))
    func fcmTokensAndTopics() throws {
        let s = try PortServed()
        s.extraArguments = ["--fcm-tokens", "strict"]
        try s.start()
        let (account, env) = try s.firebaseClient()
        let run = try Subprocess.run(
            Self.venvPython("firebase"),
            [Self.clients + "/firebase_tokens.py", account, DeviceCommand.fcmToken, DeviceCommand.installationID], environment: env)
        var steps: [String: String] = [:]
        for line in run.out.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map { String($0) }
            if parts.count == 2 { steps[parts[0]] = parts[1] }
        }
        #expect(steps.count == 14, "\(run.out) \(run.err.suffix(800))")
        #expect(steps["malformed-token"] == "error InvalidArgumentError")
        #expect(steps["stale-token"] == "error UnregisteredError")
        #expect(steps["malformed-fid"] == "error UnregisteredError")
        #expect(steps["device-fid"]?.hasPrefix("sent projects/demo-proj/messages/") == true)
        #expect(steps["device-token"]?.hasPrefix("sent ") == true)
        #expect(steps["send-each"] == "2 1")
        #expect(steps["multicast"] == "0 2 UnregisteredError UnregisteredError")
        #expect(steps["subscribe"] == "1 2 1:INVALID_ARGUMENT 2:UNREGISTERED")
        #expect(steps["unsubscribe"] == "1 0 ")
        #expect(steps["legacy-subscribe"] == "1 1 1:NOT_FOUND")
        // The condition on the language topic reached the device only while it was subscribed.
        let listed = try s.list()
        func delivered(_ title: String) -> String? {
            listed.first { $0["intended"]?.objectValue?["title"]?.stringValue == title || $0["title"]?.stringValue == title }?["delivered"]?
                .stringValue
        }
        #expect(delivered("ko-before") == "rejected")
        #expect(delivered("ko-subscribed") == "original")
        #expect(delivered("ko-unsubscribed") == "rejected")
        #expect(delivered("legacy-subscribed") == "original")
        #expect(listed.first { $0["title"] == "device-fid" }?["addressedTo"]?.stringValue?.hasSuffix("(this device's own)") == true)
        // pushbox device shows what the API did.
        let device = CLIRun(["device", "--db", s.db, "--json"])
        let topics = try #require(try JSONParser.parse(Array(device.out.utf8)).objectValue?["topics"]?.arrayValue)
        #expect(topics.compactMap { $0.objectValue?["topic"]?.stringValue }.sorted() == ["LangEnUS", "Legacy", "NewsApp"], "\(device.out)")
        #expect(topics.first { $0.objectValue?["topic"] == "Legacy" }?.objectValue?["by"] == "api")
        // An unknown path on Google's host is answered in Google's shape, on Apple's in APNs'.
        let google = try Subprocess.run(
            "/usr/bin/curl", ["-s", "-x", "http://127.0.0.1:\(s.port)", "--cacert", s.ca, "https://fcm.googleapis.com/v1/projects/demo-proj/nothing"])
        #expect(try JSONParser.parse(Array(google.out.utf8)).objectValue?.value(atPath: "error.status") == .string("NOT_FOUND"), "\(google.out)")
        let apple = try Subprocess.run(
            "/usr/bin/curl", ["-s", "--http2", "-x", "http://127.0.0.1:\(s.port)", "--cacert", s.ca, "https://api.push.apple.com/nothing"])
        #expect(try JSONParser.parse(Array(apple.out.utf8)).objectValue?["reason"] == "BadPath", "\(apple.out)")
    }

    @Test(
        "an offline device: aioapns and firebase-admin get 200s; APNs keeps the latest per app, FCM by ttl and collapse key; back online, delivered from storage or discarded",
        .enabled(if: venvReady("aioapns") && venvReady("firebase"), "needs the aioapns and firebase venvs that make pyclients installs from PyPI"))
    func offline() throws {
        let s = try PortServed()
        try s.start()
        let (account, fcmEnv) = try s.firebaseClient()
        try #require(CLIRun(["device", "offline", "--db", s.db]).status == 0)
        let apns = try Subprocess.run(
            Self.venvPython("aioapns"), [Self.clients + "/aioapns_send.py", String(s.port), s.ca, s.key, Self.keyID, Self.teamID, "2"])
        #expect(
            apns.out.split(separator: "\n").count == 2 && apns.out.split(separator: "\n").allSatisfy { $0.hasPrefix("200 ") },
            "\(apns.out) \(apns.err)")
        // apns-expiration 0 while offline: answered 200, never stored, and the stored one stays.
        let once = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert", s.ca, "-H", "authorization: bearer \(try makeToken(s))",
                "-H", "apns-topic: dev.pushbox.sample", "-H", "apns-expiration: 0", "-d", #"{"aps":{"alert":"once"}}"#,
                "https://localhost:\(s.port)/3/device/" + String(repeating: "ab", count: 32),
            ])
        #expect(once.out == "200")
        let fcm = try Subprocess.run(
            Self.venvPython("firebase"), [Self.clients + "/firebase_offline.py", account, DeviceCommand.fcmToken], environment: fcmEnv)
        #expect(
            fcm.out.split(separator: "\n").count == 5
                && fcm.out.split(separator: "\n").allSatisfy { $0.contains(" sent projects/demo-proj/messages/") },
            "\(fcm.out) \(fcm.err.suffix(600))")
        func states() throws -> [String] { try s.list().map { $0["delivery"]?.stringValue ?? "?" } }
        // Oldest first: aioapns 1 and 2, curl's, then firebase-admin's five.
        #expect(
            try states() == [
                "discarded — replaced", "stored — device offline", "discarded — expired", "discarded — expired", "discarded — replaced",
                "stored — device offline", "stored — device offline", "stored — device offline",
            ])
        let stored = try s.list()[1]
        #expect(stored["delivered"] == "stored" && stored["title"] == .null && stored["intended"]?.objectValue?["title"] == "aioapns", "\(stored)")
        usleep(1_200_000)  // the one-second message expires in storage
        let online = CLIRun(["device", "online", "--db", s.db])
        #expect(
            online.status == 0 && online.out.contains("delivered from storage  3") && online.out.contains("discarded — expired     1"),
            "\(online.out)")
        let after = try s.list()
        #expect(
            after.map { $0["delivery"]?.stringValue ?? "?" } == [
                "discarded — replaced", "delivered from storage", "discarded — expired", "discarded — expired", "discarded — replaced",
                "delivered from storage", "delivered from storage", "discarded — expired",
            ])
        #expect(after[1]["title"] == "aioapns" && after[1]["delivered"] != "stored")
        #expect(
            after[1]["deliveryLog"]?.arrayValue?.compactMap { $0.objectValue?["event"]?.stringValue } == [
                "received", "stored — device offline", "delivered from storage",
            ])
        // Online again, a push is delivered when it arrives.
        let again = try Subprocess.run(
            Self.venvPython("aioapns"), [Self.clients + "/aioapns_send.py", String(s.port), s.ca, s.key, Self.keyID, Self.teamID, "1"])
        #expect(again.out.hasPrefix("200 "))
        #expect(try s.list().last?["delivery"] == "delivered")
    }

    @Test(
        "serve under mixed load (HTTP/2 over TLS, the socket, a watched folder, FCM through the tunnel) killed with SIGKILL 20 times: every acknowledged id stored once, the database intact",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs sqlite3 for PRAGMA integrity_check"))
    func killedTwentyTimes() throws {
        let s = try PortServed()
        let folder = s.dir + "/drop"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        s.extraArguments = ["--watch", folder]
        var acknowledged: [String] = []
        var fcmAcknowledged = 0
        var random = SystemRandomNumberGenerator()
        for round in 0..<20 {
            try s.start()
            let token = try makeToken(s)
            let h2Out = s.dir + "/h2-\(round).txt"
            let socketOut = s.dir + "/socket-\(round).txt"
            let h2 = try Self.client(
                "/usr/bin/python3", [Self.clients + "/h2_send.py", String(s.port), "--cafile", s.ca, "--count", "5000", "--token", token],
                output: h2Out)
            let plain = try Self.client("/usr/bin/python3", [Self.clients + "/socket_send.py", s.dir + "/s.sock", "5000"], output: socketOut)
            // FCM through the tunnel, with firebase-admin where its venv was made, every fourth
            // round (it takes a second to start): the kill waits for its first answer.
            let fcmOut = s.dir + "/fcm-\(round).txt"
            var fcm: Subprocess.Child?
            if Self.venvReady("firebase"), round % 4 == 0 {
                let (account, env) = try s.firebaseClient()
                fcm = try Self.client(
                    Self.venvPython("firebase"), [Self.clients + "/firebase_load.py", account, "5000"], environment: env, output: fcmOut)
                let deadline = Date().addingTimeInterval(20)
                while ((try? String(contentsOfFile: fcmOut, encoding: .utf8)) ?? "").isEmpty, Date() < deadline { usleep(20_000) }
            }
            for i in 0..<5 {
                let name = folder + "/r\(round)-\(i).json"
                try Data(#"{"aps":{"alert":{"title":"file r\#(round)-\#(i)","body":"x"}}}"#.utf8).write(to: URL(fileURLWithPath: name + ".tmp"))
                rename(name + ".tmp", name)
            }
            usleep(UInt32.random(in: 150_000...700_000, using: &random))
            _ = s.process?.kill()
            s.process = nil
            _ = h2.wait(timeout: 20) ?? h2.kill()
            _ = plain.wait(timeout: 20) ?? plain.kill()
            if let fcm { _ = fcm.wait(timeout: 30) ?? fcm.kill() }
            for file in [h2Out, socketOut, fcmOut] {
                let ids = Self.acknowledged(in: file)
                acknowledged += ids
                if file == fcmOut { fcmAcknowledged += ids.count }
            }
        }
        try s.start()
        let listed = try s.list()
        let ids = listed.compactMap { $0["apnsId"]?.stringValue }
        let lost = Set(acknowledged).subtracting(ids)
        #expect(acknowledged.count > 1000, "only \(acknowledged.count) acknowledged in 20 rounds")
        if Self.venvReady("firebase") { #expect(fcmAcknowledged > 0, "no FCM message got through the tunnel") }
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged ids were lost")
        #expect(Set(ids).count == ids.count, "\(ids.count - Set(ids).count) stored twice")
        let titles = listed.compactMap { $0["title"]?.stringValue }.filter { $0.hasPrefix("file ") }
        #expect(Set(titles).count == titles.count, "a file was stored twice")
        s.process?.terminate()
        s.process = nil
        let check = try Subprocess.run("/usr/bin/sqlite3", [s.db, "PRAGMA integrity_check;"])
        #expect(check.out.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(check.out) \(check.err)")
    }

    @Test(
        "pyfcm, unchanged, through HTTPS_PROXY: a send, InvalidDataError for a token of the wrong form, FCMSenderIdMismatchError for another project, FCMNotRegisteredError once the app is uninstalled",
        .enabled(if: venvReady("pyfcm"), "needs the pyfcm venv that make pyclients installs from PyPI"))
    func pyfcm() throws {
        let s = try PortServed()
        try s.start()
        let (account, env) = try s.firebaseClient()
        func run() throws -> [String] {
            let r = try Subprocess.run(
                Self.venvPython("pyfcm"), [Self.clients + "/pyfcm_send.py", account, "demo-proj", DeviceCommand.fcmToken], environment: env)
            return r.out.split(separator: "\n").map(String.init) + (r.status == 0 ? [] : ["exit \(r.status): \(r.err.suffix(600))"])
        }
        let first = try run()
        #expect(first.count == 3, "\(first)")
        #expect(first.first?.hasPrefix("send projects/demo-proj/messages/") == true, "\(first)")
        #expect(Array(first.dropFirst()) == ["invalid InvalidDataError", "project FCMSenderIdMismatchError"])
        try #require(CLIRun(["device", "uninstall", "--db", s.db]).status == 0)
        #expect(try run().first == "send FCMNotRegisteredError")
    }

    @Test(
        "pyapns_client, with only its documented CA and HTTPS_PROXY: 200 for each, listed; once the app is uninstalled its UnregisteredException with the timestamp",
        .enabled(if: venvReady("pyapns_client"), "needs the pyapns_client venv that make pyclients installs from PyPI"))
    func pyapnsClient() throws {
        let s = try PortServed()
        try s.start()
        var env = ProcessInfo.processInfo.environment
        // Its host is api.development.push.apple.com: the proxy stands in for it, nothing else changes.
        env["HTTPS_PROXY"] = "http://127.0.0.1:\(s.port)"
        func run(_ count: Int) throws -> [String] {
            let r = try Subprocess.run(
                Self.venvPython("pyapns_client"), [Self.clients + "/pyapns_client_send.py", s.ca, s.key, Self.keyID, Self.teamID, String(count)],
                environment: env)
            return r.out.split(separator: "\n").map(String.init) + (r.status == 0 ? [] : ["exit \(r.status): \(r.err.suffix(600))"])
        }
        #expect(try run(2) == ["200 sent", "200 sent"])
        let listed = try s.list()
        #expect(listed.filter { $0["title"] == "pyapns_client" && $0["delivered"] == "original" }.count == 2)
        #expect(listed.first?.value(atPath: "arrival.listener")?.stringValue?.hasSuffix("via CONNECT api.development.push.apple.com:443") == true)
        try #require(CLIRun(["device", "uninstall", "--db", s.db]).status == 0)
        let refused = try run(1)
        #expect(refused.first?.hasPrefix("error UnregisteredException ") == true && refused.first?.hasSuffix(" -") == false, "\(refused)")
    }

    /// A client started with its standard output written to `output`.
    static func client(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, output: String) throws
        -> Subprocess.Child
    {
        let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        return try Subprocess.Child(executable, arguments, environment: environment, stdout: fd)
    }

    /// The ids a client's output acknowledged: its `200 ID …` lines, whole lines only (the
    /// client may be half-way through writing the last one).
    static func acknowledged(in file: String) -> [String] {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n")
        if !text.hasSuffix("\n"), !lines.isEmpty { lines.removeLast() }
        return lines.compactMap { line in
            let f = line.split(separator: " ")
            return f.count >= 2 && f[0] == "200" ? String(f[1]) : nil
        }
    }

    func makeToken(_ s: PortServed) throws -> String {
        let r = try Subprocess.run("/usr/bin/python3", [Self.clients + "/make_token.py", s.key, Self.keyID, Self.teamID])
        try #require(r.status == 0, "\(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
