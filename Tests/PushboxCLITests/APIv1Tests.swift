import Foundation
import PushboxJSON
import PushboxStore
import PushboxTestSupport
import Testing

/// The API for tests under `/api/v1/`, driven with curl on the socket and Python's httpx on the
/// port: health, list with a query and a cursor, one push with every delivery, wait (found, and
/// 408 with what arrived), delete by query; a browser's rebound host or foreign origin refused.
@Suite("The API for tests", .serialized)
struct APIv1Tests {
    static func curl(_ args: [String]) throws -> (status: Int, body: JSONObject) {
        let r = try Subprocess.run("/usr/bin/curl", ["-s", "-w", "\n%{http_code}"] + args)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let body = try JSONParser.parse(Array(lines.dropLast().joined(separator: "\n").utf8)).objectValue ?? JSONObject()
        return (status, body)
    }

    @Test("curl on the socket: health, wait while a push arrives, list by query with a cursor, one push's deliveries, delete by query")
    func curlOnTheSocket() throws {
        let s = try ProviderLibraryTests.PortServed()
        #expect(CLIRun(["device", "add", "ja", "--lang", "ja-JP", "--db", s.db]).status == 0)
        try s.start()
        let socket = s.dir + "/s.sock"
        func api(_ path: String, _ extra: [String] = []) throws -> (status: Int, body: JSONObject) {
            try Self.curl(["--unix-socket", socket] + extra + ["http://localhost" + path])
        }
        #expect(try api("/api/v1/health").body["status"] == "ready")
        let waiter = try Subprocess.Child(
            "/usr/bin/curl", ["-s", "--unix-socket", socket, "http://localhost/api/v1/wait?query=device:ja%20%E7%99%BA%E9%80%81&timeout=10"],
            stdout: open(s.dir + "/wait.json", O_WRONLY | O_CREAT | O_TRUNC, 0o600))
        usleep(300_000)
        for (topic, title) in [("NewsApp", "Breaking"), ("LangJaJP", "ご注文を発送しました")] {
            let sent = try api(
                "/v1/projects/shop/messages:send",
                [
                    "-H", "content-type: application/json", "--data-binary",
                    #"{"message":{"topic":"\#(topic)","notification":{"title":"\#(title)","body":"x"}}}"#,
                ])
            #expect(sent.status == 200)
        }
        _ = waiter.wait(timeout: 20)
        let waited = try JSONParser.parse(Array(try String(contentsOfFile: s.dir + "/wait.json", encoding: .utf8).utf8)).objectValue
        #expect(waited?["notification"]?.objectValue?["title"] == "ご注文を発送しました", "\(String(describing: waited))")

        let page = try api("/api/v1/notifications?query=device:ja&limit=1")
        let first = try #require(page.body["notifications"]?.arrayValue?.first?.objectValue)
        #expect(first["title"] == "ご注文を発送しました" && page.body["next"] != .null)
        let cursor = try #require(page.body["next"]?.stringValue)
        let second = try api("/api/v1/notifications?query=device:ja&limit=1&cursor=\(cursor)")
        #expect(second.body["notifications"]?.arrayValue?.first?.objectValue?["title"] == "Breaking")

        let breaking = try #require(second.body["notifications"]?.arrayValue?.first?.objectValue?["apnsId"]?.stringValue)
        let one = try api("/api/v1/notifications/\(breaking)?lang=ja")
        let devices = one.body["deliveries"]?.arrayValue?.compactMap { $0.objectValue?["device"]?.stringValue } ?? []
        #expect(Set(devices) == ["phone", "ja"], "one push, a delivery per device: \(one.body)")
        #expect(try api("/api/v1/notifications/latest?query=title:Breaking").body["apnsId"]?.stringValue == breaking)
        #expect(try api("/api/v1/notifications/no-such-id").status == 404)

        let bad = try api("/api/v1/notifications?query=colour:red")
        #expect(bad.status == 400 && bad.body["code"] == "unknown-query-field" && bad.body["offset"] == .number("0"))
        let late = try api("/api/v1/wait?query=nothing-like-this&timeout=0.2")
        #expect(late.status == 408 && late.body["error"] == "Timeout")

        #expect(try api("/api/v1/notifications?query=device:ja", ["-X", "DELETE"]).body["deleted"] == .number("2"))
        #expect(try api("/api/v1/notifications?query=device:ja").body["notifications"] == .array([]))
        #expect(try api("/api/v1/nothing").status == 404)
    }

