import Foundation
import PushboxJSON
import PushboxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests and benchmarks: each request gets a scripted
/// response (status, headers, body sent in chunks with optional pauses, or a stall that never
/// finishes). It binds an ephemeral port on loopback only, and `stop()` ends every connection.
public final class LoopbackHTTPServer: Sendable {
    /// What to answer one request with.
    public struct Response: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Response headers, in order.
        public var headers: [(String, String)]
        /// The body's bytes.
        public var body: [UInt8]
        /// Bytes per write.
        public var chunkSize: Int
        /// Pause between chunks, in seconds.
        public var chunkDelay: Double
        /// Send the headers, then nothing until the server stops.
        public var stall: Bool

        /// A response; by default 200 with no body, sent in one piece.
        public init(
            status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], chunkSize: Int = 65536, chunkDelay: Double = 0,
            stall: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.chunkSize = chunkSize
            self.chunkDelay = chunkDelay
            self.stall = stall
        }

        /// A redirect to `location`.
        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [("Location", location)])
        }
    }

    /// Chooses the response for a request path.
    public typealias Handler = @Sendable (_ path: String) -> Response

    /// The port it listens on (chosen by the system).
    public let port: Int
    private let listener: Int32
    private let handler: Handler
    /// Whether stop() was called, and the paths requested so far.
    private let state = Locked<(stopped: Bool, requests: [String])>((false, []))

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Paths requested so far, in order.
    public var requestedPaths: [String] {
        state.withLock { $0.requests }
    }

    /// Binds an ephemeral port on 127.0.0.1 and answers every request with `handler`.
    public init(handler: @escaping Handler) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1 only
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// Whether `stop` was called.
    public var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    /// Stops accepting, and makes stalled responses end.
    public func stop() {
        let wasStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        if !wasStopped {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private func acceptLoop() {
        while !isStopped {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if isStopped { return }
                continue
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16384 {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return }
            head += buffer[0..<n]
            if Self.endsHead(head) { break }
        }
        let requestLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        state.withLock { $0.requests.append(path) }
        let response = handler(path)
        var text = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\nConnection: close\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        if !response.stall { text += "Content-Length: \(response.body.count)\r\n" }
        text += "\r\n"
        guard send(fd, Array(text.utf8)) else { return }
        if response.stall {
            while !isStopped { usleep(20_000) }
            return
        }
        var offset = 0
        while offset < response.body.count, !isStopped {
            let end = min(offset + max(1, response.chunkSize), response.body.count)
            guard send(fd, Array(response.body[offset..<end])) else { return }
            offset = end
            if response.chunkDelay > 0 { usleep(useconds_t(response.chunkDelay * 1_000_000)) }
        }
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Whether the bytes hold the blank line that ends a request head.
    static func endsHead(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return true
        }
        return false
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 404: return "Not Found"
        case 500: return "Internal Server Error"
        default: return "Status"
        }
    }
}
