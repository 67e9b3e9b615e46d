import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// `pushbox exec -- CMD` with the real binary and real clients, unchanged: curl, aioapns,
/// PyAPNs2, django-push-notifications, firebase-admin's and pyfcm's async senders, Node's http2
/// and Java's HttpClient, each reaching Apple's and Google's host names inside the namespace.
@Suite("pushbox exec: any backend, unchanged, in one command", .serialized)
struct ExecTests {
    /// A run's folders (XDG_* inside one folder, so the socket is its own), the app, and serve
    /// when a test wants a running pushbox to relay to.
    final class ExecFixture {
        let dir = "/tmp/pbx-\(UUID().uuidString.prefix(8))"
        var db: String { dir + "/data/pushbox/inbox.sqlite" }
        var socket: String { dir + "/run/pushbox/pushbox.sock" }
        var serve: Subprocess.Child?
        var environment: [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["XDG_RUNTIME_DIR"] = dir + "/run"
            env["XDG_DATA_HOME"] = dir + "/data"
            env["XDG_CACHE_HOME"] = dir + "/cache"
            env["XDG_CONFIG_HOME"] = dir + "/config"
            return env
        }

        init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }

        /// `pushbox serve` on the default socket of these folders (so with its port socket).
        func startServe() throws {
            serve = try Subprocess.Child(
                try #require(EndToEndTests.binary), ["serve", "--quiet", "--no-extension", "--listen", "127.0.0.1:0"], environment: environment)
            for _ in 0..<400 where !FileManager.default.fileExists(atPath: dir + "/run/pushbox/pushbox-port.sock") { usleep(25_000) }
            try #require(FileManager.default.fileExists(atPath: dir + "/run/pushbox/pushbox-port.sock"), "serve opened no port socket")
        }

        /// `pushbox exec ARGS`, to completion.
        func exec(_ args: [String], timeout: Double = 120) throws -> Subprocess.Result {
            try Subprocess.run(try #require(EndToEndTests.binary), ["exec"] + args, environment: environment, timeout: timeout)
        }

        /// The inbox, every notification, as list --json gives it.
        func list() throws -> [JSONObject] {
            let run = CLIRun(["list", "--db", db, "--json", "--history", "--no-extension"], environment: environment)
            try #require(run.status == 0, "\(run.err)")
            return try run.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        }

        /// An app folder registering no provider key (bundle id com.example.backend), and a
        /// provider token from a new key pushbox has never seen, as a team's real .p8 would be.
        func keylessAppAndToken(keyID: String, team: String) throws -> (app: String, token: String) {
            let app = dir + "/app"
            try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            try Data(#"{"name": "Backend", "bundleId": "com.example.backend"}"#.utf8).write(to: URL(fileURLWithPath: app + "/pushbox.json"))
            let key = dir + "/AuthKey_\(keyID).p8"
            try #require(CLIRun(["provider-key", key]).status == 0)
            return (app, try ExecTests.token(key, keyID: keyID, team: team))
        }

        /// The JSON summary `--json-summary` wrote.
        func summary(_ path: String) throws -> JSONObject {
            let bytes = try #require(FileManager.default.contents(atPath: path), "no summary at \(path)")
            return try #require(try JSONParser.parse(Array(bytes)).objectValue)
        }

        deinit {
            _ = serve?.terminate()
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    static let sampleKey = ProjectPaths.sampleApp + "/keys/AuthKey_SAMPLEKEY1.p8"
    static let deviceToken = String(repeating: "0", count: 64)
    static let clients = ProjectPaths.projectRoot + "/Tests/Clients"

    /// Whether exec can make its namespaces here (`pushbox exec --check`).
    /// Asked in folders of its own, removed after: the check writes its files and Java's
    /// truststore where the XDG variables say, never into /tmp or the user's cache.
    static let available: Bool = {
        guard let binary = EndToEndTests.binary, let f = try? ExecFixture(),
            let r = try? Subprocess.run(binary, ["exec", "--check"], environment: f.environment, timeout: 60)
        else { return false }
        return r.status == 0
    }()
    static let reason: Comment = "needs Linux namespaces (root, or unprivileged user namespaces): pushbox exec --check says why not"

    static func tool(_ name: String) -> String? { Tools.find(name) }

    /// A provider token for `key` from `pushbox provider-token`.
    static func token(_ key: String = sampleKey, keyID: String = "SAMPLEKEY1", team: String = "PUSHBOXDEV") throws -> String {
        let r = CLIRun(["provider-token", key, "--key-id", keyID, "--team-id", team])
        try #require(r.status == 0, "\(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "curl to api.sandbox.push.apple.com reaches pushbox with no setting; example.com fails at once; only loopback exists inside",
        .enabled(if: available, reason))
    func curlAndIsolation() throws {
        let f = try ExecFixture()
        let summaryFile = f.dir + "/summary.json"
        let push =
            "curl -sS -m 10 -o /dev/null -w '%{http_code} %{http_version}\\n' -H \"authorization: bearer $0\" -H 'apns-topic: dev.pushbox.sample' -H 'apns-push-type: alert' -d '{\"aps\":{\"alert\":{\"title\":\"curl under exec\",\"body\":\"sandbox host\"}}}' https://api.sandbox.push.apple.com/3/device/\(Self.deviceToken)"
        let script = [
            "start=$(date +%s%N); curl -sS -m 20 https://example.com >/dev/null 2>&1; echo \"example $? $(( ($(date +%s%N) - start) / 1000000 ))\"",
            push,
            "echo interfaces; tail -n +3 /proc/net/dev | cut -d: -f1; echo sockets; tail -q -n +2 /proc/net/tcp /proc/net/tcp6 | awk '{print $2, $3}'",
        ].joined(separator: "; ")
        let r = try f.exec(["--json-summary", summaryFile, "--", "/bin/sh", "-c", script, try Self.token()])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        // curl's 6: could not resolve the host, at once (no DNS server exists inside).
        let example = try #require(lines.first { $0.hasPrefix("example ") }).split(separator: " ")
        #expect(example[1] == "6")
        #expect((Int(example[2]) ?? 99_999) < 2000, "example.com took \(example[2]) ms to fail")
        #expect(lines.contains("200 2"), "\(lines)")
        let interfaces = lines.drop { $0 != "interfaces" }.dropFirst().prefix { $0 != "sockets" }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(interfaces == ["lo"])
        // Every TCP socket of the namespace (listeners, curl's, TIME_WAIT): loopback at both ends.
        let sockets = lines.drop { $0 != "sockets" }.dropFirst()
        #expect(!sockets.isEmpty)
        for s in sockets {
            for end in s.split(separator: " ") {
                let address = String(end.split(separator: ":")[0])
                #expect(
                    address.hasSuffix("7F") || address == "00000000000000000000000001000000" || address.allSatisfy { $0 == "0" },
                    "a socket off loopback: \(s)")
            }
        }
        let listed = try f.list()
        let n = try #require(listed.first { $0["title"]?.stringValue == "curl under exec" })
        #expect(n["arrival"]?.objectValue?["listener"]?.stringValue?.contains("pushbox-port.sock (pid ") == true)
        #expect(n["arrival"]?.objectValue?["protocol"]?.stringValue == "h2")
        let summary = try f.summary(summaryFile)
        #expect(summary["delivered"]?.intValue == 1)
        #expect(summary["pushes"]?.intValue == 1)
        #expect(summary["servedBy"]?.stringValue == "exec's own intake")
        #expect(summary["exitStatus"]?.intValue == 0)
    }

    @Test(
        "a real .p8 key pushbox has never seen: its token is accepted with the signature not checked; nothing secret is stored",
        .enabled(if: available, reason))
    func realProviderKey() throws {
        let f = try ExecFixture()
        let (app, token) = try f.keylessAppAndToken(keyID: "REALKEY123", team: "REALTEAM01")
        let r = try f.exec([
            "--app", app, "--", "curl", "-sS", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}", "-H", "authorization: bearer \(token)", "-H",
            "apns-topic: com.example.backend", "-d", #"{"aps":{"alert":"real key"}}"#,
            "https://api.sandbox.push.apple.com/3/device/\(Self.deviceToken)",
        ])
        #expect(r.status == 0 && r.out == "200", "\(r.out) \(r.err)")
        let n = try #require(try f.list().first)
        let auth = n["arrival"]?.objectValue?["authentication"]?.objectValue
        #expect(auth?["keyId"]?.stringValue == "REALKEY123")
        #expect(auth?["signatureVerified"] == .bool(false))
        let stored = try String(contentsOfFile: f.db, encoding: .isoLatin1)
        #expect(!stored.contains(String(token.split(separator: ".")[2])), "the token's signature was stored")
    }

    @Test(
        "the verdict: rejected and refused counted by reason; --fail-on exits 3 when the command succeeded; the command's own status wins",
        .enabled(if: available, reason))
    func verdict() throws {
        let f = try ExecFixture()
        let token = try Self.token()
        let curl = "curl -sS -m 10 -o /dev/null -H 'apns-topic: dev.pushbox.sample' -d '{\"aps\":{\"alert\":\"x\"}}'"
        let script =
            "\(curl) -H \"authorization: bearer $0\" https://api.sandbox.push.apple.com/3/device/not-a-token; \(curl) https://api.sandbox.push.apple.com/3/device/\(Self.deviceToken); \(curl) -H \"authorization: bearer $0\" https://api.sandbox.push.apple.com/3/device/\(Self.deviceToken); exit ${1:-0}"
        let file = f.dir + "/summary.json"
        let plain = try f.exec(["--json-summary", file, "--", "/bin/sh", "-c", script, token])
        #expect(plain.status == 0, "\(plain.err)")
        var s = try f.summary(file)
        #expect(s["rejected"]?.objectValue?["BadDeviceToken"]?.intValue == 1)
        #expect(s["refused"]?.objectValue?["MissingProviderToken"]?.intValue == 1)
        #expect(s["delivered"]?.intValue == 1)
        let failing = try f.exec(["--fail-on", "rejected,refused", "--json-summary", file, "--", "/bin/sh", "-c", script, token])
        #expect(failing.status == ExecSummary.failedOnStatus, "\(failing.err)")
        s = try f.summary(file)
        #expect(s["failedOn"] == .array([.string("rejected"), .string("refused")]))
        let own = try f.exec(["--fail-on", "rejected", "--", "/bin/sh", "-c", script, token, "7"])
        #expect(own.status == 7)
        let clean = try f.exec(["--fail-on", "rejected,refused,not-targeted", "--", "/bin/sh", "-c", "exit 0"])
        #expect(clean.status == 0)
        #expect(try f.exec(["--fail-on", "everything", "--", "true"]).status == 2)
    }

    /// Whether this root can run the binary as nobody (setpriv, a path others may read).
    static let nobodyCanRun: Bool = {
        guard geteuid() == 0, let setpriv = tool("setpriv"), let binary = EndToEndTests.binary,
            let r = try? Subprocess.run(setpriv, nobody + [binary, "--version"], timeout: 30)
        else { return false }
        return r.status == 0
    }()
    static let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    @Test(
        "not root: a user namespace maps the user to root inside, and a push made there arrives",
        .enabled(if: available, reason), .enabled(if: nobodyCanRun, "needs root with setpriv, to run pushbox as nobody"))
    func unprivileged() throws {
        let f = try ExecFixture()
        chmod(f.dir, 0o777)
        let (app, token) = try f.keylessAppAndToken(keyID: "NOBODYKEY1", team: "NOBODYTEAM")
        var env = f.environment
        env["HOME"] = f.dir
        let script =
            "id -u; curl -sS -m 10 -o /dev/null -w '%{http_code}\n' -H \"authorization: bearer $0\" -H 'apns-topic: com.example.backend' -d '{\"aps\":{\"alert\":\"from nobody\"}}' https://api.sandbox.push.apple.com/3/device/\(Self.deviceToken)"
        let r = try Subprocess.run(
            try #require(Self.tool("setpriv")),
            Self.nobody + [try #require(EndToEndTests.binary), "exec", "--app", app, "--", "/bin/sh", "-c", script, token],
            environment: env, timeout: 60)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "0\n200\n", "\(r.out) \(r.err)")
        #expect(try f.list().first?["body"]?.stringValue == "from nobody")
    }

    @Test("SIGINT sent to pushbox reaches the command, whose status is pushbox's", .enabled(if: available, reason))
    func signals() throws {
        let f = try ExecFixture()
        let out = f.dir + "/out"
        let child = try ProviderLibraryTests.client(
            try #require(EndToEndTests.binary),
            ["exec", "--", "/bin/sh", "-c", "trap 'echo interrupted; exit 42' INT; echo ready; while :; do sleep 0.05; done"],
            environment: f.environment, output: out)
        for _ in 0..<400 where !((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("ready") { usleep(25_000) }
        kill(child.pid, SIGINT)
        #expect(child.wait(timeout: 20) == 42)
        #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("interrupted"))
    }

    @Test("a command that does not exist: 127, named; --check says it works", .enabled(if: available, reason))
    func missingCommand() throws {
        let f = try ExecFixture()
        let r = try f.exec(["--", "no-such-command-pushbox"])
        #expect(r.status == 127)
        #expect(r.err.contains("no-such-command-pushbox"))
        let check = try f.exec(["--check"])
        #expect(check.status == 0)
        #expect(check.out.contains("listening on 443, 2197, 2195 and 2196"))
    }

    @Test(
        "a running pushbox shows them: aioapns, PyAPNs2 and django-push-notifications with their default hosts, relayed to its port socket",
        .enabled(if: available, reason),
        .enabled(
            if: ProviderLibraryTests.venvReady("aioapns") && ProviderLibraryTests.venvReady("apns2") && ProviderLibraryTests.venvReady("django"),
            "needs the aioapns, apns2 and django venvs that make pyclients installs from PyPI"))
    func pythonAPNsLibraries() throws {
        let f = try ExecFixture()
        try f.startServe()
        let key = [Self.sampleKey, "SAMPLEKEY1", "PUSHBOXDEV"]
        let runs: [(String, String, [String])] = [
            ("aioapns", "exec_aioapns.py", key), ("apns2", "exec_pyapns2.py", key), ("django", "exec_django_apns.py", key + [Self.deviceToken]),
        ]
        for (venv, script, args) in runs {
            let file = f.dir + "/\(venv).json"
            let r = try f.exec(["--json-summary", file, "--", ProviderLibraryTests.venvPython(venv), Self.clients + "/" + script] + args)
            #expect(r.status == 0, "\(venv): \(r.out) \(r.err)")
            let s = try f.summary(file)
            #expect(s["delivered"]?.intValue == 1, "\(venv): \(r.err)")
            #expect(s["servedBy"]?.stringValue?.hasPrefix("the running pushbox") == true)
        }
        let titles = try f.list().compactMap { $0["title"]?.stringValue }
        #expect(Set(titles).isSuperset(of: ["aioapns", "PyAPNs2", "django-push-notifications"]), "\(titles)")
    }

    @Test(
        "aioapns, unchanged, to the production host of a development device: 400 BadDeviceToken, as APNs answers a token of the other environment; the sandbox host delivers",
        .enabled(if: available, reason),
        .enabled(if: ProviderLibraryTests.venvReady("aioapns"), "needs the aioapns venv that make pyclients installs from PyPI"))
    func aioapnsEnvironments() throws {
        let f = try ExecFixture()
        try f.startServe()
        let key = [Self.sampleKey, "SAMPLEKEY1", "PUSHBOXDEV"]
        for (environment, status) in [("production", "400 BadDeviceToken"), ("sandbox", "200 -")] {
            let file = f.dir + "/\(environment).json"
            let r = try f.exec(
                ["--json-summary", file, "--", ProviderLibraryTests.venvPython("aioapns"), Self.clients + "/exec_aioapns.py"] + key + [environment])
            #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == status, "\(environment): \(r.out) \(r.err)")
            let s = try f.summary(file)
            let rejected = s["rejected"]?.objectValue?["BadDeviceToken"]?.intValue ?? 0
            #expect(environment == "production" ? rejected == 1 : s["delivered"]?.intValue == 1, "\(environment): \(s)")
        }
        // The refusal is in the inbox, as every refusal is.
        let refused = try f.list().first { $0["reason"]?.stringValue == "BadDeviceToken" }
        #expect(refused != nil)
    }

    @Test(
        "apprise's FCM plugin, unchanged, sends to a topic with token null beside it: FCM reads proto3 JSON, so it is delivered",
        .enabled(if: available, reason),
        .enabled(if: ProviderLibraryTests.venvReady("apprise"), "needs the apprise venv that make pyclients installs from PyPI"))
    func apprise() throws {
        let f = try ExecFixture()
        try f.startServe()
        let key = f.dir + "/service-account.json"
        try #require(CLIRun(["fcm-credentials", key, "--project", "demo-proj"], environment: f.environment).status == 0)
        try #require(CLIRun(["device", "subscribe", "news", "--db", f.db], environment: f.environment).status == 0)
        let file = f.dir + "/apprise.json"
        let run = try f.exec([
            "--json-summary", file, "--", ProjectPaths.projectRoot + "/.build/pyclients/apprise/bin/apprise", "-t", "Apprise", "-b",
            "Hello from apprise",
            "fcm://demo-proj/%23news?keyfile=" + key,
        ])
        #expect(run.status == 0, "\(run.out) \(run.err)")
        let s = try f.summary(file)
        #expect(s["delivered"]?.intValue == 1, "\(s)")
        let sent = try f.list().filter { $0["source"] == "fcm" }
        #expect(sent.count == 1 && sent.first?["title"] == "Apprise" && sent.first?["status"] == 200, "\(sent)")
    }

    @Test(
        "firebase-admin's send_each_async and send_each_for_multicast_async, and pyfcm's async sender, with a Google-shaped service account",
        .enabled(if: available, reason),
        .enabled(
            if: ProviderLibraryTests.venvReady("firebase") && ProviderLibraryTests.venvReady("pyfcm"),
            "needs the firebase and pyfcm venvs that make pyclients installs from PyPI"))
    func firebaseLibraries() throws {
        let f = try ExecFixture()
        try f.startServe()
        let account = f.dir + "/service-account.json"
        let made = try Subprocess.run(
            ProviderLibraryTests.venvPython("firebase"), [Self.clients + "/make_service_account.py", account, "pushbox-sample"])
        try #require(made.status == 0, "\(made.err)")
        let file = f.dir + "/firebase.json"
        let firebase = try f.exec([
            "--json-summary", file, "--", ProviderLibraryTests.venvPython("firebase"), Self.clients + "/exec_firebase_async.py", account,
        ])
        #expect(firebase.status == 0, "\(firebase.err)")
        #expect(firebase.out.split(separator: "\n") == ["each 2 0", "multicast 1 1"], "\(firebase.out) \(firebase.err)")
        var s = try f.summary(file)
        #expect(s["delivered"]?.intValue == 2)
        #expect(s["notTargeted"]?.intValue == 1)
        #expect(s["rejected"]?.objectValue?["INVALID_ARGUMENT"]?.intValue == 1)
        let pyfcm = try f.exec([
            "--json-summary", file, "--", ProviderLibraryTests.venvPython("pyfcm"), Self.clients + "/exec_pyfcm_async.py", account,
        ])
        #expect(pyfcm.status == 0, "\(pyfcm.err)")
        s = try f.summary(file)
        #expect(s["delivered"]?.intValue == 3)
        let fcm = try f.list().filter { $0["source"]?.stringValue == "fcm" }
        #expect(fcm.count >= 6)
        for n in fcm {
            let auth = n["arrival"]?.objectValue?["authentication"]?.objectValue
            #expect(auth?["method"]?.stringValue == "oauth")
            #expect(auth?["signatureVerified"] == .bool(false))
        }
    }

    @Test(
        "Node's built-in http2 client posting to Apple's sandbox host", .enabled(if: available, reason),
        .enabled(if: tool("node") != nil, "needs node"))
    func nodeHTTP2() throws {
        let f = try ExecFixture()
        let r = try f.exec(["--", try #require(Self.tool("node")), Self.clients + "/exec_node_http2.js", try Self.token(), Self.deviceToken])
        #expect(r.status == 0 && r.out == "200 -\n", "\(r.out) \(r.err)")
        #expect(try f.list().first?["title"]?.stringValue == "node http2")
    }

    @Test(
        "Java's built-in HttpClient over HTTP/2, trusting pushbox through the truststore exec made with keytool",
        .enabled(if: available, reason),
        .enabled(if: Tools.javaRunningSource != nil && Tools.find("keytool") != nil, "needs a JDK (java with jdk.compiler, and keytool)"))
    func javaHttpClient() throws {
        let f = try ExecFixture()
        let r = try f.exec(["--", try #require(Self.tool("java")), Self.clients + "/ExecJavaHttp2.java", try Self.token(), Self.deviceToken])
        #expect(r.status == 0 && r.out == "200 HTTP_2 -\n", "\(r.out) \(r.err)")
        #expect(try f.list().first?["title"]?.stringValue == "java")
    }
}
