import Foundation
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxSandbox
import PushboxSystem
import PushboxTLS

/// `pushbox exec -- CMD`: runs a backend, unchanged, where Apple's and Google's push hosts are
/// pushbox and nothing else is reachable (new network and mount namespaces), relaying its
/// connections to the running pushbox's port socket (or an intake of its own), then says what
/// its pushes came to.
enum ExecCommand {
    static let spec = CommandSpec(
        name: "exec",
        summary:
            "Run CMD unchanged where api.push.apple.com, api.sandbox.push.apple.com, fcm.googleapis.com, oauth2.googleapis.com (and the rest of the push hosts) are pushbox on ports 443 and 2197 (and 2195/2196, the broadcast channel API's), trusted through pushbox's CA, and no other address exists (Linux network and mount namespaces; the host's files and network are never changed). The running pushbox shows every push live; with none running, exec takes them in itself into the usual inbox. At the end: a summary on stderr; the exit status is CMD's.",
        operands: "-- CMD [ARGS…]",
        options: [Options.check, Options.failOn, Options.jsonSummary, Options.socket, Options.database, Options.chaos]
            + [Options.tlsCert, Options.tlsKey, Options.providerKey, Options.teamID, Options.fcmTokens, Options.apnsTokens, Options.apnsEnvironment]
            + ClockOptions.options
            + RenderCommand.deviceOptions + RenderCommand.extensionOptions,
        run: run)

