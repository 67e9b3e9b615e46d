import PushboxFetch
import Foundation
import PushboxCore
import PushboxIntake
import PushboxStore
import PushboxText

/// Options every intake command shares, and building the service from them.
enum IntakeOptions {
    static let socket = OptionSpec("--socket", value: "PATH", help: "The Unix socket. Default $XDG_RUNTIME_DIR/pushbox/pushbox.sock (or /tmp/pushbox-UID/).")
    static let db = OptionSpec("--db", value: "PATH", help: "The inbox database. Default $XDG_DATA_HOME/pushbox/inbox.sqlite.")

    /// A provider always sends its topic: `send` and `replay` add one when a payload has none.
    static let providerOptions = [
        OptionSpec("--topic", value: "ID", help: "apns-topic for payloads that have none. Default: the bundle id of --app."),
        OptionSpec("--app", value: "DIR", help: "The app whose bundle id is the default topic. Default: the bundled sample app."),
    ]

    /// The topic a provider would send: `--topic`, else the app's bundle id.
    static func providerTopic(_ args: ParsedArguments, _ io: CommandIO) throws(UsageError) -> String? {
        if let topic = args.value("--topic") { return topic }
        return try Device.from(args, defaultApp: true, io: io).profile?.bundleID
    }

    /// The device token used when a file names none (the simulated device's).
    static let defaultDeviceToken = "5e1ec7ed" + String(repeating: "00", count: 28)

    static func socketPath(_ args: ParsedArguments, _ io: CommandIO) -> String {
        args.value("--socket") ?? Listeners.defaultSocketPath(environment: io.environment)
    }

    static func openStore(_ args: ParsedArguments, _ io: CommandIO) throws(UsageError) -> InboxStore {
        let path = args.value("--db") ?? InboxStore.defaultPath(environment: io.environment)
        do { return try InboxStore(path: path) } catch { throw UsageError(message: "\(error)") }  // it names the file
    }

    /// The renderer for processing: the same device, app and extension setup as `render`.
    static func processor(_ args: ParsedArguments, store: InboxStore, io: CommandIO) throws(UsageError) -> (NotificationProcessor, ValidationContext) {
        let device = try Device.from(args, defaultApp: true, io: io)
        let renderer = Renderer(context: device.validationContext, preferredLanguages: device.languages, localizer: device.makeLocalizer(),
                                categories: device.profile?.categories ?? [], extensionSetup: try RenderCommand.extensionSetup(args, device: device, io: io))
        return (NotificationProcessor(renderer: renderer, store: store), device.validationContext)
    }
}

/// `pushbox serve`: the intake without the TUI, until interrupted.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve",
        summary: "Take pushes in without the TUI: the APNs-shaped API on a Unix socket and on TCP port 2197 (TLS with provider tokens, HTTP/2 or HTTP/1.1), folder watches, the SQLite inbox. Runs until interrupted.",
        options: [IntakeOptions.socket, IntakeOptions.db,
                  OptionSpec("--watch", value: "DIR", repeatable: true, help: "Ingest .json/.apns files written or moved into this folder."),
                  OptionSpec("--idle-timeout", value: "SECONDS", help: "Close connections idle this long (APNs' IdleTimeout). Default 30."),
                  OptionSpec("--poll", help: "Poll watched folders instead of using inotify."),
                  OptionSpec("--quiet", help: "Do not log each payload taken in."),
                  LocalStartup.scheduleOption]
            + PortOptions.options + ClockOptions.options + RenderCommand.deviceOptions + RenderCommand.extensionOptions,
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        // Signals are waited for on this thread; every thread started later inherits the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        let server: IntakeServer
        let store: InboxStore
        let scheduler: LocalScheduler
        do {
            let clock = try ClockOptions.clock(args)
            store = try IntakeOptions.openStore(args, io)
            let (processor, context) = try IntakeOptions.processor(args, store: store, io: io)
            let service = IntakeService(store: store, context: context, processor: processor)
            // Always said, --quiet or not: the sender only sees InternalServerError.
            service.onStoreFailure = { result in
                FileHandle.standardError.write(Data("pushbox serve: apns-id \(result.apnsID) answered 500: \(result.detail ?? "")\n".utf8))
            }
            var accessLog: (@Sendable (RequestHead, HTTPResponse) -> Void)?
            if !args.flag("--quiet") {
                let out = LogWriter.standardOutput
                // Requests on the socket and the port are logged as they are answered; files and
                // local notifications as they are taken in.
                service.onReceive = { raw, result in
                    guard raw.envelope.arrival == nil, raw.envelope.source != .socket, raw.envelope.source != .replay else { return }
                    let name = raw.envelope.fileName.map { " " + TerminalText.sanitize($0) } ?? ""
                    out("\(raw.envelope.source.rawValue)\(name): \(result.status)\(result.reason.map { " " + $0 } ?? "") apns-id \(result.apnsID)")
                }
                accessLog = { head, response in out(PortOptions.accessLine(head, response)) }
            }
            var options = IntakeServer.Options(socketPath: IntakeOptions.socketPath(args, io))
            try PortOptions.apply(args, profile: try Device.from(args, defaultApp: true, io: io).profile, io: io, to: &options)
            options.watch = args.all("--watch")
            options.forcePolling = args.flag("--poll")
            if let idle = args.value("--idle-timeout") {
                guard let seconds = Int(idle), seconds > 0 else { throw UsageError(message: "--idle-timeout: expected whole seconds, got \(idle)") }
                options.idleTimeout = seconds
            }
            // The scheduler and its schedule file are ready before the first request can arrive.
            scheduler = LocalScheduler(service: service, clock: clock)
            if let refusal = LocalStartup.load(args, into: scheduler) { io.err("pushbox serve: \(refusal)") }
            let watchEnded: @Sendable (String) -> Void = { message in
                FileHandle.standardError.write(Data("pushbox serve: \(message)\n".utf8))
            }
            do {
                server = try IntakeServer(service: service, options: options, scheduler: scheduler, onWatchEnded: watchEnded, accessLog: accessLog)
            } catch { throw UsageError(message: "\(error)") }
            scheduler.start()
        } catch {
            io.err("pushbox serve: \(error)")
            return 1
        }
        var listening = "listening on \(server.options.socketPath)"
        if let address = server.tcpAddress {
            listening += " and \(address) (TLS\(server.options.tls == nil ? " off" : "") · HTTP/2 · HTTP/1.1)"
        }
        io.err("pushbox serve: \(listening); inbox \(store.path)\(server.options.watch.isEmpty ? "" : "; watching \(server.options.watch.joined(separator: ", "))\(server.isPolling ? " (polling)" : "")")")
        var received: Int32 = 0
        sigwait(&signals, &received)
        scheduler.stop()
        server.stop()
        server.service.processor?.drain()
        LogWriter.standardOutput.flush()
        io.err("pushbox serve: stopped")
        return 0
    }
}

