import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

/// Chaos set from everywhere and never mistaken for the real thing: `--chaos` at start,
/// `pushbox chaos`, `/api/v1/chaos`; each injected answer named in the request log, `pushbox
/// requests`, `list --json`; `accepted` stores and delivers what it answers as failed.
@Suite("Chaos: set from everywhere, marked everywhere", .serialized)
struct ChaosCommandTests {
    static let token = "5e1ec7ed" + String(repeating: "0", count: 56)

    @Test("--chaos at start, pushbox chaos add/off/on/remove/clear, PUT with a rule that cannot be read changes nothing")
    func setFromEverywhere() throws {
        let s = try ProviderLibraryTests.PortServed()
        s.extraArguments = ["--chaos", "apns 500 InternalServerError next=5"]
        try s.start()
        let socket = s.dir + "/s.sock"
        func rules() throws -> [JSONObject] {
            let r = CLIRun(["chaos", "--socket", socket, "--json"])
            try #require(r.status == 0, "\(r.err)")
            return try JSONParser.parse(Array(r.out.utf8)).objectValue?["rules"]?.arrayValue?.compactMap(\.objectValue) ?? []
        }
        #expect(try rules().map { $0["rule"]?.stringValue } == ["apns 500 InternalServerError next=5"])
        #expect(CLIRun(["chaos", "--socket", socket, "add", "fcm 503 UNAVAILABLE every=2", "html 502 project=shop"]).status == 0)
        #expect(CLIRun(["chaos", "--socket", socket, "add", "apns 700"]).status == 2)
        #expect(CLIRun(["chaos", "--socket", socket, "off", "#2"]).status == 0)
        #expect(try rules().map { $0["active"] } == [.bool(true), .bool(false), .bool(true)])
        #expect(CLIRun(["chaos", "--socket", socket, "on", "2"]).status == 0)
        #expect(try rules().map { $0["active"] } == [.bool(true), .bool(true), .bool(true)])
        #expect(CLIRun(["chaos", "--socket", socket, "remove", "1"]).status == 0)
        #expect(try rules().compactMap { $0["id"]?.intValue } == [2, 3])
        // The API reads every rule before changing anything.
        let bad = try APIv1Tests.curl([
            "--unix-socket", socket, "-X", "PUT", "-d", #"{"add": ["reset", "quota galaxy"]}"#, "http://localhost/api/v1/chaos",
        ])
        #expect(bad.status == 400 && bad.body["error"] == "BadChaosRule" && bad.body["code"] == "bad-value" && bad.body["rule"]?.intValue == 1)
        #expect(try rules().count == 2)
        let cleared = try APIv1Tests.curl(["--unix-socket", socket, "-X", "PUT", "-d", "{}", "http://localhost/api/v1/chaos"])
        #expect(cleared.status == 200 && cleared.body["armed"] == .bool(false) && cleared.body["rules"] == .array([]))
        let openAPI = try APIv1Tests.curl(["--unix-socket", socket, "http://localhost/api/v1/openapi.json"])
        #expect(openAPI.body["paths"]?.objectValue?["/api/v1/chaos"] != nil)
    }

