import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTPS proxy on pushbox's port: `CONNECT` to a host pushbox stands in for, served by
/// pushbox itself.
extension PortListener {
    /// The hosts pushbox stands in for through `CONNECT host:443`; nothing else is tunnelled,
    /// and no outbound connection is ever opened: the tunnel is served by pushbox itself.
    public static let proxiedHosts: Set<String> = [
        "api.push.apple.com", "api.sandbox.push.apple.com", "api.development.push.apple.com",
        "api-manage-broadcast.push.apple.com", "api-manage-broadcast.sandbox.push.apple.com", "fcm.googleapis.com", "oauth2.googleapis.com",
        "www.googleapis.com", "iid.googleapis.com",
    ]

    /// An HTTPS proxy that never connects out: `CONNECT` to a host pushbox stands in for (or to
    /// pushbox's own address) is answered 200 and the tunnel is served here, with TLS for that
    /// name from the local CA; any other host is refused with 403.
    /// True when the tunnel's connection went to the HTTP/2 loop (which closes `fd`).
    func serveConnect(_ fd: Int32, wakeup: Wakeup, origin: Origin) -> Bool {
        var handedOff = false
        defer { if !handedOff { close(fd) } }
        guard let head = Self.readHead(fd, wakeup: wakeup, timeoutMs: handshakeTimeoutMs) else { return false }
        let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        guard let (host, port) = Self.hostAndPort(target) else {
            answerPlain(fd, 400, "Bad Request", "CONNECT needs HOST:PORT; got \(target)\n")
            return false
        }
        let own = ["localhost", "127.0.0.1", "::1"].contains(host) && port == self.port
        // The broadcast channel API listens on 2195 (development) and 2196 (production).
        let ports: Set<Int> = host.hasPrefix("api-manage-broadcast.") ? [443, 2195, 2196] : [443]
        guard (Self.proxiedHosts.contains(host) && ports.contains(port)) || own else {
            let why =
                "pushbox only stands in for \(Self.proxiedHosts.sorted().joined(separator: ", ")) (port 443); it never connects anywhere else, so CONNECT \(target) is refused."
            // On record before the answer goes out: a client that reads the 403 and looks at the
            // log at once finds it there.
            var response = HTTPResponse(status: 403)
            response.cause = "not a host pushbox stands in for"
            let info = ConnectionInfo(listener: origin.name, protocolName: "http/1.1", tls: false, requiresAuth: true)
            handler.answered(RequestHead(method: "CONNECT", path: target, headers: [], connection: info), response)
            answerPlain(fd, 403, "Forbidden", why + "\n")
            return false
        }
        guard
            writeAll(PlainStream(fd: fd), fd: fd, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8), deadline: monotonicMilliseconds() + 1000)
        else { return false }
        switch Self.sniff(fd, wakeup: wakeup, timeoutMs: handshakeTimeoutMs) {
        case .tls:
            var tunnelled = origin
            tunnelled.tunnel = "\(host):\(port)"
            handedOff = serveTLS(fd, wakeup: wakeup, origin: tunnelled)
        case .connect: answerPlain(fd, 400, "Bad Request", "a CONNECT inside a tunnel is refused: start TLS to \(host)\n")
        case .h2c, .http1: answerPlain(fd, 400, "Bad Request", "pushbox expected TLS inside the tunnel to \(host):\(port)\n")
        case .closed: break
        }
        return handedOff
    }

    /// `HOST:PORT` or `[V6]:PORT`.
    public static func hostAndPort(_ target: String) -> (String, Int)? {
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else { return nil }
        var host = String(target[..<colon]).lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    /// Reads a request head up to its blank line (at most 8 KB), consuming nothing past it.
    static func readHead(_ fd: Int32, wakeup: Wakeup, timeoutMs: UInt64) -> String? {
        let deadline = monotonicMilliseconds() + timeoutMs
        var buffer = [UInt8](repeating: 0, count: 8192)
        let end = Array("\r\n\r\n".utf8)
        while monotonicMilliseconds() < deadline {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_PEEK | MSG_DONTWAIT))
            if n == 0 { return nil }
            if n > 0, let range = buffer[0..<n].firstRange(of: end) {
                var head = [UInt8](repeating: 0, count: range.upperBound)
                guard recv(fd, &head, head.count, 0) == head.count else { return nil }
                return String(decoding: head, as: UTF8.self)
            }
            if n == buffer.count { return nil }
            _ = waitReady(fd, events: Int16(POLLIN), wakeup: wakeup, timeout: 100)
        }
        return nil
    }

    func answerPlain(_ fd: Int32, _ status: Int, _ phrase: String, _ body: String) {
        let answer =
            "HTTP/1.1 \(status) \(phrase)\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = writeAll(PlainStream(fd: fd), fd: fd, Array(answer.utf8), deadline: monotonicMilliseconds() + 1000)
    }
}