/// `pushbox send`: post payload files to a running pushbox, as a provider posts to APNs.
enum SendCommand {
    static let spec = CommandSpec(
        name: "send",
        summary: "Post payload files to a running pushbox over its socket, as a provider posts to APNs; prints APNs' answer per file. Exit 1 on any error.",
        operands: "FILE…",
        options: [IntakeOptions.socket,
                  OptionSpec("--header", value: "NAME:VALUE", repeatable: true, help: "An APNs request header (overrides NAME.headers beside the file)."),
                  OptionSpec("--token", value: "HEX", help: "The device token of /3/device/<token>. Default: the file's NAME.headers, else the simulated device's.")]
            + IntakeOptions.providerOptions,
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard !args.operands.isEmpty else {
            io.err("pushbox send: no files given (use - for stdin); see pushbox send --help")
            return 2
        }
        let input: PayloadInput
        let topic: String?
        do {
            input = try PayloadInput(arguments: args)
            topic = try IntakeOptions.providerTopic(args, io)
        } catch {
            io.err("pushbox send: \(error)")
            return 2
        }
        let socket = IntakeOptions.socketPath(args, io)
        guard let client = UnixHTTPClient(socketPath: socket) else {
            io.err("pushbox send: libcurl could not start")
            return 1
        }
        var failed = false
        for path in args.operands {
            switch input.read(path, io: io) {
            case .failure(let e):
                failed = true
                io.err("pushbox send: \(e.message)")
            case .success(let raw):
                switch post(raw, client: client, topic: topic, extraHeaders: []) {
                case .failure(let e):
                    io.err("pushbox send: cannot reach pushbox on \(socket) (\(e)); is `pushbox serve` running?")
                    return 1
                case .success(let answer):
                    if answer.status != 200 { failed = true }
                    io.out("\(TerminalText.sanitize(path)): \(describe(answer))")
                }
            }
        }
        return failed ? 1 : 0
    }

    /// Posts one raw payload with its envelope's headers and token.
    static func post(_ raw: RawPayload, client: UnixHTTPClient, topic: String?, extraHeaders: [(String, String)]) -> Result<UnixHTTPClient.Response, DownloadError> {
        let token = raw.envelope.deviceToken ?? IntakeOptions.defaultDeviceToken
        let encoded = token.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? token
        var headers = raw.envelope.headers.fields.map { ($0.name, $0.value) } + extraHeaders
        if let topic, raw.envelope.headers[PushHeaders.topic] == nil { headers.append((PushHeaders.topic, topic)) }
        return client.request("POST", url: "http://localhost/3/device/\(encoded)", headers: headers, body: raw.bytes)
    }

    static func describe(_ answer: UnixHTTPClient.Response) -> String {
        let id = answer.header("apns-id").map { " apns-id \($0)" } ?? ""
        guard answer.status != 200 else { return "200\(id)" }
        let reason = (try? JSONParser.parse(answer.body))?.objectValue?["reason"]?.stringValue ?? "?"
        return "\(answer.status) \(reason)\(id)"
    }
}
