import CPosix
import Foundation
import PushboxPayload
import PushboxSystem
import PushboxTLS

#if canImport(Glibc)
    import Glibc
#endif

// @unchecked: `stopping` and `live` are read and written with `lock` (a condition) held, which
// stop() waits on; the rest is immutable. PortTests connects from many clients at once.
/// pushbox's one TCP port for every client. Each accepted connection is told apart from its
/// first bytes, without consuming them: a TLS ClientHello (then ALPN `h2` or `http/1.1`, or no
/// ALPN and the HTTP/2 preface), the cleartext HTTP/2 preface (h2c), a `CONNECT` (a tunnel
/// pushbox serves itself, for the hosts it stands in for), or else HTTP/1.1. A connection's
/// first bytes and handshake are taken on a thread of its own; then HTTP/2 is served by nghttp2
/// on one of the listener's `HTTP2Loop`s;
/// HTTP/1.1 goes to libmicrohttpd, directly in clear or through a socket pair inside TLS, so
/// there is one HTTP/1.1 implementation.
public final class PortListener: @unchecked Sendable {
    // Immutable after init, except `stopping` and `live` (under `lock`).
    /// The address it listens on.
    public let address: String
    /// The port it listens on.
    public let port: Int
    /// The Unix socket it listens on instead of TCP (the port socket `pushbox exec` relays to).
    public let unixPath: String?
    let listenFD: Int32
    let handler: HTTPRequestHandler
    let tls: TLSServerContext?
    let http1: HTTPServer
    let http1InTLS: HTTPServer
    let idleTimeoutMs: Int
    /// Where the HTTP/2 loop hands its batches of requests.
    let workers = DispatchQueue(label: "pushbox.port.requests", attributes: .concurrent)
    /// Serve the HTTP/2 connections once their handshakes are done (made in init, then fixed).
    private(set) var loops: [HTTP2Loop] = []
    /// The loop the next HTTP/2 connection goes to (they take turns).
    private let loopTurn = Locked(0)
    private let lock = NSCondition()
    private var stopping = false
    private var live: [ObjectIdentifier: Wakeup] = [:]
    private let acceptor: Acceptor
    /// Connections served at once at most; more are closed on accept.
    static let connectionLimit = 512
    static let h2Preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// How long a client may take to send its first bytes or finish the TLS handshake: 10 s,
    /// or the idle timeout when that is shorter.
    var handshakeTimeoutMs: UInt64 { UInt64(min(10_000, idleTimeoutMs)) }

    /// Serves `listenFD` (bound and listening on `address:port`, or on the Unix socket
    /// `unixPath`). `tls` nil serves only cleartext.
    public init(
        listenFD: Int32, address: String, port: Int, unixPath: String? = nil, handler: HTTPRequestHandler, tls: TLSServerContext?,
        threads: Int, idleTimeout: Int
    ) throws(ListenError) {
        self.listenFD = listenFD
        self.address = address
        self.port = port
        self.unixPath = unixPath
        self.handler = handler
        self.tls = tls
        idleTimeoutMs = idleTimeout * 1000
        let listener = unixPath.map { "unix \($0)" } ?? "tcp \(address):\(port)"
        http1 = try HTTPServer(
            handler: handler, connection: ConnectionInfo(listener: listener, protocolName: "http/1.1", tls: false, requiresAuth: true),
            threads: threads, idleTimeout: idleTimeout)
        http1InTLS = try HTTPServer(
            handler: handler, connection: ConnectionInfo(listener: listener, protocolName: "http/1.1", tls: true, requiresAuth: true),
            threads: 1, idleTimeout: idleTimeout)
        guard let acceptor = Acceptor(listenFD: listenFD) else { throw ListenError(message: "cannot make a pipe for the listener") }
        self.acceptor = acceptor
        for _ in 0..<HTTP2Loop.perListener {
            guard let loop = HTTP2Loop(handler: handler, workers: workers, isStopping: { [weak self] in self?.isStopping ?? true }) else {
                throw ListenError(message: "cannot make a pipe for the HTTP/2 loop")
            }
            loops.append(loop)
        }
        acceptor.start { [self] fd in accepted(fd) }
    }

    /// Connections accepted and not ended yet.
    var liveConnections: Int {
        lock.lock()
        defer { lock.unlock() }
        return live.count
    }

    var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Stops accepting, sends GOAWAY (`Shutdown`) on every HTTP/2 connection, waits up to 3 s
    /// for answers in flight, then stops the HTTP/1.1 servers.
    public func stop() {
        lock.lock()
        if stopping {
            lock.unlock()
            return
        }
        stopping = true
        for w in live.values { w.signal() }
        lock.unlock()
        for loop in loops { loop.signal() }
        acceptor.stop()
        close(listenFD)
        lock.lock()
        let deadline = Date().addingTimeInterval(3)
        while !live.isEmpty && lock.wait(until: deadline) {}
        lock.unlock()
        http1.stop()
        http1InTLS.stop()
    }

