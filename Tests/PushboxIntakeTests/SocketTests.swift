import Foundation
import PushboxFetch
import PushboxInbox
import PushboxPayload
import PushboxStore
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxIntake

@Suite("The socket itself")
struct SocketTests {
    @Test("the socket file is mode 0600 in a private folder")
    func mode() throws {
        let f = try IntakeFixture()
        let attributes = try FileManager.default.attributesOfItem(atPath: f.socket)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.type] as? FileAttributeType) == .typeSocket)
    }

    @Test(
        "in a folder others can enter, the socket is 0600 from the moment it appears, the process's umask is left alone, and nothing is left beside it"
    )
    func sharedFolder() throws {
        let dir = NSTemporaryDirectory() + "pushbox-shared-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/p.sock"
        let fd = try Listeners.unixSocket(path)
        defer { close(fd) }
        // umask can only be read by setting it: whatever it was, it must not be 0o177 (bind's).
        let mask = umask(0o022)
        umask(mask)
        #expect(mask != 0o177)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["p.sock"])
        #expect(Listeners.isAnswering(path))
    }

    @Test("a stale socket is replaced; a live one is refused and left alone")
    func staleAndLive() throws {
        let f = try IntakeFixture()
        // Live: another server on the same path is refused, and the first keeps working.
        let store = f.store
        let service = IntakeService(store: store, context: ValidationContext(), renderings: nil)
        #expect { try IntakeServer(service: service, options: .init(socketPath: f.socket)) } throws: {
            "\($0)".contains("another pushbox is already answering")
        }
        #expect(f.post(APNsAnswerTests.ok).status == 200)
        // Stale: a socket file nobody answers on.
        let stalePath = f.dir + "/stale.sock"
        let fd = try Listeners.unixSocket(stalePath)
        close(fd)
        #expect(FileManager.default.fileExists(atPath: stalePath))
        let second = try IntakeServer(service: service, options: .init(socketPath: stalePath))
        defer { second.stop() }
        let client = UnixHTTPClientFactory.make(stalePath)
        #expect(
            try client.request("POST", url: "http://localhost/3/device/ab", headers: [], body: Array(APNsAnswerTests.ok.utf8)).get().status == 200)
    }

    @Test("a socket path longer than a socket allows is refused with a clear message")
    func longPath() {
        let path = "/tmp/" + String(repeating: "p", count: 120) + ".sock"
        #expect { try Listeners.unixSocket(path) } throws: { "\($0)".contains("at most 107") }
    }

    @Test("curl: a push over its type's limit, with a length or chunked, is read, answered 413 and kept in the inbox whole")
    func tooLargeKept() throws {
        let f = try IntakeFixture()
        let body = #"{"aps":{"alert":""# + String(repeating: "x", count: 5000) + #""}}"#
        for chunked in [false, true] {
            let run = try Subprocess.run(
                "/usr/bin/curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", f.socket, "http://localhost/3/device/abcd",
                    "-H", "apns-push-type: alert", "--data-binary", "@-",
                ] + (chunked ? ["-H", "Transfer-Encoding: chunked"] : []), stdin: body)
            #expect(run.out == "413", "chunked \(chunked): \(run.err)")
        }
        let rows = try f.store.history()
        #expect(rows.map(\.reason) == [APNsReason.payloadTooLarge.rawValue, APNsReason.payloadTooLarge.rawValue])
        #expect(rows.allSatisfy { $0.raw == Array(body.utf8) })
    }

    @Test("a 10 MB body is read and thrown away past its first 64 KiB: the client reads 413, the inbox keeps the refusal")
    func tooLargeDrained() throws {
        let f = try IntakeFixture()
        let fd = RawSocket.connect(f.socket)
        defer { close(fd) }
        let length = 10_000_000
        let head =
            "POST /3/device/abcd HTTP/1.1\r\nHost: localhost\r\napns-push-type: alert\r\nConnection: close\r\nContent-Length: \(length)\r\n\r\n"
        _ = RawSocket.send(fd, Array(head.utf8))
        let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
        var sent = 0
        while sent < length {
            let n = RawSocket.send(fd, Array(chunk.prefix(length - sent)))
            #expect(n > 0, "the server stopped reading after \(sent) bytes")
            if n <= 0 { break }
            sent += n
        }
        let answer = RawSocket.readAll(fd)
        #expect(answer.hasPrefix("HTTP/1.1 413"))
        #expect(answer.contains(APNsReason.payloadTooLarge.rawValue))
        #expect(f.server.bodyBytesRead == APNsEndpoint.keptBody)
        let row = try #require(try f.store.history().first)
        #expect(row.reason == APNsReason.payloadTooLarge.rawValue && row.raw.count == APNsEndpoint.keptBody)
    }

    @Test("a body announced beyond what is worth reading is answered at once and kept as a refusal, unread")
    func tooLargeUnread() throws {
        let f = try IntakeFixture()
        let fd = RawSocket.connect(f.socket)
        defer { close(fd) }
        let head = "POST /3/device/abcd HTTP/1.1\r\nHost: localhost\r\napns-push-type: alert\r\nContent-Length: \(EarlyAnswer.drainLimit + 1)\r\n\r\n"
        _ = RawSocket.send(fd, Array(head.utf8))
        let answer = RawSocket.readAll(fd)
        #expect(answer.hasPrefix("HTTP/1.1 413"))
        #expect(f.server.bodyBytesRead == 0)
        #expect(try f.store.history().first?.reason == APNsReason.payloadTooLarge.rawValue)
    }

    @Test(
        "a chunked body over the limit gets its answer: 413 from a route that refuses, in its own shape, and the connection serves the next request")
    func chunkedTooLarge() throws {
        let f = try IntakeFixture()
        let fd = RawSocket.connect(f.socket)
        defer { close(fd) }
        let chunked = { (path: String, chunks: Int, close: Bool) -> [UInt8] in
            var bytes = Array(
                "POST \(path) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\(close ? "Connection: close\r\n" : "")\r\n".utf8)
            for _ in 0..<chunks { bytes += Array("1000\r\n".utf8) + [UInt8](repeating: 0x61, count: 4096) + Array("\r\n".utf8) }
            return bytes + Array("0\r\n\r\n".utf8)
        }
        // OAuth's token route reads at most 64 KiB; 80 KiB are refused in Google's shape.
        _ = RawSocket.send(fd, chunked("/token", 20, false))
        // A push of 32 KiB without a length is judged like any other: 413, kept.
        _ = RawSocket.send(fd, chunked("/3/device/abcd", 8, true))
        let answer = RawSocket.readAll(fd)
        let statuses = answer.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
        #expect(statuses == ["413", "413"], "\(answer.prefix(300))")
        #expect(answer.contains("INVALID_ARGUMENT") && answer.contains(APNsReason.payloadTooLarge.rawValue))
        let row = try #require(try f.store.history().first)
        #expect(row.reason == APNsReason.payloadTooLarge.rawValue && row.raw.count == 8 * 4096)
    }

    @Test("a request refused from its head still has its body read: 200 PUTs with bodies over one connection each all read 405")
    func refusedBeforeBody() throws {
        let f = try IntakeFixture()
        let script = """
            import http.client, socket, sys
            class C(http.client.HTTPConnection):
                def connect(self):
                    self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    self.sock.connect(sys.argv[1])
            statuses = {}
            for i in range(200):
                c = C("localhost", timeout=10)
                try:
                    c.request("PUT", "/3/device/" + "00" * 32, body=b"x" * 200, headers={"apns-push-type": "alert"})
                    r = c.getresponse()
                    r.read()
                    key = str(r.status)
                except OSError as e:
                    key = type(e).__name__
                statuses[key] = statuses.get(key, 0) + 1
                c.close()
            print(" ".join("%s=%d" % kv for kv in sorted(statuses.items())))
            """
        let run = try Subprocess.run("/usr/bin/python3", ["-c", script, f.socket])
        #expect(run.out.trimmingCharacters(in: .whitespacesAndNewlines) == "405=200", "\(run.err)")
    }

    @Test("an idle connection is closed")
    func idle() throws {
        let f = try IntakeFixture(idleTimeout: 1)
        let fd = RawSocket.connect(f.socket)
        defer { close(fd) }
        let clock = ContinuousClock()
        let start = clock.now
        _ = RawSocket.readAll(fd)  // returns when the server closes
        let waited = clock.now - start
        #expect(waited >= .milliseconds(900) && waited < .seconds(4), "\(waited)")
    }
}

