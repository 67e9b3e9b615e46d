import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

/// Chaos met by the real clients backends use, unchanged, under `pushbox exec --chaos …`: each
/// does what its source says it does, and the exec summary's verdict on the retries says so.
@Suite("Chaos: real clients meet APNs and FCM failing", .serialized)
struct ChaosClientTests {
    typealias Fixture = ExecTests.ExecFixture
    static let clients = ExecTests.clients
    static let key = [ExecTests.sampleKey, "SAMPLEKEY1", "PUSHBOXDEV"]

    /// One message's attempts in the summary's verdict: statuses and the seconds between them, and its findings.
    struct Message {
        var statuses: [Int]
        var gaps: [Double]
        var findings: [String]
    }

    /// The verdict on the run's retries, from `--json-summary`.
    static func retries(_ summary: JSONObject) -> (counts: JSONObject, failed: [Message]) {
        let retries = summary["retries"]?.objectValue
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let failed = (retries?["failed"]?.arrayValue ?? []).compactMap(\.objectValue).map { m in
            let attempts = (m["attempts"]?.arrayValue ?? []).compactMap(\.objectValue)
            let times = attempts.compactMap { $0["time"]?.stringValue.flatMap(dates.date(from:)) }
            return Message(
                statuses: attempts.compactMap { $0["status"]?.intValue }, gaps: zip(times, times.dropFirst()).map { $1.timeIntervalSince($0) },
                findings: (m["findings"]?.arrayValue ?? []).compactMap { $0.objectValue?["finding"]?.stringValue })
        }
        return (retries?["counts"]?.objectValue ?? JSONObject(), failed)
    }

    /// The exec run's output lines and its summary.
    static func run(_ f: Fixture, _ rules: [String], _ command: [String], failOn: String? = nil) throws -> (
        status: Int32, lines: [String], summary: JSONObject, err: String
    ) {
        let file = f.dir + "/summary-\(UUID().uuidString.prefix(6)).json"
        var args = ["--json-summary", file] + rules.flatMap { ["--chaos", $0] }
        if let failOn { args += ["--fail-on", failOn] }
        let r = try f.exec(args + ["--"] + command)
        return (r.status, r.out.split(separator: "\n").map(String.init), try f.summary(file), r.err)
    }

    /// A running pushbox and a Google-shaped service account for firebase-admin.
    static func firebaseFixture() throws -> (Fixture, String) {
        let f = try Fixture()
        try f.startServe()
        let account = f.dir + "/service-account.json"
        let made = try Subprocess.run(
            ProviderLibraryTests.venvPython("firebase"), [Self.clients + "/make_service_account.py", account, "pushbox-sample"])
        try #require(made.status == 0, "\(made.err)")
        return (f, account)
    }

    static let fcmRules = [
        "fcm 503 UNAVAILABLE retry-after=2 next=1 topic=retry-a", "fcm 500 INTERNAL next=2 topic=retry-b",
        "fcm 429 QUOTA_EXCEEDED retry-after=1 next=1 topic=retry-c",
    ]

    @Test(
        "firebase-admin (Python), sync: retries 500 and 503 (the first retry at once, then 1 s), honours Retry-After, and retries a 429 that carries one (urllib3)",
        .enabled(if: ExecTests.available, ExecTests.reason),
        .enabled(if: ProviderLibraryTests.venvReady("firebase"), "needs the firebase venv that make pyclients installs from PyPI"))
    func firebaseSync() throws {
        let (f, account) = try Self.firebaseFixture()
        let r = try Self.run(f, Self.fcmRules, [ProviderLibraryTests.venvPython("firebase"), Self.clients + "/chaos_firebase.py", "sync", account])
        #expect(r.lines == ["retry-a ok", "retry-b ok", "retry-c ok"], "\(r.err)")
        let (counts, failed) = Self.retries(r.summary)
        try #require(failed.count == 3, "\(r.err)")
        #expect(failed.map(\.statuses) == [[503, 200], [500, 500, 200], [429, 200]])
        #expect(failed[0].gaps[0] >= 1.9, "Retry-After 2 honoured: \(failed[0].gaps)")
        #expect(failed[1].gaps[0] < 0.5 && failed[1].gaps[1] >= 0.9, "backoff 0 then 1 s: \(failed[1].gaps)")
        #expect(failed[2].gaps[0] >= 0.9, "Retry-After 1 honoured: \(failed[2].gaps)")
        #expect(failed.map(\.findings) == [[], ["no-backoff"], []])
        #expect(counts["gave-up"]?.intValue == 0)
    }

