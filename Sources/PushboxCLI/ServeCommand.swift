import Foundation
import PushboxCore
import PushboxIntake
import PushboxStore
import PushboxText

/// `pushbox serve`: the intake without the TUI, until interrupted.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve",
        summary:
            "Take pushes in without the TUI: the APNs-shaped API on a Unix socket and on TCP port 2197 (TLS with provider tokens, HTTP/2 or HTTP/1.1), folder watches, the SQLite inbox. Runs until interrupted.",
        options: [
            Options.socket, Options.database,
            Options.watch,
            Options.idleTimeout,
            Options.poll,
            Options.quiet,
            Options.schedule,
        ]
            + PortOptions.options + ClockOptions.options + RenderCommand.deviceOptions + RenderCommand.extensionOptions,
        run: run)

    // Long on purpose: the start-up order is the point (signals, store, hooks, scheduler, then listeners).
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
            let (renderings, device) = try IntakeOptions.renderings(args, store: store, io: io)
            let service = IntakeService(store: store, context: device.validationContext, renderings: renderings)
            let registration = DeviceRegistrationFile(databasePath: store.path)
            service.registrationFile = registration
            // What the intake's threads have to say on stderr, --quiet or not.
            let say: @Sendable (String) -> Void = { message in FileHandle.standardError.write(Data("pushbox serve: \(message)\n".utf8)) }
            // The sender only sees InternalServerError; this is where its reason is said.
            service.onStoreFailure = { result in say("apns-id \(result.apnsID) answered 500: \(result.detail ?? "")") }
            var accessLog: (@Sendable (RequestRecord) -> Void)?
            if !args.flag(Options.quiet) {
                let out = LogWriter.standardOutput
                // Requests on the socket and the port are logged as they are answered; files and
                // local notifications as they are taken in.
                service.arrivals.subscribe { events in
                    for event in events {
                        let n = event.stored
                        guard n.arrival == nil, n.source != .socket, n.source != .replay else { continue }
                        let name = n.file.map { " " + TerminalText.sanitize($0) } ?? ""
                        out("\(n.source.rawValue)\(name): \(event.result.status)\(event.result.reason.map { " " + $0 } ?? "") apns-id \(n.apnsID)")
                    }
                }
                accessLog = { record in out(PortOptions.accessLine(record)) }
            }
            var options = IntakeServer.Options(socketPath: IntakeOptions.socketPath(args, io))
            try PortOptions.apply(args, profile: device.profile, io: io, to: &options)
            options.watch = args.all(Options.watch)
            options.forcePolling = args.flag(Options.poll)
            if let seconds = try args.wholeNumber(Options.idleTimeout, minimum: 1) { options.idleTimeout = seconds }
            // The scheduler and its schedule file are ready before the first request can arrive.
            scheduler = LocalScheduler(service: service, clock: clock)
            if let refusal = LocalStartup.load(args, into: scheduler) { io.err("pushbox serve: \(refusal)") }
            do {
                server = try IntakeServer(service: service, options: options, scheduler: scheduler, onWatchEnded: say, accessLog: accessLog)
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
        io.err(
            "pushbox serve: \(listening); inbox \(store.path)\(server.options.watch.isEmpty ? "" : "; watching \(server.options.watch.joined(separator: ", "))\(server.isPolling ? " (polling)" : "")")"
        )
        var received: Int32 = 0
        sigwait(&signals, &received)
        scheduler.stop()
        server.stop()
        server.service.drain()
        LogWriter.standardOutput.flush()
        io.err("pushbox serve: stopped")
        return 0
    }
}