extension SocketTests {
    @Test("headers over the memory limit are refused by the server, not stored")
    func hugeHeaders() throws {
        let f = try IntakeFixture()
        let fd = RawSocket.connect(f.socket)
        defer { close(fd) }
        let head =
            "POST /3/device/abcd HTTP/1.1\r\nHost: localhost\r\nx-filler: \(String(repeating: "a", count: 40_000))\r\nContent-Length: 2\r\n\r\n{}"
        _ = RawSocket.send(fd, Array(head.utf8))
        let answer = RawSocket.readAll(fd)
        #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large"), "\(answer.prefix(60))")
        #expect(f.store.count == 0)
    }

    @Test("--no-socket with --watch: the folder is watched and no socket is bound")
    func noSocket() throws {
        let dir = "/tmp/pbt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try PushboxStore.InboxStore(path: dir + "/inbox.sqlite")
        var options = IntakeServer.Options(socketPath: dir + "/s.sock")
        options.socket = false
        options.watch = [dir + "/in"]
        let server = try IntakeServer(service: IntakeService(store: store, context: ValidationContext(), renderings: nil), options: options)
        defer { server.stop() }
        #expect(!FileManager.default.fileExists(atPath: dir + "/s.sock"))
        try Data(APNsAnswerTests.ok.utf8).write(to: URL(fileURLWithPath: dir + "/in/a.json"))
        let deadline = Date().addingTimeInterval(10)
        while store.count == 0 && Date() < deadline { usleep(20_000) }
        #expect(store.count == 1)
    }

