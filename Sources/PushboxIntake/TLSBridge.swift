import Foundation
import PushboxTLS

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/1.1 inside TLS: the plaintext is pumped between the TLS stream and one end of a socket
/// pair whose other end libmicrohttpd serves, so HTTP/1.1 has one implementation.
final class TLSBridge {
    let stream: TLSStream
    let fd: Int32
    let server: HTTPServer
    let wakeup: Wakeup
    let listener: PortListener
    /// How its requests arrived, when not as the server's own (a CONNECT tunnel).
    let connection: ConnectionInfo?

    init(stream: TLSStream, fd: Int32, server: HTTPServer, wakeup: Wakeup, listener: PortListener, connection: ConnectionInfo? = nil) {
        self.stream = stream
        self.fd = fd
        self.server = server
        self.wakeup = wakeup
        self.listener = listener
        self.connection = connection
    }

    func run(initial: [UInt8]) {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return }
        let inner = pair[1]
        defer { close(inner) }
        let served = pair[0]
        guard let token = server.add(served, connection: connection) else { return }
        defer { server.forget(served, token: token) }
        _ = fcntl(inner, F_SETFL, fcntl(inner, F_GETFL) | O_NONBLOCK)
        let plain = PlainStream(fd: inner)
        var toServer = initial
        var toClient: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var lastActivity = monotonicMilliseconds()
        while !listener.isStopping {
            // Write what is waiting in each direction.
            if !toServer.isEmpty, case .done(let n) = toServer.withUnsafeBytes({ plain.write($0) }) { toServer.removeFirst(n) }
            if !toClient.isEmpty {
                switch toClient.withUnsafeBytes({ stream.write($0) }) {
                case .done(let n): toClient.removeFirst(n)
                case .closed, .failed: return
                default: break
                }
            }
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN) | (toClient.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
                pollfd(fd: inner, events: Int16(POLLIN) | (toServer.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
                pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0),
            ]
            if stream.pending == 0 {
                let n = poll(&fds, 3, 1000)
                if fds[2].revents != 0 { wakeup.drain() }
                if n == 0 {
                    if monotonicMilliseconds() - lastActivity > UInt64(listener.idleTimeoutMs) { return }
                    continue
                }
            } else {
                fds[0].revents = Int16(POLLIN)
            }
            lastActivity = monotonicMilliseconds()
            if fds[0].revents != 0 && toServer.count < 1 << 20 {
                switch buffer.withUnsafeMutableBytes({ stream.read($0) }) {
                case .done(let n): toServer += buffer[0..<n]
                case .closed, .failed: return
                default: break
                }
            }
            if fds[1].revents != 0 && toClient.count < 1 << 20 {
                switch buffer.withUnsafeMutableBytes({ plain.read($0) }) {
                case .done(let n): toClient += buffer[0..<n]
                case .closed, .failed:
                    // libmicrohttpd closed its end: send what is left, then close.
                    _ = writeAll(stream, fd: fd, toClient, deadline: monotonicMilliseconds() + 1000)
                    return
                default: break
                }
            }
        }
    }
}