    @Test(
        "an injected refusal is kept in the inbox and the request log with its rule; accepted answers 503 for a push it delivered, and its retry is a duplicate"
    )
    func markedEverywhere() throws {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let socket = s.dir + "/s.sock"
        func push(_ id: String) throws -> Int {
            let r = try Subprocess.run(
                "/usr/bin/curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", socket, "-H", "apns-topic: dev.pushbox.sample", "-H",
                    "apns-id: \(id)",
                    "-d", #"{"aps":{"alert":"chaos"}}"#, "http://localhost/3/device/\(Self.token)",
                ])
            return Int(r.out) ?? 0
        }
        #expect(CLIRun(["chaos", "--socket", socket, "add", "apns 429 TooManyRequests retry-after=7 next=1"]).status == 0)
        #expect(try push("11111111-1111-1111-1111-111111111111") == 429)
        #expect(CLIRun(["chaos", "--socket", socket, "add", "apns 503 ServiceUnavailable accepted next=1"]).status == 0)
        #expect(try push("22222222-2222-2222-2222-222222222222") == 503)
        #expect(try push("22222222-2222-2222-2222-222222222222") == 200)
        let listed = CLIRun(["list", "--db", s.db, "--json", "--no-extension"])
        let rows = try listed.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        let refused = try #require(rows.first { $0["apnsId"] == "11111111-1111-1111-1111-111111111111" })
        #expect(refused["status"]?.intValue == 429 && refused["reason"] == "TooManyRequests")
        #expect(refused["chaos"]?.stringValue?.hasPrefix("#1 apns 429 TooManyRequests") == true)
        // Accepted: stored and delivered (twice, once for the retry), the first marked with its rule.
        let twice = rows.filter { $0["apnsId"] == "22222222-2222-2222-2222-222222222222" }
        #expect(twice.count == 2 && twice.allSatisfy { $0["status"]?.intValue == 200 })
        #expect(twice.compactMap { $0["chaos"]?.stringValue }.count == 1)
        let log = CLIRun(["requests", "--socket", socket, "--json"])
        let records = try log.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }.filter {
            $0["path"]?.stringValue?.hasPrefix("/3/") == true
        }
        #expect(records.map { $0["status"]?.intValue } == [200, 503, 429])
        #expect(records.map { $0["chaos"] != .null } == [false, true, true])
        #expect(records.last?["retryAfter"]?.intValue == 7)
        let verdict = CLIRun(["requests", "--socket", socket, "--retries", "--json"])
        let counts = try JSONParser.parse(Array(verdict.out.utf8)).objectValue?["counts"]?.objectValue
        #expect(counts?["duplicate"]?.intValue == 1 && counts?["gave-up"]?.intValue == 1, "\(verdict.out)")
    }

    @Test(
        "FCM's answers as Google gives them: QuotaFailure and RetryInfo, an HTML 502, OAuth's token endpoint failing; a quota answers 429 once spent")
    func googleShapes() throws {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let socket = s.dir + "/s.sock"
        func send(_ path: String = "/v1/projects/shop/messages:send", _ body: String = #"{"message":{"token":"abc","notification":{"title":"x"}}}"#)
            throws -> (status: Int, type: String, body: String)
        {
            let r = try Subprocess.run(
                "/usr/bin/curl", ["-s", "-w", "\n%{http_code} %{content_type}", "--unix-socket", socket, "-d", body, "http://localhost" + path])
            let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
            let last = (lines.last ?? "").split(separator: " ", maxSplits: 1)
            return (Int(last.first ?? "") ?? 0, last.count > 1 ? String(last[1]) : "", lines.dropLast().joined(separator: "\n"))
        }
        #expect(
            CLIRun([
                "chaos", "--socket", socket, "add", "fcm 429 QUOTA_EXCEEDED retry-after=30 next=1", "html 502 next=1", "oauth 500 next=1",
                "quota device 2/min",
            ]).status == 0)
        let quota = try send()
        let error = try JSONParser.parse(Array(quota.body.utf8)).objectValue?["error"]?.objectValue
        let types = error?["details"]?.arrayValue?.compactMap { $0.objectValue?["@type"]?.stringValue } ?? []
        #expect(quota.status == 429 && error?["status"] == "RESOURCE_EXHAUSTED")
        #expect(
            types == [
                "type.googleapis.com/google.firebase.fcm.v1.FcmError", "type.googleapis.com/google.rpc.QuotaFailure",
                "type.googleapis.com/google.rpc.RetryInfo",
            ])
        let html = try send()
        #expect(html.status == 502 && html.type.hasPrefix("text/html") && html.body.hasPrefix("<!DOCTYPE html>"))
        let oauth = try send("/token", "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=x")
        let oauthError = try JSONParser.parse(Array(oauth.body.utf8)).objectValue?["error"]
        #expect(oauth.status == 500 && oauthError == "internal_failure")
        // The device's bucket holds two a minute (a request another rule answered takes none).
        #expect(try send().status == 200)
        #expect(try send().status == 200)
        #expect(try send().status == 429)
        let other = try send("/v1/projects/shop/messages:send", #"{"message":{"token":"another-device","notification":{"title":"x"}}}"#)
        #expect(other.status == 200)
    }

    @Test(
        "on the TLS port: a provider token older than token-expiry is 403 ExpiredProviderToken; idle connections closed with GOAWAY, or reset (Node's http2)",
        .enabled(if: ExecTests.tool("node") != nil, "needs node"))
    func connectionsOnThePort() throws {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let socket = s.dir + "/s.sock"
        let token = try ProviderLibraryTests().makeToken(s)
        let device = String(repeating: "0", count: 64)
        sleep(2)
        #expect(CLIRun(["chaos", "--socket", socket, "add", "token-expiry 1s next=1"]).status == 0)
        let expired = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-s", "--http2", "--cacert", s.ca, "-H", "authorization: bearer \(token)", "-H", "apns-topic: dev.pushbox.sample",
                "-d", #"{"aps":{"alert":"old token"}}"#, "-w", "\n%{http_code}", "https://localhost:\(s.port)/3/device/\(device)",
            ])
        #expect(expired.out.hasSuffix("\n403") && expired.out.contains("ExpiredProviderToken"), "\(expired.out)")
        func idle(_ rule: String) throws -> [String] {
            #expect(CLIRun(["chaos", "--socket", socket, "clear"]).status == 0)
            #expect(CLIRun(["chaos", "--socket", socket, "add", rule]).status == 0)
            let r = try Subprocess.run(
                try #require(ExecTests.tool("node")), [ExecTests.clients + "/chaos_node_idle.js", "127.0.0.1:\(s.port)", s.ca, token, device],
                timeout: 20)
            return r.out.split(separator: "\n").map(String.init)
        }
        #expect(try idle("idle-close 1s") == ["200", "goaway 0", "closed"])
        let reset = try idle("idle-close 1s reset")
        #expect(reset.first == "200" && reset.contains("error ECONNRESET") && !reset.contains { $0.hasPrefix("goaway") }, "\(reset)")
    }
}