    @Test("a port in use is a clear error naming --listen")
    func portInUse() throws {
        let first = try Listeners.tcp("127.0.0.1:0", allowAny: false)
        defer { close(first.fd) }
        #expect { try Listeners.tcp("127.0.0.1:\(first.port)", allowAny: false) } throws: {
            "\($0)".contains("port \(first.port) on 127.0.0.1 is in use") && "\($0)".contains("--listen")
        }
    }

    @Test("--listen serves TCP on loopback (a provider must authenticate there), and refuses other addresses unless allowed")
    func tcp() throws {
        #expect { try Listeners.tcp("0.0.0.0:0", allowAny: false) } throws: { "\($0)".contains("--listen-any") }
        #expect { try Listeners.tcp("nonsense", allowAny: false) } throws: { "\($0)".contains("HOST:PORT") }
        let dir = "/tmp/pbt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try PushboxStore.InboxStore(path: dir + "/inbox.sqlite")
        var options = IntakeServer.Options(socketPath: dir + "/s.sock")
        options.tcp = "127.0.0.1:0"
        let server = try IntakeServer(service: IntakeService(store: store, context: ValidationContext(), renderings: nil), options: options)
        defer { server.stop() }
        let port = try #require(server.tcpPort)
        let client = UnixHTTPClient(socketPath: nil)!
        let r = try client.request("POST", url: "http://127.0.0.1:\(port)/3/device/abcd", headers: [], body: Array(APNsAnswerTests.ok.utf8)).get()
        #expect(r.status == 403)
        #expect(String(decoding: r.body, as: UTF8.self) == #"{"reason":"MissingProviderToken"}"#)
        #expect(r.header("apns-id").map(PushHeaders.isCanonicalUUID) == true)
        #expect(store.count == 0)
    }
}

/// A client for a socket path (tests only).
enum UnixHTTPClientFactory {
    static func make(_ path: String) -> UnixHTTPClient { UnixHTTPClient(socketPath: path)! }
}

/// A handler whose requests each wait until `count` of them are in at once (at most 5 s):
/// 200 when they all were, 503 when the wait ran out.
private final class Rendezvous: HTTPRequestHandler, @unchecked Sendable {
    // `arrived` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var arrived = 0
    private let count: Int
    init(count: Int) { self.count = count }

    func early(_ head: RequestHead) -> EarlyAnswer { EarlyAnswer(response: nil, maxBody: 1024) }
    func tooLarge(_ head: RequestHead) -> HTTPResponse { HTTPResponse(status: 413) }
    func answered(_ head: RequestHead, _ response: HTTPResponse) {}
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date().addingTimeInterval(5)
        while arrived < count && condition.wait(until: deadline) {}
        return HTTPResponse(status: arrived >= count ? 200 : 503)
    }
}

@Suite("Connections spread over the socket's threads")
struct SocketThreadTests {
    @Test("as many keep-alive clients as threads are each served by a thread of their own, so their requests are handled at once")
    func oneThreadEach() throws {
        let dir = NSTemporaryDirectory() + "pushbox-threads-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.sock"
        let clients = 4
        let server = try HTTPServer(
            listenFD: try Listeners.unixSocket(path), handler: Rendezvous(count: clients),
            connection: ConnectionInfo(listener: "unix \(path)", protocolName: "http/1.1", tls: false, requiresAuth: false), threads: clients)
        defer { server.stop() }
        // Every client connects before any sends: the server has all of them before the first request.
        let fds = (0..<clients).map { _ in RawSocket.connect(path) }
        usleep(100_000)
        // A thread per client (concurrentPerform runs no more at once than there are cores).
        let answers = Locked<[String]>([])
        let done = DispatchGroup()
        for fd in fds {
            done.enter()
            Thread.detachNewThread {
                _ = RawSocket.send(fd, Array("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
                let text = RawSocket.readAll(fd)
                close(fd)
                answers.withLock { $0.append(String(text.prefix(12))) }
                done.leave()
            }
        }
        done.wait()
        #expect(answers.withLock { $0 } == Array(repeating: "HTTP/1.1 200", count: clients))
    }
}