    @Test("httpx on the port: the same API as a Python test uses it; a rebound Host and another site's Origin are refused")
    func httpxOnThePort() throws {
        // Debian's python3 with python3-httpx, which make test installs.
        let probe = try Subprocess.run("/usr/bin/python3", ["-c", "import httpx"])
        try #require(probe.status == 0, "needs python3-httpx (make test installs it): \(probe.err)")
        let s = try ProviderLibraryTests.PortServed()
        #expect(CLIRun(["device", "add", "ja", "--lang", "ja-JP", "--db", s.db]).status == 0)
        try s.start()
        let r = try Subprocess.run(
            "/usr/bin/python3", [ProviderLibraryTests.clients + "/api_wait_httpx.py", "http://127.0.0.1:\(s.port)", s.dir + "/s.sock"], timeout: 60)
        #expect(
            r.out.split(separator: "\n").map(String.init) == [
                "wait 200 ご注文を発送しました", "list 1 ja", "one ['ja'] receive", "bad unknown-query-field", "timeout 408", "deleted 1", "rebinding 403",
                "requests [200]", "device ['ja-JP']", "openapi 3.1.0",
            ], "\(r.out) \(r.err)")
        let foreign = try Self.curl(["-X", "DELETE", "-H", "Origin: https://attacker.example", "http://127.0.0.1:\(s.port)/api/v1/notifications"])
        #expect(foreign.status == 403)
    }

    @Test("pushbox wait, health and clear QUERY from the command line: exit 0 with the notification, 1 on timeout, 2 for a bad query")
    func commandLine() throws {
        let s = try ProviderLibraryTests.PortServed()
        let socket = s.dir + "/s.sock"
        #expect(CLIRun(["health", "--socket", socket]).status == 1, "nothing answers yet")
        #expect(CLIRun(["device", "add", "ja", "--lang", "ja-JP", "--db", s.db]).status == 0)
        try s.start()
        let health = CLIRun(["health", "--socket", socket, "--json"])
        #expect(health.status == 0 && health.out.contains("\"ready\""), "\(health.out) \(health.err)")
        let binary = try #require(EndToEndTests.binary)
        let out = s.dir + "/wait.out"
        let waiter = try Subprocess.Child(
            binary, ["wait", "--socket", socket, "--timeout", "10", "device:ja 発送"], stdout: open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o600))
        usleep(300_000)
        let message = #"{"message":{"topic":"LangJaJP","notification":{"title":"ご注文を発送しました","body":"x"}}}"#
        let sent = try Self.curl([
            "--unix-socket", socket, "-H", "content-type: application/json", "--data-binary", message,
            "http://localhost/v1/projects/shop/messages:send",
        ])
        #expect(sent.status == 200)
        #expect(waiter.wait(timeout: 20) == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "ja  ご注文を発送しました — x\n")
        #expect(CLIRun(["wait", "--socket", socket, "--timeout", "0.3", "nothing-like-this"]).status == 1)
        #expect(CLIRun(["wait", "--socket", socket, "colour:red"]).status == 2)
        // The running pushbox serves this inbox on that socket: it deletes, and says so.
        let cleared = CLIRun(["clear", "--db", s.db, "--socket", socket, "device:ja"])
        #expect(
            cleared.status == 0 && cleared.out.hasPrefix("cleared 1 notification ") && cleared.out.hasSuffix("(by the running pushbox)\n"),
            "\(cleared.out) \(cleared.err)")
        // Another inbox than the one it serves is cleared directly.
        _ = try InboxStore(path: s.dir + "/other.sqlite")
        let other = CLIRun(["clear", "--db", s.dir + "/other.sqlite", "--socket", socket])
        #expect(other.status == 0 && !other.out.contains("running pushbox"), "\(other.out) \(other.err)")
    }
}
