import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts on the listeners made inside the namespace and relays each connection, byte for
/// byte, to a Unix socket outside (pushbox's port socket), which speaks what the TCP port
/// speaks: TLS with SNI, h2, h2c, HTTP/1.1, CONNECT. Nothing is read or changed on the way.
public final class ConnectionRelay: @unchecked Sendable {
    // @unchecked: `stopping`, `open` and the counters are touched under `lock` only; the rest is
    // immutable after init.
    private let listeners: [Int32]
    private let target: String
    private let lock = NSCondition()
    private var stopping = false
    private var open = 0
    private var relayed = 0
    private var unreachable = 0
    private let wake: [Int32]
    private let acceptDone = DispatchSemaphore(value: 0)

    /// Relays connections on `listeners` (listening sockets, now owned by the relay) to the Unix
    /// socket at `target`.
    public init(listeners: [Int32], target: String) {
        self.listeners = listeners
        self.target = target
        var pipeFDs: [Int32] = [0, 0]
        _ = pipe(&pipeFDs)
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wake = pipeFDs
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Connections relayed, and those closed because nothing answered on the target.
    public var counts: (relayed: Int, unreachable: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (relayed, unreachable)
    }

    /// Stops accepting and waits up to `seconds` for open connections to end.
    public func stop(waiting seconds: Double = 2) {
        lock.lock()
        let already = stopping
        stopping = true
        lock.unlock()
        guard !already else { return }
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        acceptDone.wait()
        for fd in listeners { close(fd) }
        lock.lock()
        let deadline = Date().addingTimeInterval(seconds)
        while open > 0 && lock.wait(until: deadline) {}
        lock.unlock()
        close(wake[0])
        close(wake[1])
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private func acceptLoop() {
        defer { acceptDone.signal() }
        var fds = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        while !isStopping {
            guard poll(&fds, nfds_t(fds.count), 1000) > 0 else { continue }
            if fds.last!.revents != 0 { return }
            for i in 0..<listeners.count where fds[i].revents & Int16(POLLIN) != 0 {
                let client = accept(fds[i].fd, nil, nil)
                guard client >= 0 else { continue }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                lock.lock()
                open += 1
                lock.unlock()
                Thread.detachNewThread { [self] in
                    relay(client)
                    lock.lock()
                    open -= 1
                    lock.broadcast()
                    lock.unlock()
                }
            }
        }
    }

    private func relay(_ client: Int32) {
        defer { close(client) }
        guard let upstream = Self.connectUnix(target) else {
            lock.lock()
            unreachable += 1
            lock.unlock()
            return
        }
        defer { close(upstream) }
        lock.lock()
        relayed += 1
        lock.unlock()
        Self.pump(client, upstream)
    }

    /// Copies both ways until both sides have finished; a side's end of input becomes a
    /// half-close of the other, so a client that shuts down writing still gets its answer.
    static func pump(_ a: Int32, _ b: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var open = [true, true]  // a→b, b→a still carrying bytes
        let ends = [(a, b), (b, a)]
        while open[0] || open[1] {
            var fds = [
                pollfd(fd: a, events: open[0] ? Int16(POLLIN) : 0, revents: 0), pollfd(fd: b, events: open[1] ? Int16(POLLIN) : 0, revents: 0),
            ]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            for (i, (from, to)) in ends.enumerated() where open[i] && fds[i].revents != 0 {
                let n = read(from, &buffer, buffer.count)
                if n <= 0 {
                    if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                    open[i] = false
                    shutdown(to, Int32(SHUT_WR))
                    if n < 0 { return }
                    continue
                }
                guard writeAll(to, buffer, n) else { return }
            }
        }
    }

    static func writeAll(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let n = buffer.withUnsafeBytes { send(fd, $0.baseAddress! + done, count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// A connected Unix socket to `path`, or nil when nothing answers there.
    public static func connectUnix(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buf in
            for (i, b) in bytes.enumerated() { buf[i] = b }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