    /// The ports pushbox answers on inside: APNs' and FCM's 443, APNs' 2197.
    /// 443 and pushbox's own 2197; 2195 and 2196, the broadcast channel-management API's (development, production).
    static let ports: [UInt16] = [443, 2197, 2195, 2196]
    /// Exit status when exec itself cannot run the command (as `env` and `timeout` use it).
    static let cannotRun: Int32 = 125
    /// The signals passed on to the command.
    static let forwarded = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2]

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let failOn: [ExecSummary.Failing]
        do { failOn = try ExecSummary.parseFailOn(args.value(Options.failOn)) } catch {
            io.err("pushbox exec: \(error)")
            return 2
        }
        let chaos: [ChaosRule]
        do { chaos = try ChaosOptions.rules(args) } catch {
            io.err("pushbox exec: \(error)")
            return 2
        }
        if args.flag(Options.check) { return check(args, &io) }
        guard !args.operands.isEmpty else {
            io.err("pushbox exec: give the command to run after --, e.g. pushbox exec -- python3 send.py")
            return 2
        }
        // Blocked here, before any thread starts: the forwarding thread waits for them.
        var signals = sigset_t()
        sigemptyset(&signals)
        for s in forwarded { sigaddset(&signals, s) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        let target: ExecTarget
        let files: SandboxFiles
        do {
            target = try ExecTarget.connect(args, io)
            files = try prepareFiles(args, io)
        } catch {
            io.err("pushbox exec: \(error)")
            return cannotRun
        }
        defer { files.remove() }
        for note in files.notes { io.err("pushbox exec: warning: \(note)") }
        let before = target.latestID(args, io)
        let chaosIDs = target.addChaos(chaos, args, io)
        let child: SandboxedCommand
        switch Sandbox.start(command: args.operands, environment: environment(io.environment, files), files: files, ports: ports) {
        case .failure(let failure):
            target.stop()
            io.err(failure.explanation(HostFacts.read()))
            return cannotRun
        case .success(let c): child = c
        }
        let relay = ConnectionRelay(listeners: child.listeners.map(\.fd), target: target.portSocket)
        if let failure = child.waitForExec() {
            _ = child.wait()
            relay.stop()
            target.stop()
            io.err("pushbox exec: " + failure.explanation(HostFacts.read(), command: args.operands[0]))
            return failure.code == ENOENT ? 127 : 126
        }
        let forwarding = SignalForwarder(signals: signals, to: child)
        let status = child.wait()
        forwarding.stop()
        relay.stop()
        var summary = ExecSummary(
            command: args.operands, commandStatus: status, tally: target.tally(args, io), failOn: failOn, unreachable: relay.counts.unreachable,
            servedBy: target.description)
        summary.findings = target.findings(after: before, args, io)
        summary.retries = target.retries(args, io)
        target.removeChaos(chaosIDs, args, io)
        if summary.tally.requests == 0, relay.counts.relayed > 0 {
            // A pushbox older than the summary route: the relayed connections are all it knows.
            summary.servedBy += " (no summary from it)"
        }
        target.stop()
        for line in summary.lines { io.err(line) }
        if let path = args.value(Options.jsonSummary) {
            do { try Data((JSONWriter.pretty(summary.json) + "\n").utf8).write(to: URL(fileURLWithPath: path)) } catch {
                io.err("pushbox exec: cannot write \(path): \(FileErrorText.describe(error))")
                return summary.exitStatus == 0 ? 1 : summary.exitStatus
            }
        }
        return summary.exitStatus
    }

    /// The command's environment: pushbox's own, with the CA bundle variables set and the
    /// proxy variables removed.
    static func environment(_ base: [String: String], _ files: SandboxFiles) -> [String: String] {
        var env = base
        for (name, value) in files.environment {
            if let value { env[name] = value } else { env[name] = nil }
        }
        return env
    }

    /// The hosts file, CA bundles, resolver files and Java truststore for this run, trusting the
    /// local CA (or `--tls-cert`, the certificate the running pushbox was given).
    static func prepareFiles(_ args: ParsedArguments, _ io: CommandIO) throws -> SandboxFiles {
        let anchor: String
        if let cert = args.value(Options.tlsCert) {
            anchor = cert
        } else {
            let ca = try PortOptions.authority(io)
            anchor = ca.certificatePath
        }
        let runtime = (Listeners.defaultSocketPath(environment: io.environment) as NSString).deletingLastPathComponent
        return try SandboxFiles.prepare(
            hostNames: PortListener.proxiedHosts.sorted(), caFile: anchor, temporaryRoot: runtime,
            cacheFolder: XDG.cacheHome(io.environment) + "/pushbox/exec", environment: io.environment)
    }

    /// `--check`: every step made once in a child that runs nothing, and what it found.
    static func check(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let facts = HostFacts.read()
        let files: SandboxFiles
        do { files = try prepareFiles(args, io) } catch {
            io.err("pushbox exec --check: \(error)")
            return 1
        }
        defer { files.remove() }
        io.out("user: \(facts.root ? "root (no user namespace needed)" : "uid \(geteuid()) (a user namespace maps it to root inside)")")
        if let seccomp = facts.seccompMode { io.out("seccomp: \(seccomp == 0 ? "none" : seccomp == 2 ? "a filter" : "strict")") }
        switch Sandbox.start(command: nil, environment: [:], files: files, ports: ports) {
        case .failure(let failure):
            io.out("namespaces: cannot be made")
            io.out(failure.explanation(facts))
            io.out("cause: \(failure.cause(facts).rawValue)")
            return 1
        case .success(let child):
            for l in child.listeners { close(l.fd) }
            _ = child.wait()
            io.out(
                "namespaces: network and mount\(child.inUserNamespace ? " in a user namespace" : ""), loopback up, listening on \(ports.dropLast().map(String.init).joined(separator: ", ")) and \(ports.last.map(String.init) ?? "") (127.0.0.1\(child.listeners.contains { $0.ipv6 } ? " and ::1" : ""))"
            )
            let bound = files.binds.filter { !child.skipped.contains($0.target) }.map(\.target)
            io.out("bound over: /etc/hosts\(bound.isEmpty ? "" : ", " + bound.joined(separator: ", "))")
            let java =
                files.environment["JAVA_TOOL_OPTIONS"].map { _ in "a truststore with pushbox's CA (JAVA_TOOL_OPTIONS)" } ?? "no keytool on PATH"
            io.out("java: \(java)")
        }
        for note in files.notes { io.out("warning: \(note)") }
        let portSocket = Listeners.portSocketPath(beside: IntakeOptions.socketPath(args, io))
        io.out(
            Listeners.isAnswering(portSocket)
                ? "pushbox: running; exec relays to \(portSocket)" : "pushbox: not running; exec takes the pushes in itself, into the usual inbox")
        io.out("exec works here")
        return 0
    }
}

/// Passes the signals pushbox gets on to the command — those another process sent (kill); a
/// terminal's Ctrl-C already reached the command, which is in the same process group.
final class SignalForwarder: @unchecked Sendable {
    // @unchecked: `done` is read and written under `lock`.
    private let lock = NSLock()
    private var done = false
    private let finished = DispatchSemaphore(value: 0)

    init(signals: sigset_t, to child: SandboxedCommand) {
        Thread.detachNewThread { [self] in
            var set = signals
            var info = siginfo_t()
            var wait = timespec(tv_sec: 0, tv_nsec: 200_000_000)
            while !isDone {
                let signal = sigtimedwait(&set, &info, &wait)
                guard signal > 0 else { continue }
                // SI_USER (kill) and SI_QUEUE come from processes; the tty's come from the kernel.
                if info.si_code <= 0 { child.send(signal) }
            }
            finished.signal()
        }
    }

    private var isDone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
    }

    func stop() {
        lock.lock()
        done = true
        lock.unlock()
        finished.wait()
    }
}
