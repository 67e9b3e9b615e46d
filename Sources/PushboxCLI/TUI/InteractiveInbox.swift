import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxLocalization
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxTerminal
import PushboxUI

/// `pushbox` on a terminal: the curses inbox on the same intake as `pushbox serve`.
enum InteractiveInbox {
    static let options: [OptionSpec] =
        [
            Options.socket, Options.database,
            Options.watch,
            Options.theme,
            Options.bidi,
            Options.noSocket,
            Options.text,
            Options.schedule,
        ] + PortOptions.options + Webhooks.options + ChaosOptions.options + ClockOptions.options + RenderCommand.extensionOptions

    // Long on purpose: the start-up order is the point (store, hooks, scheduler, intake, terminal).
    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let env = io.environment
        // Before anything is laid out: emoji are measured as this terminal draws them.
        DisplayWidth.emojiMeasure = .of(environment: env)
        let store: InboxStore
        let base: Renderer
        let device: Device
        let clock: SimulatedClock
        let config = TUIConfig.load(env)
        let bidi: Bool
        switch args.value(Options.bidi) {
        case "off"?: bidi = false
        case "on"?: bidi = true
        case nil: bidi = config.bidi ?? true
        case let other?:
            io.err("pushbox: --bidi is on or off, not \(TerminalText.sanitize(other))")
            return 2
        }
        do {
            clock = try ClockOptions.clock(args)
            store = try IntakeOptions.openStore(args, io)
            // The inbox's device (its app and languages kept beside it) unless the flags say otherwise.
            device = try Device.from(args, defaultApp: true, inbox: true, io: io)
            base = try device.renderer(args, io: io)
        } catch {
            io.err("pushbox: \(error)")
            return 2
        }
        let renderings = Renderings(base: base, store: store)
        let service = IntakeService(store: store, context: base.context, renderings: renderings)
        let registration = DeviceRegistrationFile(databasePath: store.path)
        let recordProblem = device.attach(to: service, registration: registration, clock: clock)
        if device.runsSampleApp(environment: env) { seedSamples(store: store, service: service, environment: env) }
        // The samples are in the store (the first page lists them): the TUI hears only of later arrivals.
        service.arrivals.flush()
        // Everything a request or a fired notification reaches is in place before the intake starts.
        let scheduler = LocalScheduler(service: service, clock: clock)
        let app = TUIApp(
            store: store, renderings: renderings, service: service, scheduler: scheduler, registration: registration, appFolder: device.appFolder,
            environment: env)
        scheduler.onChange = { [app] in app.postScheduled() }
        app.queue.post(.registration(registration.current()))
        var startStatus: String? = recordProblem.map { "the device was not recorded: \($0)" }
        if let refusal = LocalStartup.load(args, into: scheduler) { startStatus = refusal }
        service.onStoreFailure = { [app] result in app.queue.post(.status("not stored, answered 500: \(result.detail ?? "")")) }
        // Arrivals come whole, rendered for the device's languages, and renderings are pushed to
        // the queue: the TUI reads back nothing it was told and asks for no arrival's rendering.
        renderings.onArrived { [app] arrivals in
            app.queue.post(
                .arrived(arrivals.map { ArrivedItem(InboxItems.make($0.stored), rendering: $0.rendering, languageKey: $0.languageKey) }))
        }
        renderings.onRendered { [app] batch in app.queue.post(.rendered(batch.renderings, languageKey: batch.languageKey)) }
        let server: IntakeServer?
        let themes: [String: Theme]
        let chosen: String
        do {
            let (started, problem) = try startIntake(args, io: io, device: device, service: service, scheduler: scheduler, app: app)
            server = started
            app.requestLog.withLock { $0 = started?.router.requests }
            if let router = started?.router { app.followChaos(router.chaos) }
            if let problem { startStatus = problem }
            let (found, name, themeProblem) = try chooseTheme(args, saved: config.theme, environment: env)
            (themes, chosen) = (found, name)
            // A broken theme file is said at start, in the footer, and the others still work.
            if let themeProblem { startStatus = startStatus.map { $0 + "; " + themeProblem } ?? themeProblem }
        } catch {
            io.err("pushbox: \(error)")
            return 2
        }
        let terminal: Terminal
        do { terminal = try Terminal(environment: env) } catch {
            io.err("pushbox: \(error)")
            server?.stop()
            return 1
        }
        var state = InboxState(
            appName: device.profile?.name ?? "pushbox", languages: device.languages,
            languageChoices: languageChoices(base.localizer, device: device.languages))
        state.intake = IntakeStatus(
            socket: server?.options.socket == true ? server?.options.socketPath : nil, watched: server?.options.watch ?? [],
            port: server?.tcpAddress)
        state.themes = [chosen] + themes.keys.sorted().filter { $0 != chosen }
        state.profileTopics = device.profile?.fcmTopics ?? []
        state.stackWording = StackWording(appName: state.appName, categories: device.profile?.categories ?? [], localizer: base.localizer)
        state.bidi = bidi
        state.status = startStatus.map(StatusNote.message)
        app.load()
        app.postScheduled()
        scheduler.start()
        app.run(state: state, terminal: terminal, themes: themes, noColor: env["NO_COLOR"].map { !$0.isEmpty } ?? false)
        terminal.close()
        scheduler.stop()
        server?.stop()
        return 0
    }

    /// First run of the bundled sample app: a new inbox (one that never stored a notification,
    /// so a cleared one stays empty) gets the bundled samples. Another app's inbox starts empty.
    static func seedSamples(store: InboxStore, service: IntakeService, environment: [String: String]) {
        guard store.isNew, let samples = ResourceLocator.samplesDirectory(environment: environment) else { return }
        for file in ResourceLocator.samplePayloadFiles(in: samples) {
            if let raw = PayloadFile.read(file, source: .commandLine) { _ = service.receive(raw) }
        }
    }

    /// What the language picker offers: each of the app's localizations as a device language
    /// with its likely region (`ja` → `ja-JP`: a device set to Japanese has a region, and its FCM
    /// language topic is `LangJaJP`), then the device's own languages not among them, then the
    /// pseudolanguages.
    static func languageChoices(_ localizer: Localizer?, device: [String]) -> [String] {
        let localizations = localizer?.app.localizations().filter { $0 != "Base" } ?? []
        var seen = Set<String>()
        return (localizations.map(LanguageTag.withLikelyRegion) + device + Pseudolanguage.allCases.map(\.rawValue)).filter {
            seen.insert($0).inserted
        }
    }

    /// The socket, the port and the watches, unless --no-socket leaves them to another pushbox;
    /// an intake that cannot start is a footer message (the inbox still opens), bad options an error.
    static func startIntake(
        _ args: ParsedArguments, io: CommandIO, device: Device, service: IntakeService,
        scheduler: LocalScheduler, app: TUIApp
    ) throws(UsageError) -> (IntakeServer?, String?) {
        guard !args.flag(Options.noSocket) || !args.all(Options.watch).isEmpty else { return (nil, nil) }
        var options = IntakeServer.Options(socketPath: IntakeOptions.socketPath(args, io))
        options.watch = args.all(Options.watch)
        // --no-socket leaves the socket (and, unless --listen is given, the port) to another pushbox.
        options.socket = !args.flag(Options.noSocket)
        try PortOptions.apply(args, profile: device.profile, io: io, to: &options)
        if !options.socket && args.value(Options.listen) == nil { options.tcp = nil }
        let hooks = try Webhooks.configured(args, profile: device.profile)
        let chaos = try ChaosOptions.rules(args)
        let server: IntakeServer
        do {
            server = try IntakeServer(
                service: service, options: options, scheduler: scheduler, onWatchEnded: { [app] message in app.queue.post(.status(message)) })
        } catch {
            return (nil, "intake not started: \(error)")
        }
        hooks?.start(service, router: server.router)
        ChaosOptions.apply(chaos, to: server.router)
        return (server, nil)
    }

    /// The themes (bundled, the user's, or a file given with --theme), the one to start with,
    /// and what was wrong with a theme file that could not be used.
    static func chooseTheme(_ args: ParsedArguments, saved: String?, environment: [String: String]) throws(UsageError) -> (
        [String: Theme], String, String?
    ) {
        let projectThemes = ResourceLocator.samplesDirectory(environment: environment).map {
            (($0 as NSString).deletingLastPathComponent as NSString).appendingPathComponent("themes")
        }
        var (themes, problems) = ThemeFiles.loadAll(in: ThemeFiles.folders(projectThemes: projectThemes, environment: environment))
        var chosen = args.value(Options.theme) ?? saved ?? "dark"
        if chosen.hasSuffix(".json") {
            do {
                let t = try ThemeFiles.load(path: chosen)
                themes[t.name] = t
                chosen = t.name
            } catch {
                throw UsageError(message: "--theme: \(error)")
            }
        }
        guard themes[chosen] != nil || themes.isEmpty else {
            throw UsageError(message: "--theme \(chosen): no such theme (have \(themes.keys.sorted().joined(separator: ", ")))")
        }
        return (themes, chosen, problems.first)
    }
}