    /// A connection the acceptor took: served on a thread of its own, or closed when the
    /// listener is full or stopping.
    private func accepted(_ fd: Int32) {
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard let wakeup = Wakeup() else {
            close(fd)
            return
        }
        lock.lock()
        let full = live.count >= Self.connectionLimit || stopping
        let key = ObjectIdentifier(wakeup)
        if !full { live[key] = wakeup }
        lock.unlock()
        if full {
            close(fd)
            return
        }
        Thread.detachNewThread { [self] in
            // A connection handed to the HTTP/2 loop is let go when the loop ends it.
            if !serve(fd, wakeup: wakeup) { release(wakeup) }
        }
    }

    /// The connection `wakeup` belongs to has ended.
    private func release(_ wakeup: Wakeup) {
        lock.lock()
        live[ObjectIdentifier(wakeup)] = nil
        lock.broadcast()
        lock.unlock()
    }

    /// What the first bytes of a connection are.
    public enum Opening: Equatable, Sendable { case tls, h2c, connect, http1, closed }

    /// Peeks until the first bytes tell the protocol apart (or the client is silent too long).
    static func sniff(_ fd: Int32, wakeup: Wakeup?, timeoutMs: UInt64) -> Opening {
        let deadline = monotonicMilliseconds() + timeoutMs
        var buffer = [UInt8](repeating: 0, count: 24)
        while monotonicMilliseconds() < deadline {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_PEEK | MSG_DONTWAIT))
            if n == 0 { return .closed }
            if n < 0 {
                guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return .closed }
                _ = waitReady(fd, events: Int16(POLLIN), wakeup: wakeup, timeout: 200)
                continue
            }
            if let kind = classify(Array(buffer[0..<n])) { return kind }
            _ = waitReady(fd, events: Int16(POLLIN), wakeup: wakeup, timeout: 50)
        }
        return .closed
    }

    /// The protocol `bytes` open with, or nil while they could still be more than one.
    public static func classify(_ bytes: [UInt8]) -> Opening? {
        guard let first = bytes.first else { return nil }
        if first == 0x16 { return .tls }
        if let kind = matchPrefix(bytes, h2Preface, .h2c) { return kind }
        if let kind = matchPrefix(bytes, Array("CONNECT ".utf8), .connect) { return kind }
        // Neither preface can still match: HTTP/1.1 (libmicrohttpd judges the rest).
        if bytes.starts(with: h2Preface.prefix(bytes.count)) || bytes.starts(with: Array("CONNECT ".utf8).prefix(bytes.count)) { return nil }
        return .http1
    }

    private static func matchPrefix(_ bytes: [UInt8], _ prefix: [UInt8], _ kind: Opening) -> Opening? {
        bytes.count >= prefix.count && bytes.starts(with: prefix) ? kind : nil
    }

    /// Where one connection came from, as its requests are recorded.
    struct Origin {
        /// `tcp ADDRESS:PORT`, or `unix PATH (pid N)` on the port socket: the process that
        /// connected (the `pushbox exec` relaying for its command).
        var listener: String
        /// The CONNECT target when the connection came through one.
        var tunnel: String?
        /// Whether the listener's own description (the HTTP/1.1 server's) says it all.
        var isPlain: Bool
        var name: String { listener + (tunnel.map { " via CONNECT \($0)" } ?? "") }
    }

    /// The origin of the accepted connection `fd`.
    func origin(of fd: Int32) -> Origin {
        guard let unixPath else { return Origin(listener: "tcp \(address):\(port)", isPlain: true) }
        let pid = pb_peer_pid(fd)
        return Origin(listener: "unix \(unixPath)" + (pid > 0 ? " (pid \(pid))" : ""), isPlain: pid <= 0)
    }

    /// Serves the accepted `fd` until it ends, or hands it to the HTTP/2 loop (true), which
    /// closes it and lets it go when it ends.
    private func serve(_ fd: Int32, wakeup: Wakeup) -> Bool {
        let origin = origin(of: fd)
        switch Self.sniff(fd, wakeup: wakeup, timeoutMs: handshakeTimeoutMs) {
        case .closed:
            close(fd)
        case .http1:
            if origin.isPlain {
                http1.add(fd)
            } else {
                http1.add(fd, connection: ConnectionInfo(listener: origin.name, protocolName: "http/1.1", tls: false, requiresAuth: true))
            }
        case .connect:
            return serveConnect(fd, wakeup: wakeup, origin: origin)
        case .h2c:
            serveHTTP2(PlainStream(fd: fd), fd: fd, protocolName: "h2c", tls: false, certificate: nil, initial: [], wakeup: wakeup, origin: origin)
            return true
        case .tls:
            if serveTLS(fd, wakeup: wakeup, origin: origin) { return true }
            close(fd)
        }
        return false
    }

    /// Hands the connection to the HTTP/2 loop, which serves it to its end, then says TLS's
    /// close_notify (unless chaos reset it: the close is then the TCP RST), closes `fd` and
    /// lets the connection go.
    private func serveHTTP2(
        _ stream: ByteStream, fd: Int32, protocolName: String, tls: Bool, certificate: ClientCertificate?,
        initial: [UInt8], wakeup: Wakeup, origin: Origin
    ) {
        let info = ConnectionInfo(
            listener: origin.name, protocolName: protocolName, tls: tls, requiresAuth: true, certificate: certificate, connectTarget: origin.tunnel)
        let loop = loops[
            loopTurn.withLock { turn in
                defer { turn = (turn + 1) % loops.count }
                return turn
            }]
        let connection = HTTP2Connection(
            stream: stream, fd: fd, connection: info, loop: loop, idleTimeoutMs: idleTimeoutMs, initial: initial
        ) { [self] reset in
            if !reset, let tls = stream as? TLSStream { tls.shutdown() }
            close(fd)
            release(wakeup)
        }
        loop.add(connection)
    }

    /// The description of HTTP/1.1 over TLS: the server's own, unless a tunnel, a client
    /// certificate or the connecting process makes it this connection's.
    func http1Description(origin: Origin, certificate: ClientCertificate?) -> ConnectionInfo? {
        guard origin.tunnel != nil || certificate != nil || !origin.isPlain else { return nil }
        return ConnectionInfo(
            listener: origin.name, protocolName: "http/1.1", tls: true, requiresAuth: true, certificate: certificate, connectTarget: origin.tunnel)
    }

    /// Drives a server handshake on the non-blocking `fd` to its end, waiting between steps for
    /// only what it asks: readable for `wantRead`, writable for `wantWrite` (a socket is nearly
    /// always writable, so waiting for either spun the thread until the client's next flight).
    /// Gives whether it completed before `deadline` and how often it waited.
    static func handshake(_ stream: TLSStream, fd: Int32, wakeup: Wakeup?, deadline: UInt64, stopping: () -> Bool) -> (done: Bool, waits: Int) {
        var waits = 0
        while true {
            let events: Int32
            switch stream.handshake() {
            case .done: return (true, waits)
            case .wantRead: events = POLLIN
            case .wantWrite: events = POLLOUT
            case .closed, .failed: return (false, waits)  // the client gave up, or spoke no TLS we accept
            }
            guard monotonicMilliseconds() < deadline, !stopping() else { return (false, waits) }
            _ = waitReady(fd, events: Int16(events), wakeup: wakeup, timeout: 200)
            waits += 1
        }
    }

    /// `origin` says where the connection came from (and the `CONNECT` it came through, if any).
    /// True when the connection went to the HTTP/2 loop, which closes `fd`.
    func serveTLS(_ fd: Int32, wakeup: Wakeup, origin: Origin) -> Bool {
        guard let context = tls, let stream = TLSStream(context: context, fd: fd) else { return false }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let deadline = monotonicMilliseconds() + handshakeTimeoutMs
        guard Self.handshake(stream, fd: fd, wakeup: wakeup, deadline: deadline, stopping: { [self] in isStopping }).done else { return false }
        let certificate = stream.clientCertificate
        switch stream.alpn {
        case "h2":
            serveHTTP2(stream, fd: fd, protocolName: "h2", tls: true, certificate: certificate, initial: [], wakeup: wakeup, origin: origin)
            return true
        case "http/1.1":
            TLSBridge(
                stream: stream, fd: fd, server: http1InTLS, wakeup: wakeup, listener: self,
                connection: http1Description(origin: origin, certificate: certificate)
            ).run(initial: [])
        default:
            // No ALPN (as aioapns connects): the first plaintext bytes say which.
            var initial: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while initial.count < Self.h2Preface.count && (initial.isEmpty || Self.h2Preface.starts(with: initial)) {
                let progress = buffer.withUnsafeMutableBytes { stream.read($0) }
                switch progress {
                case .done(let n): initial += buffer[0..<n]
                case .wantRead, .wantWrite:
                    guard monotonicMilliseconds() < deadline + handshakeTimeoutMs, !isStopping else { return false }
                    _ = waitReady(fd, events: Int16(POLLIN), wakeup: wakeup, timeout: 200)
                case .closed, .failed: return false
                }
            }
            if initial.starts(with: Self.h2Preface) {
                serveHTTP2(stream, fd: fd, protocolName: "h2", tls: true, certificate: certificate, initial: initial, wakeup: wakeup, origin: origin)
                return true
            } else {
                TLSBridge(
                    stream: stream, fd: fd, server: http1InTLS, wakeup: wakeup, listener: self,
                    connection: http1Description(origin: origin, certificate: certificate)
                ).run(initial: initial)
            }
        }
        stream.shutdown()
        return false
    }
}
