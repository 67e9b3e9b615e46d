import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

/// The live half of the API for tests: the event stream (two readers at once, one reconnecting
/// with `Last-Event-ID`), waits that hold no thread, the device read and changed over HTTP, and
/// the requests found with the query language — with curl and Python's httpx.
@Suite("The API's event stream, device and requests", .serialized)
struct APIEventsTests {
    static let token = "5e1ec7ed" + String(repeating: "0", count: 56)

    /// A push through the socket, as a backend's curl sends it; its status.
    static func push(_ socket: String, title: String, topic: String = "dev.pushbox.sample") throws -> Int {
        let r = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", socket, "-H", "apns-topic: \(topic)", "--data-binary",
                #"{"aps":{"alert":{"title":"\#(title)","body":"x"}}}"#, "http://localhost/3/device/\(token)",
            ])
        return Int(r.out) ?? 0
    }

    /// The events a curl reader wrote: (id, name, data) in order.
    static func events(_ path: String) -> [(id: String?, name: String, data: JSONObject)] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var out: [(String?, String, JSONObject)] = []
        for block in text.components(separatedBy: "\n\n") {
            var id: String?
            var name = ""
            var data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            if let object = try? JSONParser.parse(Array(data.utf8)).objectValue { out.append((id, name, object)) }
        }
        return out
    }

    @Test("two readers at once hear every notification; an httpx reader that reconnects with Last-Event-ID misses none")
    func twoReadersAndAReconnect() throws {
        let probe = try Subprocess.run("/usr/bin/python3", ["-c", "import httpx"])
        try #require(probe.status == 0, "needs python3-httpx (make test installs it): \(probe.err)")
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let socket = s.dir + "/s.sock"
        let out = s.dir + "/events.txt"
        let reader = try Subprocess.Child(
            "/usr/bin/curl", ["-sN", "--unix-socket", socket, "http://localhost/api/v1/events"],
            stdout: open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o600))
        usleep(300_000)
        // A credential sent with a request is never in an event.
        let withSecret = try APIv1Tests.curl(["--unix-socket", socket, "-H", "Authorization: bearer SECRET-TOKEN", "http://localhost/api/v1/health"])
        #expect(withSecret.status == 200)
        let r = try Subprocess.run(
            "/usr/bin/python3", [ProviderLibraryTests.clients + "/api_events_httpx.py", "http://127.0.0.1:\(s.port)", socket], timeout: 60)
        #expect(
            r.out.split(separator: "\n").map(String.init) == [
                "type 200 text/event-stream", "first one two last-id yes", "resumed three four five",
            ], "\(r.out) \(r.err)")
        usleep(300_000)
        _ = reader.kill()
        let heard = Self.events(out)
        let notifications = heard.filter { $0.name == "notification" }
        #expect(notifications.map { $0.data["title"]?.stringValue ?? "" } == ["one", "two", "three", "four", "five"])
        let ids = heard.compactMap { $0.id.flatMap { Int($0) } }
        #expect(ids == Array(ids.sorted()) && Set(ids).count == ids.count, "numbered in order, once each: \(ids)")
        #expect(heard.contains { $0.name == "request" && $0.data["path"]?.stringValue == "/3/device/\(Self.token)" })
        #expect(heard.contains { $0.name == "request" && $0.data["path"] == "/api/v1/health" })
        #expect(!((try? String(contentsOfFile: out, encoding: .utf8)) ?? "SECRET").contains("SECRET"), "no credential in any event")
    }

    @Test("waits park their connections: 24 waiters on the socket (its pool has 16 threads) all answered by one push")
    func waitsHoldNoThread() throws {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let socket = s.dir + "/s.sock"
        let waiters = try (0..<24).map { i in
            try Subprocess.Child(
                "/usr/bin/curl", ["-s", "--unix-socket", socket, "http://localhost/api/v1/wait?query=title:Parked&timeout=20"],
                stdout: open(s.dir + "/wait\(i).json", O_WRONLY | O_CREAT | O_TRUNC, 0o600))
        }
        usleep(500_000)
        #expect(try Self.push(socket, title: "Parked") == 200, "the push is answered while every waiter waits")
        for (i, waiter) in waiters.enumerated() {
            #expect(waiter.wait(timeout: 10) == 0)
            let body = try JSONParser.parse(Array(try String(contentsOfFile: s.dir + "/wait\(i).json", encoding: .utf8).utf8)).objectValue
            #expect(body?["notification"]?.objectValue?["title"] == "Parked")
        }
    }

    @Test("GET and PUT /api/v1/device change what pushbox device changes; offline then online is heard as delivery events")
    func deviceOverHTTP() throws {
        let s = try ProviderLibraryTests.PortServed()
        #expect(CLIRun(["device", "add", "ko", "--lang", "ko-KR", "--db", s.db]).status == 0)
        try s.start()
        let socket = s.dir + "/s.sock"
        func api(_ path: String, _ extra: [String] = []) throws -> (status: Int, body: JSONObject) {
            try APIv1Tests.curl(["--unix-socket", socket] + extra + ["http://localhost" + path])
        }
        func put(_ body: String) throws -> (status: Int, body: JSONObject) {
            try api("/api/v1/device", ["-X", "PUT", "-H", "content-type: application/json", "--data-binary", body])
        }
        let out = s.dir + "/events.txt"
        let reader = try Subprocess.Child(
            "/usr/bin/curl", ["-sN", "--unix-socket", socket, "http://localhost/api/v1/events?types=delivery,device"],
            stdout: open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o600))
        #expect(try api("/api/v1/device").body["name"] == "phone")
        let languages = try put(#"{"languages":["de-DE","en"]}"#)
        #expect(languages.status == 200 && languages.body["languages"] == .array([.string("de-DE"), .string("en")]), "\(languages.body)")
        #expect(languages.body["renderingLanguages"] == .array([.string("de-DE"), .string("en")]))
        #expect(try put(#"{"online":false}"#).body["online"] == .bool(false))
        #expect(try Self.push(socket, title: "Kept") == 200)
        let kept = try api("/api/v1/notifications/latest?query=title:Kept")
        #expect(kept.body["deliveries"]?.arrayValue?.first?.objectValue?["delivery"]?.stringValue?.hasPrefix("stored") == true, "\(kept.body)")
        #expect(try put(#"{"online":true}"#).status == 200)
        let member = try put(#"{"device":"ko","installed":false}"#)
        #expect(
            member.status == 200 && member.body["name"] == "ko" && member.body["state"]?.objectValue?["installed"] == .bool(false), "\(member.body)")
        #expect(try api("/api/v1/device?device=ko").body["languages"] == .array([.string("ko-KR")]))

        let unknown = try put(#"{"colour":"red"}"#)
        #expect(unknown.status == 400 && unknown.body["error"] == "BadDeviceChange")
        #expect(try put(#"{"languages":["not a tag"]}"#).status == 400)
        #expect(try put(#"{"device":"nobody","online":true}"#).status == 404)
        usleep(1_500_000)  // the device's registration is looked at once a second
        _ = reader.kill()
        let heard = Self.events(out)
        let delivered = heard.first { $0.name == "delivery" }
        #expect(delivered?.data["delivery"] == "delivered-from-storage", "\(heard.map(\.name))")
        #expect(heard.contains { $0.name == "device" }, "\(heard.map(\.name))")
    }

    @Test("GET /api/v1/requests?query= finds the answers with the query language; a bad query is refused with its code")
    func requestsByQuery() throws {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let socket = s.dir + "/s.sock"
        #expect(try Self.push(socket, title: "Fine") == 200)
        #expect(try Self.push(socket, title: "Wrong app", topic: "com.example.other") == 400)
        func api(_ path: String) throws -> (status: Int, body: JSONObject) {
            try APIv1Tests.curl(["--unix-socket", socket, "http://localhost" + path])
        }
        let refused = try api("/api/v1/requests?query=status:4xx%20topic:com.example.other")
        let records = refused.body["requests"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(records.count == 1 && records.first?["reason"] == "DeviceTokenNotForTopic", "\(refused.body)")
        #expect(try api("/api/v1/requests?query=-status:4xx%20source:socket%20device").body["requests"]?.arrayValue?.count == 1)
        #expect(try api("/api/v1/requests?query=colour:red").body["code"] == "unknown-query-field")
    }
}
