import Foundation
import PushboxInbox
import PushboxPayload
import PushboxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The `pushbox` command line: the subcommand table and the dispatcher.
public enum Pushbox {
    /// pushbox's version, as `--version` prints it.
    public static let version = PushboxVersion.current

    /// Every subcommand; `pushbox --help` lists them from this table.
    static let commands: [CommandSpec] = [
        ValidateCommand.spec, RenderCommand.spec, LintCommand.spec, ServeCommand.spec, SendCommand.spec, ListCommand.spec, ReplayCommand.spec,
        ExportCommand.spec, ScheduleCommand.spec, PendingCommand.spec, CancelCommand.spec, CryptoCommands.keygen, CryptoCommands.encrypt,
        CertCommand.spec, ProviderKeyCommand.spec, ProviderTokenCommand.spec, FCMCredentialsCommand.spec, DeviceCommand.spec, RequestsCommand.spec,
        ExecCommand.spec, SnapshotCommand.spec, ActivitiesCommand.spec, ActivityCommand.spec, ClearCommand.spec, WaitCommand.spec, HealthCommand.spec,
        WebCommand.spec, ChaosCommand.spec,
        ManCommand.spec, DocsCommand.spec,
        CompletionsCommand.spec,
    ]

    /// `pushbox` with no subcommand: the inbox on a terminal; the bundled samples as text
    /// when stdout is not a terminal (or with `--text`).
    static let root = CommandSpec(
        name: "",
        summary:
            "A terminal inbox that shows push notifications the way an iPhone would. With no command: the inbox (the bundled samples on a first run); as text when not on a terminal.",
        options: RenderCommand.deviceOptions + InteractiveInbox.options + [Options.version],
        run: { args, io in
            if args.flag(Options.version) {
                for line in VersionReport.lines() { io.out(line) }
                return 0
            }
            if !args.flag(Options.text), isatty(1) == 1, isatty(0) == 1, io.environment["PUSHBOX_TEXT"] == nil {
                return InteractiveInbox.run(args, &io)
            }
            guard let samples = ResourceLocator.samplesDirectory(environment: io.environment) else {
                io.err("pushbox: the bundled sample-payloads folder was not found; set PUSHBOX_SAMPLES=DIR or run `pushbox render FILE…`")
                return 1
            }
            let cwd = FileManager.default.currentDirectoryPath + "/"
            let files = ResourceLocator.samplePayloadFiles(in: samples).map { $0.hasPrefix(cwd) ? String($0.dropFirst(cwd.count)) : $0 }
            return RenderCommand.render(files: files, args: args, io: &io)
        })

    /// Runs the command line (without the program name); returns the exit status.
    public static func main(_ arguments: [String], io: inout CommandIO) -> Int32 {
        var args = arguments
        var spec = root
        if let first = args.first, !first.hasPrefix("-") {
            if first == "help" {
                guard let topic = args.dropFirst().first else {
                    io.out(rootHelp())
                    return 0
                }
                guard let found = commands.first(where: { $0.name == topic }) else {
                    io.err("pushbox: no command \(topic)\(Spelling.suggestion(topic, among: commands.map(\.name))); see pushbox --help")
                    return 2
                }
                io.out(found.help())
                return 0
            }
            guard let command = commands.first(where: { $0.name == first }) else {
                let looksLikeFile = first.contains(".") || first.contains("/")
                let near = looksLikeFile ? "" : Spelling.suggestion(first, among: commands.map(\.name))
                io.err(
                    "pushbox: unknown command \(first)\(near); "
                        + (looksLikeFile ? "to render files use pushbox render FILE…" : "see pushbox --help"))
                return 2
            }
            spec = command
            args.removeFirst()
        }
        do {
            let parsed = try parseArguments(args, spec: spec)
            if parsed.flag(Options.help) {
                io.out(spec.name.isEmpty ? rootHelp() : spec.help())
                return 0
            }
            if spec.name.isEmpty, !parsed.operands.isEmpty {
                io.err("pushbox: unexpected \(parsed.operands[0]); to render files use pushbox render FILE…")
                return 2
            }
            return spec.run(parsed, &io)
        } catch {
            io.err("pushbox: \(error)")
            return 2
        }
    }

    static func rootHelp() -> String {
        var lines = [root.help(), "", "Commands:"]
        let width = (commands.map(\.name.count).max() ?? 0) + 4
        for command in commands {
            lines.append("  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary)
        }
        lines.append("")
        lines.append("Run pushbox COMMAND --help for a command's options.")
        return lines.joined(separator: "\n")
    }
}