    @Test(
        "firebase-admin (Python), async: retries 500 and 503 but ignores Retry-After, and gives up on 429; --fail-on gave-up fails the run",
        .enabled(if: ExecTests.available, ExecTests.reason),
        .enabled(if: ProviderLibraryTests.venvReady("firebase"), "needs the firebase venv that make pyclients installs from PyPI"))
    func firebaseAsync() throws {
        let (f, account) = try Self.firebaseFixture()
        let r = try Self.run(
            f, Self.fcmRules, [ProviderLibraryTests.venvPython("firebase"), Self.clients + "/chaos_firebase.py", "async", account],
            failOn: "gave-up,retried-permanent")
        #expect(r.lines == ["retry-a ok", "retry-b ok", "retry-c QuotaExceededError"], "\(r.err)")
        #expect(r.status == 3)
        let (_, failed) = Self.retries(r.summary)
        try #require(failed.count == 3, "\(r.err)")
        #expect(failed.map(\.statuses) == [[503, 200], [500, 500, 200], [429]])
        #expect(failed[0].gaps[0] < 1.5, "Retry-After 2 ignored: \(failed[0].gaps)")
        #expect(failed.map(\.findings) == [["ignored-retry-after"], ["no-backoff"], ["gave-up"]])
        #expect(r.summary["failedOn"] == .array([.string("gave-up")]))
        // The rules were the run's: the running pushbox keeps none of them.
        let left = CLIRun(["chaos", "--socket", f.socket, "--json"], environment: f.environment)
        let rulesLeft = try JSONParser.parse(Array(left.out.utf8)).objectValue?["rules"]?.arrayValue
        #expect(left.status == 0 && rulesLeft?.isEmpty == true)
    }

    @Test(
        "aioapns, PyAPNs2 and apns2-up: none retries a 503; after a GOAWAY aioapns sends the push again on a new connection, PyAPNs2 and apns2-up raise",
        .enabled(if: ExecTests.available, ExecTests.reason),
        .enabled(
            if: ProviderLibraryTests.venvReady("aioapns") && ProviderLibraryTests.venvReady("apns2") && ProviderLibraryTests.venvReady("apns2up"),
            "needs the aioapns, apns2 and apns2up venvs that make pyclients installs from PyPI"))
    func apnsLibraries() throws {
        let f = try Fixture()
        try f.startServe()
        let cases: [(String, String, [String], [[Int]], [[String]])] = [
            ("aioapns", "apns 503 ServiceUnavailable next=1", ["0 503 ServiceUnavailable", "1 200 -"], [[503]], [["gave-up"]]),
            ("aioapns", "goaway Shutdown next=1", ["0 200 -", "1 200 -"], [[0, 200]], [[]]),
            ("apns2", "apns 503 ServiceUnavailable next=1", ["0 ServiceUnavailable", "1 200 -"], [[503]], [["gave-up"]]),
            ("apns2", "goaway Shutdown next=1", ["0 StreamResetError", "1 200 -"], [[0]], [["gave-up"]]),
            ("apns2up", "apns 503 ServiceUnavailable next=1", ["0 ServiceUnavailable", "1 200 -"], [[503]], [["gave-up"]]),
            ("apns2up", "goaway Shutdown next=1", ["0 StreamResetError", "1 200 -"], [[0]], [["gave-up"]]),
        ]
        for (library, rule, lines, statuses, findings) in cases {
            // apns2-up is PyAPNs2's fork: the same module, the same script.
            let module = library == "apns2up" ? "apns2" : library
            let r = try Self.run(f, [rule], [ProviderLibraryTests.venvPython(library), Self.clients + "/chaos_apns.py", module] + Self.key)
            #expect(r.lines == lines, "\(library) \(rule): \(r.err)")
            let (_, failed) = Self.retries(r.summary)
            #expect(failed.map(\.statuses) == statuses && failed.map(\.findings) == findings, "\(library) \(rule): \(r.err)")
        }
    }

