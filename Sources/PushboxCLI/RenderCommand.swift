import Foundation
import PushboxDevice
import PushboxFetch
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxRendering
import PushboxStore

/// `pushbox render`: run the pipeline headless and print each notification as the device shows it.
enum RenderCommand {
    static let deviceOptions = [
        Options.app.with(
            help:
                "The app folder (localizations, pushbox.json). Default: the app the inbox's device runs (what pushbox last ran on that --db), else the bundled sample app."
        ),
        Options.lang.with(
            help: "The device's preferred languages, most preferred first. Default: the inbox's device languages (kept beside --db), else en-US."),
    ]

    static let spec = CommandSpec(
        name: "render",
        summary:
            "Show each payload as the device would: title, subtitle, body, badge, sound, category, thread, delivery, the service extension's failed steps and warnings. Exits 1 when a file cannot be read or APNs would refuse a payload.",
        operands: "FILE…",
        options: deviceOptions + [
            Options.json.with(help: "One JSON object per input file per line, in input order."),
            Options.header,
            Options.token,
            Options.previewProfile,
            Options.platform,
            Options.database.with(
                help:
                    "The inbox whose device's Live Activities a Live Activity push is tried against (nothing is changed). Default $XDG_DATA_HOME/pushbox/inbox.sqlite."
            ),
        ] + extensionOptions,
        run: run)

    /// Which phones `--platform` asks for; nil: the payload's own (ios, or both for FCM).
    enum Platform: String {
        case ios, android, both

        /// `--platform`, or nil when it is not given.
        static func asked(_ args: ParsedArguments) throws(UsageError) -> Platform? {
            guard let name = args.value(Options.platform) else { return nil }
            guard let p = Platform(rawValue: name) else {
                throw UsageError(message: "--platform is ios, android or both, not \(TerminalText.sanitize(name))")
            }
            return p
        }

        /// The phones shown: the ones asked for, else ios for an APNs payload, both for an FCM message.
        static func shown(_ asked: Platform?, isFCM: Bool) -> Platform { asked ?? (isFCM ? .both : .ios) }
    }

