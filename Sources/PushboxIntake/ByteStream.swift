import Foundation
import PushboxTLS

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes in and out of one accepted connection on a non-blocking socket: the socket itself, or
/// TLS over it. Each call says how many bytes moved or what the socket must be ready for first.
protocol ByteStream: AnyObject {
    func read(_ buffer: UnsafeMutableRawBufferPointer) -> TLSStream.Progress
    func write(_ buffer: UnsafeRawBufferPointer) -> TLSStream.Progress
    /// Whether a read may return more without the socket being readable (TLS records read
    /// ahead); a read that says `wantRead` needs the socket.
    var mayHaveMore: Bool { get }
    /// Reads take every record the socket holds at once (TLS read-ahead); the reader then reads
    /// on while `mayHaveMore`.
    func readAhead()
}

/// The socket as it is (h2c, or bytes sniffed before TLS was chosen).
final class PlainStream: ByteStream {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }

    func read(_ buffer: UnsafeMutableRawBufferPointer) -> TLSStream.Progress {
        let n = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
        if n > 0 { return .done(n) }
        if n == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wantRead }
        return .failed(String(cString: strerror(errno)))
    }

    func write(_ buffer: UnsafeRawBufferPointer) -> TLSStream.Progress {
        let n = send(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        if n >= 0 { return .done(n) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wantWrite }
        return .failed(String(cString: strerror(errno)))
    }

    var mayHaveMore: Bool { false }
    func readAhead() {}
}

extension TLSStream: ByteStream {
    var mayHaveMore: Bool { hasPending }
}

/// A pipe that wakes a connection's poll from another thread (an answer is ready, or the
/// listener is stopping).
final class Wakeup: Sendable {
    // Both descriptors are fixed at init and closed once in deinit.
    let readFD: Int32
    let writeFD: Int32

    init?() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    func signal() {
        var byte: UInt8 = 1
        _ = Glibc.write(writeFD, &byte, 1)
    }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while Glibc.read(readFD, &bytes, bytes.count) > 0 {}
    }

    deinit {
        close(readFD)
        close(writeFD)
    }
}

/// Waits until `fd` is ready for `events` or `wakeup` is signalled, at most `timeout` ms.
/// Returns the events seen on `fd` (0 on time-out or wakeup only).
func waitReady(_ fd: Int32, events: Int16, wakeup: Wakeup?, timeout: Int32) -> Int16 {
    var fds = [pollfd(fd: fd, events: events, revents: 0)]
    if let wakeup { fds.append(pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0)) }
    let n = poll(&fds, nfds_t(fds.count), timeout)
    guard n > 0 else { return 0 }
    if fds.count > 1, fds[1].revents != 0 { wakeup?.drain() }
    return fds[0].revents
}

/// Writes all of `bytes`, waiting for the socket as needed, until `deadline` (ms of monotonic time).
func writeAll(_ stream: ByteStream, fd: Int32, _ bytes: [UInt8], deadline: UInt64) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let progress = bytes.withUnsafeBytes { stream.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        switch progress {
        case .done(let n): offset += n
        case .wantWrite, .wantRead:
            guard monotonicMilliseconds() < deadline else { return false }
            _ = waitReady(fd, events: Int16(progress == .wantRead ? POLLIN : POLLOUT), wakeup: nil, timeout: 200)
        case .closed, .failed: return false
        }
    }
    return true
}

/// Milliseconds of monotonic time, for deadlines.
func monotonicMilliseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
}
