import Foundation
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore

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
            + PortOptions.options + Webhooks.options + ChaosOptions.options + ClockOptions.options + RenderCommand.deviceOptions
            + RenderCommand.extensionOptions,
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        // Signals are waited for on this thread; every thread started later inherits the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        let running: RunningIntake
        var hooks: Webhooks?
        var chaos: [ChaosRule] = []
        do {
            running = try RunningIntake.start(
                args, io, command: "serve",
                accessLog: { service in
                    guard !args.flag(Options.quiet) else { return nil }
                    let out = LogWriter.standardOutput
                    // Requests on the socket and the port are logged as they are answered; files and
                    // local notifications as they are taken in.
                    service.arrivals.subscribe { events in
                        for event in events {
                            let n = event.stored
                            guard n.arrival == nil, n.source != .socket, n.source != .replay else { continue }
                            let name = n.file.map { " " + TerminalText.sanitize($0) } ?? ""
                            out(
                                "\(n.source.rawValue)\(name): \(event.result.status)\(event.result.reason.map { " " + $0 } ?? "") apns-id \(n.apnsID)"
                            )
                        }
                    }
                    return { record in out(PortOptions.accessLine(record)) }
                },
                configure: { options, profile throws(UsageError) in
                    hooks = try Webhooks.configured(args, profile: profile)
                    chaos = try ChaosOptions.rules(args)
                    try PortOptions.apply(args, profile: profile, io: io, to: &options)
                    options.watch = args.all(Options.watch)
                    options.forcePolling = args.flag(Options.poll)
                    if let seconds = try args.wholeNumber(Options.idleTimeout, minimum: 1) { options.idleTimeout = seconds }
                })
        } catch {
            io.err("pushbox serve: \(error)")
            return 1
        }
        let server = running.server
        let store = running.store
        hooks?.start(server.service, router: server.router)
        ChaosOptions.apply(chaos, to: server.router)
        var listening = "listening on \(server.options.socketPath)"
        if let address = server.tcpAddress {
            listening += " and \(address) (TLS\(server.options.tls == nil ? " off" : "") · HTTP/2 · HTTP/1.1)"
        }
        io.err(
            "pushbox serve: \(listening); inbox \(store.path)\(server.options.watch.isEmpty ? "" : "; watching \(server.options.watch.joined(separator: ", "))\(server.isPolling ? " (polling)" : "")")"
        )
        var received: Int32 = 0
        sigwait(&signals, &received)
        running.stop()
        LogWriter.standardOutput.flush()
        for (url, c) in hooks?.summary ?? [] {
            io.err("pushbox serve: webhook \(url): \(c.sent) sent, \(c.failed) failed, \(c.dropped) dropped over \(hooks?.perSecond ?? 0)/s")
        }
        io.err("pushbox serve: stopped")
        return 0
    }
}
