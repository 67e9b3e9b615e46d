import Foundation
import PushboxJSON

#if canImport(Glibc)
    import Glibc
#endif

/// Why a listening socket could not be opened, in words for the command line.
public struct ListenError: Error, Sendable, CustomStringConvertible {
    /// What could not be started, in words.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// Where the socket lives and how it is opened.
public enum Listeners {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    public static let maxSocketPathBytes = 107

    /// `$XDG_RUNTIME_DIR/pushbox/pushbox.sock`; without that variable, a private 0700 folder
    /// under /tmp named with the uid.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return (runtime as NSString).appendingPathComponent("pushbox/pushbox.sock")
        }
        return "/tmp/pushbox-\(getuid())/pushbox.sock"
    }

    /// The port socket beside the socket at `socketPath`: `pushbox.sock` → `pushbox-port.sock`.
    public static func portSocketPath(beside socketPath: String) -> String {
        (socketPath.hasSuffix(".sock") ? String(socketPath.dropLast(5)) : socketPath) + "-port.sock"
    }

    /// Binds and listens on a Unix socket with mode 0600. A stale socket file (nobody answering)
    /// is replaced; a live one (another pushbox) is an error; a path too long is refused.
    public static func unixSocket(_ path: String) throws(ListenError) -> Int32 {
        guard path.utf8.count <= maxSocketPathBytes else {
            throw ListenError(
                message:
                    "socket path \(path) is \(path.utf8.count) bytes; a Unix socket path holds at most \(maxSocketPathBytes). Pass a shorter --socket PATH"
            )
        }
        let dir = (path as NSString).deletingLastPathComponent
        try ensurePrivateDirectory(dir)
        if FileManager.default.fileExists(atPath: path) {
            if isAnswering(path) {
                throw ListenError(message: "another pushbox is already answering on \(path); stop it or pass another --socket PATH")
            }
            unlink(path)  // stale: left by a pushbox that is gone
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenError(message: "cannot create a socket: \(String(cString: strerror(errno)))") }
        // bind creates the file with the process's umask. Changing the umask would change it for
        // every thread, so the socket is bound where nobody else can reach it — its folder when
        // that is private, else a private folder beside it — made 0600, then moved into place.
        let staging = isPrivateDirectory(dir) ? nil : privateStagingDirectory(beside: path)
        let bindPath = staging.map { $0 + "/s" } ?? path
        defer {
            if let staging {
                unlink(staging + "/s")
                rmdir(staging)
            }
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buf in
            let bytes = Array(bindPath.utf8)
            for (i, b) in bytes.enumerated() { buf[i] = b }
            buf[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(bindPath, 0o600) == 0, bindPath == path || rename(bindPath, path) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw ListenError(message: "cannot bind \(path): \(why)")
        }
        guard listen(fd, 256) == 0 else {
            close(fd)
            throw ListenError(message: "cannot listen on \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    /// The default folder under /tmp must be ours and private; an XDG runtime folder is created as needed.
    static func ensurePrivateDirectory(_ dir: String) throws(ListenError) {
        var info = stat()
        if lstat(dir, &info) != 0 {
            // Missing: made private, parents included (XDG_RUNTIME_DIR may lack pushbox/).
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ListenError(message: "cannot create \(dir): \(FileErrorText.describe(error))")
            }
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw ListenError(message: "\(dir) is not a folder") }
        if dir.hasPrefix("/tmp/") {
            guard info.st_uid == getuid() else { throw ListenError(message: "\(dir) belongs to another user; refusing to put the socket there") }
            if info.st_mode & 0o077 != 0 { chmod(dir, 0o700) }
        }
    }

    /// Whether `dir` is ours and closed to everyone else (mode 0700 or stricter).
    static func isPrivateDirectory(_ dir: String) -> Bool {
        var info = stat()
        return stat(dir, &info) == 0 && info.st_uid == getuid() && info.st_mode & 0o077 == 0
    }

    /// A new 0700 folder in the socket's folder to bind in, when its path still fits a socket
    /// address (else nil: the socket is bound in place and made 0600 right after).
    static func privateStagingDirectory(beside path: String) -> String? {
        let template = (path as NSString).deletingLastPathComponent + "/.pushbox-XXXXXX"
        guard template.utf8.count + 2 <= maxSocketPathBytes else { return nil }
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { return nil }
        return String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether something accepts connections on the socket file.
    public static func isAnswering(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buf in
            let bytes = Array(path.utf8.prefix(maxSocketPathBytes))
            for (i, b) in bytes.enumerated() { buf[i] = b }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// The host part of `HOST:PORT` (`localhost` read as 127.0.0.1).
    static func host(of spec: String) -> String {
        guard let colon = spec.lastIndex(of: ":") else { return spec }
        let host = String(spec[..<colon])
        return host == "localhost" ? "127.0.0.1" : host
    }

    /// A TCP listener for `--listen HOST:PORT`: loopback only unless `allowAny`.
    public static func tcp(_ spec: String, allowAny: Bool) throws(ListenError) -> (fd: Int32, port: Int) {
        guard let colon = spec.lastIndex(of: ":"), let port = UInt16(spec[spec.index(after: colon)...]) else {
            throw ListenError(message: "--listen \(spec): expected HOST:PORT, e.g. 127.0.0.1:2197")
        }
        let host = String(spec[..<colon])
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            throw ListenError(message: "--listen \(spec): \(host) is not an IPv4 address")
        }
        let isLoopback = UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
        guard isLoopback || allowAny else {
            throw ListenError(message: "--listen \(spec) is not a loopback address; pass --listen-any to accept connections from other machines")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 256) == 0 else {
            let code = errno
            close(fd)
            if code == EADDRINUSE {
                throw ListenError(
                    message: "port \(port) on \(host) is in use (another pushbox?); pass --listen HOST:PORT for another port, or --listen off")
            }
            throw ListenError(
                message: "cannot listen on \(spec): \(String(cString: strerror(code))); pass another --listen HOST:PORT, or --listen off")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
