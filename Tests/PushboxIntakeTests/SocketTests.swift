import Foundation
import PushboxFetch
import PushboxInbox
import PushboxPayload
import PushboxStore
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

    @Test("413 is answered from Content-Length without reading the 10 MB body")
    func tooLargeUnread() throws {
        let f = try IntakeFixture()
        let fd = RawSocket.connect(f.socket)
        defer { close(fd) }
        let head = "POST /3/device/abcd HTTP/1.1\r\nHost: localhost\r\napns-push-type: alert\r\nContent-Length: 10000000\r\n\r\n"
        _ = RawSocket.send(fd, Array(head.utf8))
        // Try to push the body anyway; the server answers and closes without reading it.
        let chunk = [UInt8](repeating: 0x61, count: 65536)
        var sent = 0
        for _ in 0..<20 {
            let n = RawSocket.send(fd, chunk)
            if n <= 0 { break }
            sent += n
        }
        let answer = RawSocket.readAll(fd)
        #expect(answer.hasPrefix("HTTP/1.1 413"))
        #expect(answer.contains("PayloadTooLarge"))
        #expect(f.server.bodyBytesRead == 0)
        #expect(f.store.count == 0)
    }

    @Test("a body with no length that outgrows the limit gets its connection closed after limit + 1 bytes")
    func chunkedTooLarge() throws {
        let f = try IntakeFixture()
        let fd = RawSocket.connect(f.socket)
        defer { close(fd) }
        let head = "POST /3/device/abcd HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
        _ = RawSocket.send(fd, Array(head.utf8))
        for _ in 0..<8 {
            _ = RawSocket.send(fd, Array("1000\r\n".utf8) + [UInt8](repeating: 0x61, count: 4096) + Array("\r\n".utf8))
        }
        _ = RawSocket.readAll(fd)
        #expect(f.server.bodyBytesRead <= 4097)
        #expect(f.store.count == 0)
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
