import Foundation
import PushboxCore
import PushboxStore

/// Everything `pushbox serve` (and later the TUI) runs: the APNs-shaped API on the Unix socket
/// (and an optional TCP listener), and the folder watches, all feeding one intake service.
public final class IntakeServer: @unchecked Sendable {
    public struct Options: Sendable {
        public var socketPath: String
        public var tcp: String?
        public var tcpAllowAny = false
        public var watch: [String] = []
        public var idleTimeout = 30
        public var threads = 2
        public var connectionLimit = 256
        public var forcePolling = false

        public init(socketPath: String) { self.socketPath = socketPath }
    }

    public let service: IntakeService
    public let options: Options
    private var servers: [HTTPServer] = []
    private var watcher: FolderWatcher?
    public let endpoint: APNsEndpoint
    /// Set once this server bound the socket file; only then may it remove it.
    private var ownsSocket = false
    /// The TCP port actually bound, when `--listen` asked for one.
    public private(set) var tcpPort: Int?

    public init(service: IntakeService, options: Options, onIngest: @escaping @Sendable (String, IntakeResult) -> Void = { _, _ in }) throws(ListenError) {
        self.service = service
        self.options = options
        endpoint = APNsEndpoint(service: service)
        let fd = try Listeners.unixSocket(options.socketPath)
        ownsSocket = true
        servers.append(try HTTPServer(listenFD: fd, handler: endpoint, threads: options.threads, idleTimeout: options.idleTimeout, connectionLimit: options.connectionLimit))
        if let spec = options.tcp {
            let (tcpFD, port) = try Listeners.tcp(spec, allowAny: options.tcpAllowAny)
            tcpPort = port
            servers.append(try HTTPServer(listenFD: tcpFD, handler: endpoint, threads: options.threads, idleTimeout: options.idleTimeout, connectionLimit: options.connectionLimit))
        }
        if !options.watch.isEmpty {
            watcher = try FolderWatcher(folders: options.watch, service: service, forcePolling: options.forcePolling, onIngest: onIngest)
        }
    }

    public var isPolling: Bool { watcher?.polling ?? false }

    /// Body bytes the HTTP servers ever read (for tests of the 413 bound).
    public var bodyBytesRead: Int { servers.reduce(0) { $0 + $1.bodyBytesRead } }

    /// Stops every listener and watch, and removes the socket file.
    public func stop() {
        watcher?.stop()
        watcher = nil
        for s in servers { s.stop() }
        servers.removeAll()
        if ownsSocket { unlink(options.socketPath) }
        ownsSocket = false
    }

    deinit { stop() }
}
