import Foundation
import PushboxInbox
import PushboxPayload
import PushboxTLS
import Synchronization

/// Everything `pushbox serve` and the TUI run: the APNs-shaped API on the Unix socket and on one
/// TCP port (TLS, HTTP/2, HTTP/1.1), and the folder watches, all feeding one intake service.
public final class IntakeServer: Sendable {
    /// What to listen on and how: the socket, the TCP port with its TLS and keys, the watches.
    public struct Options: Sendable {
        /// The Unix socket's path.
        public var socketPath: String
        /// Whether to open the Unix socket (`--no-socket`: another pushbox may be serving it).
        public var socket = true
        /// `HOST:PORT` of the TCP port (nil: none).
        public var tcp: String?
        /// The port socket: a Unix socket that speaks what the TCP port speaks (TLS with SNI, h2,
        /// h2c, HTTP/1.1, CONNECT), which `pushbox exec` relays its command's connections to
        /// (nil: none). Served with the port's TLS and keys.
        public var portSocketPath: String?
        /// Whether the port may listen beyond loopback.
        public var tcpAllowAny = false
        /// Folders to watch for payload files.
        public var watch: [String] = []
        /// Seconds an idle connection stays open.
        public var idleTimeout = 30
        /// libmicrohttpd's daemons (one thread each). No thread waits for a commit: a push's
        /// connection is parked while its batch is judged and committed (`RequestBatcher`), so the
        /// threads only read and answer; four, so that a slow request handled in place (a listing,
        /// a web page) holds one of them. (`pushbox-bench intake`, 16 clients on 2 cores: 16 threads
        /// each waiting on the group commit, 0.43× the anchor; batching, 0.51–0.55×, as fast with
        /// 2 daemons as with 4.)
        public static let defaultThreads = 4
        /// libmicrohttpd's pool of request threads.
        public var threads = Options.defaultThreads
        /// Connections open at once, at most.
        public var connectionLimit = 256
        /// Poll the folders instead of inotify.
        public var forcePolling = false
        /// TLS on the TCP port; nil serves it in clear only (h2c and HTTP/1.1).
        public var tls: TLSServerContext?
        /// Provider keys whose tokens the TCP port verifies.
        public var providerKeys: [RegisteredProviderKey] = []
        /// Public keys of the service accounts whose OAuth assertions are verified, by key id.
        public var serviceAccountKeys: [String: RS256Key] = [:]
        /// Where `fcm-credentials` leaves service accounts' public keys: read again when an
        /// assertion names a key pushbox does not know yet (a file made after serve started).
        public var serviceAccountDirectory: String?

        /// Options with the socket at `socketPath` and everything else at its default.
        public init(socketPath: String) { self.socketPath = socketPath }
    }

    /// The one path every payload takes in.
    public let service: IntakeService
    /// What it was started with.
    public let options: Options
    private let servers: [HTTPServer]
    private let port: PortListener?
    private let portSocket: PortListener?
    private let watcher: FolderWatcher?
    /// The routes every listener shares.
    public let router: APIRouter
    /// Set by the first `stop()`: the listeners are stopped and the socket file removed once.
    private let stopped = Atomic<Bool>(false)
    /// The TCP port actually bound, when `--listen` asked for one.
    public var tcpPort: Int? { port?.port }
    /// `HOST:PORT` of the TCP port as bound (an ephemeral port resolved), for banners and the header.
    public var tcpAddress: String? { port.map { "\($0.address):\($0.port)" } }

    /// `scheduler` answers the `/pushbox/…` paths and `accessLog` hears every answer of the HTTP
    /// API; both are fixed before any listener starts, so no request sees them missing.
    public init(
        service: IntakeService, options: Options, scheduler: LocalScheduler? = nil,
        onWatchEnded: @escaping @Sendable (String) -> Void = { _ in },
        accessLog: (@Sendable (RequestRecord) -> Void)? = nil
    ) throws(ListenError) {
        self.service = service
        self.options = options
        router = APIRouter(
            service: service, scheduler: scheduler, authenticator: ProviderAuthenticator(keys: options.providerKeys),
            fcm: FCMEndpoint(service: service, accountKeys: options.serviceAccountKeys, keyDirectory: options.serviceAccountDirectory),
            accessLog: accessLog)
        var servers: [HTTPServer] = []
        if options.socket {
            let fd = try Listeners.unixSocket(options.socketPath)
            let socketInfo = ConnectionInfo(listener: "unix \(options.socketPath)", protocolName: "http/1.1", tls: false, requiresAuth: false)
            do {
                servers.append(
                    try HTTPServer(
                        listenFD: fd, handler: router, connection: socketInfo, threads: options.threads,
                        idleTimeout: options.idleTimeout, connectionLimit: options.connectionLimit))
            } catch {
                close(fd)
                unlink(options.socketPath)
                throw error
            }
        }
        // What is already listening is stopped (and the socket file removed) if a later step fails.
        func undo() {
            for s in servers { s.stop() }
            if options.socket { unlink(options.socketPath) }
        }
        var port: PortListener?
        if let spec = options.tcp {
            do throws(ListenError) {
                let (tcpFD, number) = try Listeners.tcp(spec, allowAny: options.tcpAllowAny)
                do throws(ListenError) {
                    port = try PortListener(
                        listenFD: tcpFD, address: Listeners.host(of: spec), port: number, handler: router, tls: options.tls,
                        threads: options.threads, idleTimeout: options.idleTimeout)
                } catch {
                    close(tcpFD)
                    throw error
                }
            } catch {
                undo()
                throw error
            }
        }
        var portSocket: PortListener?
        if let path = options.portSocketPath {
            do throws(ListenError) {
                let fd = try Listeners.unixSocket(path)
                do throws(ListenError) {
                    portSocket = try PortListener(
                        listenFD: fd, address: "unix", port: 0, unixPath: path, handler: router, tls: options.tls, threads: options.threads,
                        idleTimeout: options.idleTimeout)
                } catch {
                    close(fd)
                    unlink(path)
                    throw error
                }
            } catch {
                port?.stop()
                undo()
                throw error
            }
        }
        var watcher: FolderWatcher?
        if !options.watch.isEmpty {
            do throws(ListenError) {
                watcher = try FolderWatcher(
                    folders: options.watch, service: service, forcePolling: options.forcePolling,
                    onFolderGone: onWatchEnded)
            } catch {
                port?.stop()
                portSocket?.stop()
                if let path = options.portSocketPath { unlink(path) }
                undo()
                throw error
            }
        }
        if let port { router.web.set(host: port.address, port: port.port) }
        self.servers = servers
        self.port = port
        self.portSocket = portSocket
        self.watcher = watcher
    }

    /// Whether the folder watch fell back to polling.
    public var isPolling: Bool { watcher?.polling ?? false }

    /// Body bytes the HTTP servers ever read (for tests of the 413 bound).
    public var bodyBytesRead: Int { servers.reduce(0) { $0 + $1.bodyBytesRead } }

    /// Stops every listener and watch, and removes the socket file.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        watcher?.stop()
        port?.stop()
        portSocket?.stop()
        if let path = options.portSocketPath { unlink(path) }
        for s in servers { s.stop() }
        if options.socket { unlink(options.socketPath) }
    }

    deinit { stop() }
}