    @Test(
        "curl over HTTP/2: sends a refused stream again on a fresh connection; a GOAWAY, a reset and a hang end its request; a delay holds the answer",
        .enabled(if: ExecTests.available, ExecTests.reason))
    func curlConnectionFaults() throws {
        let f = try Fixture()
        try f.startServe()
        let token = try ExecTests.token()
        let curl =
            "curl -sS -m 3 -o /dev/null -w '%{http_code} %{time_total}\\n' -H \"authorization: bearer $0\" -H 'apns-topic: dev.pushbox.sample' -d '{\"aps\":{\"alert\":\"curl\"}}' https://api.sandbox.push.apple.com/3/device/\(ExecTests.deviceToken); echo \"exit $?\""
        // After the GOAWAY pushbox closes the connection: curl ends the request with 16 (HTTP/2
        // framing) when it has handled the frame, and with 18 ("stream was not closed cleanly
        // before end of the underlying connection") when it meets the connection's end first —
        // about one run in six here. Either way the request failed, and the summary below says
        // the stream was never answered.
        let cases: [(String, Set<String>, Int?, [[Int]])] = [
            ("refuse-stream next=1", ["exit 0"], 200, [[0, 200]]), ("goaway Shutdown next=1", ["exit 16", "exit 18"], nil, [[0]]),
            ("hang next=1", ["exit 28"], nil, [[0]]), ("delay 1s next=1", ["exit 0"], 200, []),
        ]
        for (rule, exits, status, statuses) in cases {
            let r = try Self.run(f, [rule], ["/bin/sh", "-c", curl, token])
            #expect(r.lines.last.map(exits.contains) == true, "\(rule): \(r.lines) \(r.err)")
            if let status { #expect(r.lines.first?.hasPrefix("\(status) ") == true, "\(rule): \(r.lines)") }
            if rule.hasPrefix("delay") { #expect(Double(r.lines.first?.split(separator: " ").last ?? "") ?? 0 >= 1, "\(r.lines)") }
            #expect(Self.retries(r.summary).failed.map(\.statuses) == statuses, "\(rule): \(r.err)")
        }
        // A reset straight on the TCP port (under exec, the relay between the namespace and
        // pushbox passes it on as a closed connection): the client's socket gets ECONNRESET.
        let web = CLIRun(["web", "--socket", f.socket, "--no-open"], environment: f.environment)
        let port = try #require(web.out.split(separator: ":").last.flatMap { Int($0.filter(\.isNumber)) }, "\(web.out) \(web.err)")
        #expect(CLIRun(["chaos", "--socket", f.socket, "add", "reset next=1"], environment: f.environment).status == 0)
        let reset = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-sS", "-m", "3", "--http2", "--cacert", f.dir + "/data/pushbox/tls/ca.pem", "--connect-to",
                "api.sandbox.push.apple.com:443:127.0.0.1:\(port)",
                "-H", "authorization: bearer \(token)", "-H", "apns-topic: dev.pushbox.sample", "-d", #"{"aps":{"alert":"reset"}}"#,
                "https://api.sandbox.push.apple.com/3/device/\(ExecTests.deviceToken)",
            ])
        // curl's send (55) or receive (56) failure, whichever it was doing when the RST came.
        #expect([55, 56].contains(reset.status), "\(reset.err)")
    }

    @Test(
        "Node's http2: max-streams 1 is its session's remote setting and streams over it are refused (REFUSED_STREAM, 7); Java's HttpClient does not resend a refused stream",
        .enabled(if: ExecTests.available, ExecTests.reason),
        .enabled(if: ExecTests.tool("node") != nil && ExecTests.tool("java") != nil, "needs node and java"))
    func nodeAndJava() throws {
        let f = try Fixture()
        try f.startServe()
        let token = try ExecTests.token()
        let node = try Self.run(
            f, ["max-streams 1"], [try #require(ExecTests.tool("node")), Self.clients + "/chaos_node_http2.js", token, ExecTests.deviceToken, "3"])
        #expect(node.lines == ["200", "ERR_HTTP2_STREAM_ERROR 7", "ERR_HTTP2_STREAM_ERROR 7", "max-streams 1"], "\(node.err)")
        let refused = try Self.run(
            f, ["refuse-stream next=1"],
            [try #require(ExecTests.tool("node")), Self.clients + "/chaos_node_http2.js", token, ExecTests.deviceToken, "2"])
        #expect(refused.lines == ["ERR_HTTP2_STREAM_ERROR 7", "200", "max-streams 1000"], "\(refused.err)")
        let java = try Self.run(
            f, ["refuse-stream next=1"], [try #require(ExecTests.tool("java")), Self.clients + "/ChaosJavaHttp2.java", token, ExecTests.deviceToken])
        #expect(java.lines.suffix(2) == ["IOException", "200"], "\(java.err)")
        #expect(Self.retries(java.summary).failed.map(\.findings) == [["gave-up"]])
    }
}
