import Foundation
import PushboxDevice
import PushboxFetch
import PushboxInbox
import PushboxPayload
import PushboxStore

@testable import PushboxIntake

/// A running intake on a temporary socket and database, stopped when the fixture goes away.
final class IntakeFixture {
    let dir: String
    let store: InboxStore
    let server: IntakeServer
    var socket: String { server.options.socketPath }

    /// `schedulerClock` gives the running instance a local scheduler on that clock.
    init(bundleID: String? = nil, watch: [String] = [], idleTimeout: Int = 30, polling: Bool = false, schedulerClock: SimulatedClock? = nil) throws {
        // Short: a Unix socket path holds at most 107 bytes.
        dir = "/tmp/pbt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        store = try InboxStore(path: dir + "/inbox.sqlite")
        let service = IntakeService(store: store, context: ValidationContext(bundleID: bundleID), renderings: nil)
        var options = IntakeServer.Options(socketPath: dir + "/s.sock")
        options.watch = watch
        options.idleTimeout = idleTimeout
        options.forcePolling = polling
        server = try IntakeServer(service: service, options: options, scheduler: schedulerClock.map { LocalScheduler(service: service, clock: $0) })
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func post(
        _ body: String, token: String = "abcd1234", headers: [(String, String)] = [("apns-push-type", "alert")],
        method: String = "POST", path: String? = nil
    ) -> UnixHTTPClient.Response {
        let client = UnixHTTPClient(socketPath: socket)!
        let url = "http://localhost" + (path ?? "/3/device/\(token)")
        return try! client.request(method, url: url, headers: headers, body: Array(body.utf8)).get()
    }

    static func reason(_ r: UnixHTTPClient.Response) -> String? {
        let text = String(decoding: r.body, as: UTF8.self)
        guard let range = text.range(of: "\"reason\":\"") else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }
}

/// A raw client for what curl will not do: a huge announced body, an idle connection.
enum RawSocket {
    static func connect(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buf in for (i, b) in path.utf8.enumerated() { buf[i] = b } }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it closes (or the 5 s receive timeout).
    static func readAll(_ fd: Int32) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
