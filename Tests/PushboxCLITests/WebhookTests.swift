import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

/// `--webhook URL`: each stored notification posted, as its list item, to a receiver written with
/// Python's standard library; at most N a second (the rest dropped and counted); each delivery in
/// the request log; a URL on another machine refused unless --webhook-any.
@Suite("Webhooks", .serialized)
struct WebhookTests {
    struct ReceiverDidNotStart: Error {}

    /// A receiver on an ephemeral port; its port and the file it writes.
    static func receiver(_ dir: String) throws -> (Subprocess.Child, Int, String) {
        let portFile = dir + "/hook.port"
        let out = dir + "/hook.jsonl"
        let child = try Subprocess.Child("/usr/bin/python3", [ProviderLibraryTests.clients + "/webhook_receiver.py", portFile, out])
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) { return (child, port, out) }
            usleep(25_000)
        }
        _ = child.kill()
        throw ReceiverDidNotStart()
    }

    static func received(_ out: String) -> [JSONObject] {
        ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONParser.parse(Array($0.utf8)).objectValue
        }
    }

    @Test("each push is posted to the webhook as its list item and recorded as a request; refusals are posted too")
    func posted() throws {
        let s = try ProviderLibraryTests.PortServed()
        let (hook, port, out) = try Self.receiver(s.dir)
        defer { _ = hook.kill() }
        s.extraArguments = ["--webhook", "http://127.0.0.1:\(port)/hook"]
        try s.start()
        let socket = s.dir + "/s.sock"
        #expect(try APIEventsTests.push(socket, title: "First") == 200)
        #expect(try APIEventsTests.push(socket, title: "Wrong app", topic: "com.example.other") == 400)
        var got: [JSONObject] = []
        for _ in 0..<100 where got.count < 2 {
            usleep(50_000)
            got = Self.received(out)
        }
        #expect(got.map { $0["title"]?.stringValue ?? "" }.sorted() == ["First", "Wrong app"], "\(got)")
        #expect(got.allSatisfy { $0["path"] == "/hook" && $0["type"] == "application/json" && $0["cursor"] != nil })
        let records = try APIv1Tests.curl(["--unix-socket", socket, "http://localhost/api/v1/requests?query=status:204"])
        let hooks = records.body["requests"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(hooks.count == 2 && hooks.allSatisfy { $0["listener"] == "webhook" && $0["path"] == .string("http://127.0.0.1:\(port)/hook") })
    }

    @Test("at most --webhook-rate a second: a burst beyond it is dropped and counted, never queued")
    func rateLimited() throws {
        let s = try ProviderLibraryTests.PortServed()
        let (hook, port, out) = try Self.receiver(s.dir)
        defer { _ = hook.kill() }
        s.extraArguments = ["--webhook", "http://localhost:\(port)/", "--webhook-rate", "2"]
        try s.start()
        for i in 0..<10 { #expect(try APIEventsTests.push(s.dir + "/s.sock", title: "Burst \(i)") == 200) }
        usleep(1_500_000)
        #expect(s.process?.terminate() == 0)
        let got = Self.received(out).count
        let log = (try? String(contentsOfFile: s.dir + "/serve.err", encoding: .utf8)) ?? ""
        let summary = try #require(log.split(separator: "\n").first { $0.contains("webhook http://localhost:\(port)/:") }, "\(log)")
        #expect(summary.hasSuffix("\(got) sent, 0 failed, \(10 - got) dropped over 2/s"), "\(summary)")
        #expect((2...4).contains(got), "2 a second, over at most two seconds: \(got)")
    }

    @Test("a webhook on another machine is refused unless --webhook-any; a URL that is none is refused")
    func elsewhereRefused() throws {
        let dir = "/tmp/pbw-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Refused before anything listens: the default port (another test's serve may hold it) is never tried.
        let base = ["serve", "--socket", dir + "/s.sock", "--db", dir + "/i.sqlite", "--quiet"]
        let far = CLIRun(base + ["--webhook", "https://hooks.example.com/push"])
        #expect(far.status == 1 && far.err.contains("--webhook-any") && !FileManager.default.fileExists(atPath: dir + "/s.sock"), "\(far.err)")
        let notHTTP = CLIRun(base + ["--webhook", "ftp://127.0.0.1/x"])
        #expect(notHTTP.status == 1 && !FileManager.default.fileExists(atPath: dir + "/s.sock"), "\(notHTTP.err)")
    }
}