    static let extensionOptions = [
        Options.key.with(help: "The AES-256-GCM key file for decryption (base64 of 32 bytes, mode 0600); wins over the recipe's."),
        Options.timeLimit,
        Options.allowFiles,
        Options.cache,
        Options.noCache,
        Options.noExtension,
    ]

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard !args.operands.isEmpty else {
            io.err("pushbox render: no files given (use - for stdin); see pushbox render --help")
            return 2
        }
        return render(files: args.operands, args: args, io: &io)
    }

    /// Renders files; exit 0 when every file was read and accepted, 1 when one could not be read
    /// or APNs (or FCM) would refuse it, as `validate` does; a valid message that is not for
    /// this device is a result, not a failure.
    static func render(files: [String], args: ParsedArguments, io: inout CommandIO) -> Int32 {
        let input: PayloadInput
        let device: Device
        do {
            input = try PayloadInput(arguments: args)
            device = try Device.from(args, defaultApp: true, inbox: true, io: io)
        } catch {
            io.err("pushbox render: \(error)")
            return 2
        }
        let renderer: Renderer
        do {
            renderer = try device.renderer(args, io: io)
        } catch {
            io.err("pushbox render: \(error)")
            return 2
        }
        let profileName = args.value(Options.previewProfile) ?? PreviewProfile.lockScreen.name
        guard let profile = PreviewProfile.named(profileName) else {
            io.err(
                "pushbox render: --profile is banner, lock-screen or expanded (optionally :small or :large), not \(TerminalText.sanitize(profileName))"
            )
            return 2
        }
        let platform: Platform?
        do { platform = try Platform.asked(args) } catch {
            io.err("pushbox render: \(error)")
            return 2
        }
        // A language the device cannot use is said once, and carried in every rendering's warnings.
        let languageProblems = device.languageProblems(renderer.localizer)
        for problem in languageProblems { io.err("pushbox render: warning: \(problem.message)") }
        let phone = device.phone(database: args.value(Options.database) ?? InboxStore.defaultPath(environment: io.environment))
        var status: Int32 = 0
        for path in files {
            switch input.read(path, io: io) {
            case .failure(let error):
                status = 1
                io.err("pushbox render: \(error.message)")
            case .success(let raw):
                // Judged as the inbox's phone would take it now, a dry run: nothing is changed.
                let judged = phone.judge(raw, mode: .dryRun)
                var note = renderer.render(raw, validated: judged.report).judged(under: profile).presenting(judged.verdict.presentation)
                    .delivering(judged.delivery(receivedAt: raw.envelope.receivedAt), receivedAt: raw.envelope.receivedAt, now: Date())
                note.warnings = languageProblems + note.warnings
                if note.status != 200 { status = 1 }
                let isFCM = raw.isFCMMessage
                let shown = Platform.shown(platform, isFCM: isFCM)
                var android = note.android ?? AndroidRendering.notShown(note, isFCM: isFCM, appName: device.profile?.name ?? "")
                android.warnings = languageProblems + android.warnings
                note.android = nil
                if shown != .android { io.out(args.flag(Options.json) ? JSONWriter.compact(note.json) : text(note)) }
                if shown != .ios {
                    io.out(args.flag(Options.json) ? JSONWriter.compact(Self.json(android, file: note.file)) : text(android, file: note.file))
                }
            }
        }
        return status
    }

    /// The extension's recipe, key, time limit, file roots and cache from the flags and the profile.
    static func extensionSetup(_ args: ParsedArguments, device: Device, io: CommandIO) throws(UsageError) -> Renderer.ExtensionSetup? {
        if args.flag(Options.noExtension) { return nil }
        let keyFile = args.value(Options.key)
        var recipe = device.profile?.recipe ?? ExtensionRecipe.defaultRecipe(keyGiven: keyFile != nil)
        if let seconds = try args.number(Options.timeLimit, in: 0.001...300) { recipe.timeLimit = seconds }
        var roots = args.all(Options.allowFiles)
        if let app = device.profile?.directory { roots.append(app) }
        if let samples = ResourceLocator.samplesDirectory(environment: io.environment) { roots.append(samples) }
        let cache = args.value(Options.cache) ?? AttachmentFetcher.defaultCacheDirectory(environment: io.environment)
        var fetcher = AttachmentFetcher(cacheDirectory: cache, allowedRoots: roots)
        fetcher.readsCache = !args.flag(Options.noCache)
        return Renderer.ExtensionSetup(
            recipe: recipe, fetcher: fetcher,
            appDirectory: device.profile?.directory, keyFile: keyFile)
    }

    /// The Android rendering's JSON, with the file it came from first.
    static func json(_ a: AndroidRendering, file: String?) -> JSONValue {
        var o = a.json.objectValue ?? JSONObject()
        o.entries.insert(("file", .optionalString(file)), at: 1)
        return .object(o)
    }

    /// The Android notification as plain text, every payload string sanitized.
    static func text(_ a: AndroidRendering, file: String?) -> String {
        func clean(_ s: String) -> String { TerminalText.sanitize(s) }
        var lines = ["── \(clean(file ?? "-")) · android · \(a.delivered.rawValue)\(a.language.map { " · " + $0 } ?? "")"]
        if a.delivered != .shown {
            lines.append("   \(a.reason ?? "")")
        } else {
            lines.append(
                "   \(clean(a.appName)) · channel \(clean(a.channel.id)) (\(clean(a.channel.name)), \(a.channel.importance)) · icon \(clean(a.icon))\(a.color.map { " · " + $0 } ?? "")"
            )
            lines.append("   title:    \(a.title.map(clean) ?? "(none)")")
            if let b = a.body {
                let bodyLines = TerminalText.sanitize(b, keepNewlines: true).split(separator: "\n", omittingEmptySubsequences: false)
                lines.append("   text:     \(bodyLines.first.map(String.init) ?? "")")
                lines += bodyLines.dropFirst().map { "             \($0)" }
            }
            var facts: [String] = []
            if let tag = a.tag { facts.append("tag \(clean(tag))") }
            if let count = a.notificationCount { facts.append("count \(count)") }
            if a.sticky { facts.append("sticky") }
            if a.visibility != "private" { facts.append("visibility \(a.visibility)") }
            if let image = a.image { facts.append("image \(clean(image))") }
            if let action = a.clickAction { facts.append("tap opens \(clean(action))") }
            if !facts.isEmpty { lines.append("   " + facts.joined(separator: " · ")) }
        }
        for w in a.warnings { lines.append("   \(w.severity == .error ? "error" : "warning"): \(clean(w.message))") }
        return lines.joined(separator: "\n")
    }

    /// A notification as a few lines of plain text, every payload string sanitized.
    static func text(_ n: RenderedNotification) -> String {
        func clean(_ s: String) -> String { TerminalText.sanitize(s) }
        var lines = ["── \(clean(n.file ?? "-")) · \(n.delivered.rawValue)\(n.language.map { " · " + $0 } ?? "")"]
        if n.delivered == .rejected {
            lines.append("   \(n.status == 200 ? "" : "\(n.status) ")\(n.reason ?? ""): \(clean(n.detail ?? ""))")
        } else {
            if let t = n.title { lines.append("   title:    \(clean(t))") }
            if let s = n.subtitle { lines.append("   subtitle: \(clean(s))") }
            if let b = n.body {
                let bodyLines = TerminalText.sanitize(b, keepNewlines: true).split(separator: "\n", omittingEmptySubsequences: false)
                lines.append("   body:     \(bodyLines.first.map(String.init) ?? "")")
                lines += bodyLines.dropFirst().map { "             \($0)" }
            }
            if n.title == nil && n.subtitle == nil && n.body == nil { lines.append("   (no alert text)") }
            var facts: [String] = []
            if let badge = n.badge { facts.append("badge \(badge)") }
            if let sound = n.sound { facts.append("sound \(clean(sound))") }
            if let category = n.category { facts.append("category \(clean(category))") }
            if let thread = n.threadId { facts.append("thread \(clean(thread))") }
            if let level = n.interruptionLevel { facts.append(level) }
            if !facts.isEmpty { lines.append("   " + facts.joined(separator: " · ")) }
            for a in n.attachments {
                let size = a.width.map { ", \($0)×\(a.height ?? 0)" } ?? ""
                lines.append(
                    "   attachment: \(clean((a.path as NSString).lastPathComponent)) (\(a.type), \(a.bytes) bytes\(size)) from \(clean(a.source))"
                        + (a.fromCache ? " (from the cache; --no-cache downloads it again)" : ""))
            }
            if !n.actions.isEmpty { lines.append("   actions:  " + n.actions.map { "[\(clean($0.title))]" }.joined(separator: " ")) }
        }
        // What the trace would show of a step that went wrong: the extension's failures above all.
        for t in n.trace where t.outcome.isFailure || t.outcome == .timeout || t.outcome == .cancelled {
            // A rejection is the header's; an attachment not attached is a warning below.
            guard t.step != .validate, t.step != .attach else { continue }
            lines.append("   \(t.step.rawValue) \(t.outcome.rawValue)\(t.cause.map { " (\($0))" } ?? ""): \(clean(t.detail))")
        }
        for w in n.warnings { lines.append("   warning: \(clean(w.message))") }
        return lines.joined(separator: "\n")
    }
}
