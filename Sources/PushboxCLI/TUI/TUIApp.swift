import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem
import PushboxTerminal
import PushboxThumbnail
import PushboxUI

/// The TUI: the same intake as `pushbox serve`, the store, and the inbox drawn in the terminal.
final class TUIApp: Sendable {
    let store: InboxStore
    /// The owner of every rendering; what it makes is pushed to the queue as `.rendered`.
    let renderings: Renderings
    let service: IntakeService
    let queue = MessageQueue()
    let work = DispatchQueue(label: "pushbox.tui.work")
    let environment: [String: String]
    /// Local notifications and the device clock, when the intake keeps them.
    let scheduler: LocalScheduler?
    /// The intake's record of requests, once it listens (none with --no-socket).
    let requestLog = Locked<RequestLog?>(nil)
    /// The intake's chaos rules, once it listens.
    let chaosBook = Locked<ChaosBook?>(nil)
    /// What the keys do to the inbox and its device (`U`, `O`, the picker, delete, replay, the clock).
    let actions: InboxActions
    init(
        store: InboxStore, renderings: Renderings, service: IntakeService, scheduler: LocalScheduler?, registration: DeviceRegistrationFile,
        appFolder: String?, environment: [String: String]
    ) {
        self.store = store
        actions = InboxActions(
            store: store, service: service, renderings: renderings, registrationFile: registration, scheduler: scheduler, appFolder: appFolder)
        self.renderings = renderings
        self.service = service
        self.scheduler = scheduler
        self.environment = environment
    }

    /// Carries out what `update` asked for, on the worker queue (never blocking the loop on the
    /// store or a file); results come back as messages.
    func execute(_ command: Command, state: InboxState) {
        switch command {
        case .render(let ids, let languages): work.async { [self] in renderings.request(ids, languages: languages) }
        case .thumbnail(let request):
            work.async { [self] in
                if let t = ThumbnailMaker.make(request) { queue.post(.thumbnailReady(request, t)) }
            }
        case .loadRequests: postRequests()
        case .loadChaos: postChaos()
        case .addChaosRule(let text):
            guard let book = chaosBook.withLock({ $0 }) else { return queue.post(.status("no intake runs here: chaos needs one")) }
            do { book.add(try ChaosRule.parse(text)) } catch { queue.post(.status(TerminalText.sanitize("\(error)"))) }
        case .setChaosRule(let id, let active): chaosBook.withLock { $0 }?.setActive(id, active)
        case .removeChaosRule(let id): chaosBook.withLock { $0 }?.remove(id)
        case .clearChaos: chaosBook.withLock { $0 }?.clear()
        case .loadActivities: work.async { [self] in postActivities(of: state.shownDevice) }
        case .setAppInstalled(let installed):
            work.async { [self] in
                do {
                    queue.post(.registration(try actions.change(installed ? .install : .uninstall)))
                    queue.post(.status(installed ? "app installed" : "app uninstalled: APNs answers 410 Unregistered, FCM 404 UNREGISTERED"))
                } catch {
                    queue.post(.status("\(error)"))
                }
            }
        case .setDeviceOnline(let online):
            work.async { [self] in
                do {
                    if online {
                        let back = try actions.comeOnline(languages: state.device.languages)
                        queue.post(.deliveries(back.changed))
                        queue.post(.registration(back.registration))
                        queue.post(.status("device online: \(back.delivered) delivered from storage, \(back.discarded) discarded — expired"))
                    } else {
                        queue.post(.registration(try actions.change(.offline)))
                        queue.post(.status("device offline: the push service answers as usual and keeps what it accepts"))
                    }
                } catch {
                    queue.post(.status("\(error)"))
                }
            }
        case .refreshDeliveries(let ids):
            work.async { [self] in
                guard let rows = try? store.notifications(ids: ids) else { return }
                queue.post(.deliveries(Dictionary(uniqueKeysWithValues: rows.compactMap { row in row.delivery.map { (row.id, $0) } })))
            }
        case .loadRaw(let id):
            work.async { [self] in
                guard let n = load(id) else { return }
                queue.post(.rawLoaded(id: id, text: InboxItems.prettyRaw(n)))
            }
        case .matrix(let id, let languages):
            work.async { [self] in
                guard let row = load(id) else { return }
                queue.post(
                    .matrixReady(
                        languages.compactMap { language in
                            renderings.rendering(id: id, languages: [language], row: row).map { (language: language, note: $0) }
                        }))
            }
        case .replay(let id): work.async { [self] in replay(id) }
        // The footer already says what happened (update set it); only a failure is news.
        case .delete(let id): work.async { [self] in storeChange("delete") { () throws(StoreError) in try store.delete(id: id) } }
        case .export(let id): work.async { [self] in export(id) }
        case .clearInbox: work.async { [self] in storeChange("clear") { () throws(StoreError) in try store.clear() } }
        case .undelete(let id): work.async { [self] in storeChange("undo") { () throws(StoreError) in try store.undelete(id: id) } }
        case .saveLanguages(let languages):
            var changed = TUIConfig.load(environment)
            changed.theme = state.theme
            let config = changed
            // The languages are the device's, kept with the inbox; the theme is the user's.
            do { try actions.changeLanguages(to: languages, profileTopics: state.profileTopics) } catch {
                queue.post(.status("the languages were not kept: \(error)"))
            }
            work.async { [self] in
                if let problem = config.save(environment) { queue.post(.status(problem)) }
            }
        case .fleet(let id):
            work.async { [self] in
                guard let share = service.fleetShare(of: id) else { return }
                queue.post(.fleetReady(Self.summary(share)))
            }
        case .changeFleetDevice(let name, let change):
            work.async { [self] in
                do {
                    let back = try actions.changeFleetDevice(name, change)
                    if !back.changed.isEmpty { queue.post(.deliveries(back.changed)) }
                    queue.post(.registration(back.registration))
                    if change == nil {
                        queue.post(.status("\(name) online: \(back.delivered) delivered from storage, \(back.discarded) discarded — expired"))
                    }
                } catch {
                    queue.post(.status("\(error)"))
                }
            }
        case .advanceClock(let seconds):
            // The scheduler's onChange tells the view.
            work.async { [self] in
                actions.moveClock(by: seconds)
                postActivities(of: state.shownDevice)
            }
        case .jumpClock:
            work.async { [self] in
                if !actions.moveClock(by: nil) { queue.post(.status("nothing pending: the clock stays")) }
                postActivities(of: state.shownDevice)
            }
        case .quit:
            break  // the loop ends on it before carrying out commands
        }
    }

    /// A stored notification, or nil with the reason posted to the footer.
    private func load(_ id: Int64) -> StoredNotification? {
        do {
            guard let n = try store.notification(id: id) else {
                queue.post(.status("that notification is no longer in the inbox"))
                return nil
            }
            return n
        } catch {
            queue.post(.status("cannot read the notification: \(error)"))
            return nil
        }
    }

    /// Sends a stored notification in again: a push as a replay, a local notification as one.
    private func replay(_ id: Int64) {
        guard let row = load(id) else { return }
        let result = actions.replay(row)
        queue.post(.status("replayed: \(result.status)\(result.reason.map { " " + $0 } ?? "")"))
    }

    /// Writes an accepted push as a Simulator `.apns` file in the current folder.
    private func export(_ id: Int64) {
        guard let n = load(id) else { return }
        guard let document = actions.simulatorFile(n) else {
            return queue.post(
                .status(
                    "only accepted pushes can be exported (a refused one is not a push the Simulator would take; a local notification is not a push)")
            )
        }
        let folder = Self.exportFolder(environment)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/pushbox-\(n.id).apns"
        do {
            try (JSONWriter.pretty(.object(document)) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            queue.post(.status("exported \(path)"))
        } catch {
            queue.post(.status("export failed: cannot write \(path): \(FileErrorText.describe(error))"))
        }
    }

    /// Where `e` writes: the config's `exportDirectory`, else the folder pushbox started in.
    static func exportFolder(_ environment: [String: String]) -> String {
        TUIConfig.load(environment).exportDirectory.map { ($0 as NSString).expandingTildeInPath } ?? FileManager.default.currentDirectoryPath
    }

    /// Runs a change of the store; says in the footer when it failed.
    private func storeChange(_ what: String, _ change: () throws(StoreError) -> Void) {
        do { try change() } catch { queue.post(.status("\(what) failed: \(error)")) }
    }

    /// Tells the UI the requests on record, newest first.
    /// Follows the intake's chaos rules: every change (here, from `pushbox chaos`, from the API)
    /// reaches the view, and the header says "chaos on" while any rule is.
    func followChaos(_ book: ChaosBook) {
        chaosBook.withLock { $0 = book }
        book.onChange { [weak self] in self?.postChaos() }
        postChaos()
    }

    /// Tells the UI the chaos rules now.
    func postChaos() {
        guard let book = chaosBook.withLock({ $0 }) else { return }
        let rules = book.entries.map {
            ChaosPanel.Rule(id: $0.id, text: $0.rule.text, active: $0.active, spent: $0.spent, matched: $0.matched, fired: $0.fired)
        }
        queue.post(.chaos(ChaosPanel(rules: rules, armed: book.isArmed)))
    }

    func postRequests() {
        guard let log = requestLog.withLock({ $0 }) else { return queue.post(.requests([])) }
        let time = DateFormatter()
        time.dateFormat = "HH:mm:ss"
        let lines = log.recent(limit: 200).map { r in
            RequestLine(
                time: time.string(from: r.time), status: r.status, reason: r.reason, request: "\(r.method) \(r.path)",
                via: "\(r.protocolName) \(r.listener)", cause: r.cause, chaos: r.chaos)
        }
        queue.post(.requests(lines))
    }

    /// Tells the UI the device's Live Activities now.
    /// The Live Activities of the device shown (`shown`: an added iPhone's, else the default device's).
    func postActivities(of shown: String? = nil) {
        let member = shown.flatMap { service.phone.registration()?.device(named: $0) }
        // An Android phone has none to show.
        guard let activities = member != nil ? member.flatMap(service.phone.liveActivities(of:)) : service.phone.liveActivities else { return }
        let zone = scheduler?.clock.timeZone ?? .current
        let now = activities.now()
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "EEE yyyy-MM-dd HH:mm:ss"
        queue.post(
            .activities(
                ActivitiesInfo(
                    book: activities.file.current().book, now: now, clock: f.string(from: Date(timeIntervalSince1970: now)),
                    templates: activities.profile.types.compactMapValues(\.template), timeZone: zone)))
    }

    /// Tells the UI what is pending and what the clock says.
    func postScheduled() {
        guard let scheduler else { return }
        queue.post(.scheduled(ScheduledInfoBuilder.info(scheduler)))
    }

    /// The inbox's `data_version` when this TUI last read it whole.
    private let seenVersion = Locked<Int64?>(nil)

    /// Reads the inbox again when another process changed it (a second pushbox's intake, a
    /// delete in another inbox, `pushbox device online` or `clear` from a shell), on the worker.
    func followOtherProcesses() {
        work.async { [self] in
            let version = store.dataVersion
            let known = seenVersion.withLock { seen in
                defer { seen = version }
                return seen
            }
            guard let known, known != version else { return }
            queue.post(.reloaded(((try? store.inbox()) ?? []).map { InboxItems.make($0, keepPayload: false) }))
        }
    }

    /// Loads the inbox: the newest page first (the first frame needs only those), the rest after
    /// in chunks, without their raw text (loaded when a notification is looked at).
    func load(pageSize: Int = 500, chunk: Int = 5000) {
        seenVersion.withLock { $0 = store.dataVersion }
        let first = ((try? store.inbox(limit: pageSize)) ?? []).map { InboxItems.make($0) }
        queue.post(.loaded(first))
        guard first.count == pageSize else { return }
        work.async { [self] in
            var offset = pageSize
            while true {
                let page = ((try? store.inbox(limit: chunk, offset: offset)) ?? []).map { InboxItems.make($0, keepPayload: false) }
                if !page.isEmpty { queue.post(.older(page)) }
                if page.count < chunk { return }
                offset += chunk
            }
        }
    }

    /// The shortest time between two foldings of new arrivals into the list.
    static let foldInterval = 0.2

    /// Runs until `q`: events in, one update per message, one redraw per burst.
    // Long on purpose: the loop's one pass (drain, update, execute, draw, wait) reads best whole.
    func run(state initial: InboxState, terminal: Terminal, themes: [String: Theme], noColor: Bool) {
        var state = initial
        (state.width, state.height) = terminal.size
        var appliedTheme = ""
        var dirty = true
        // Arrivals are folded in at most five times a second: laying out a large inbox once
        // per 200 ms instead of once per frame keeps keys answered during a burst.
        var arrivals: [ArrivedItem] = []
        var lastFold = Date.distantPast
        var lastClock = Date.distantPast
        var lastRequests = Date.distantPast
        var lastActivities = Date.distantPast
        var lastInboxCheck = Date.distantPast
        var lastRegistration = (checked: Date.distantPast, value: actions.registrationFile.current())
        while true {
            // `pushbox device` in another shell changes the registration: the header and the
            // stored notifications follow within a second.
            if Date().timeIntervalSince(lastRegistration.checked) >= 1 {
                let now = actions.registrationFile.current()
                // Every change to the file moves its counter.
                if now.changes != lastRegistration.value.changes { queue.post(.registration(now)) }
                lastRegistration = (Date(), now)
            }
            // Another process's changes to the inbox reach this one within a second.
            if Date().timeIntervalSince(lastInboxCheck) >= 0.5 {
                followOtherProcesses()
                lastInboxCheck = Date()
            }
            // The device clock in the header moves on its own (faster with --speed).
            if let sched = state.scheduled, sched.simulated || !sched.pending.isEmpty, Date().timeIntervalSince(lastClock) >= 0.5 {
                postScheduled()
                lastClock = Date()
            }
            // The Live Activities view follows pushes, other shells and the clock while it is open.
            if state.overlay == .activities, Date().timeIntervalSince(lastActivities) >= 0.5 {
                let shown = state.shownDevice
                work.async { [self] in postActivities(of: shown) }
                lastActivities = Date()
            }
            // The Requests view follows new requests while it is open.
            if state.overlay == .requests, Date().timeIntervalSince(lastRequests) >= 0.5 {
                postRequests()
                lastRequests = Date()
            }
            var commands: [Command] = []
            var messages: [Message] = []
            for message in queue.drain() {
                if case .arrived(let items) = message { arrivals += items } else { messages.append(message) }
            }
            if !arrivals.isEmpty, Date().timeIntervalSince(lastFold) >= Self.foldInterval {
                messages.append(.arrived(arrivals))
                arrivals.removeAll()
                lastFold = Date()
            }
            for message in messages {
                commands += state.update(message)
                dirty = true
            }
            // `.quit` ends the loop; it is the only way out.
            if commands.contains(.quit) { break }
            for c in commands { execute(c, state: state) }
            if state.theme != appliedTheme {
                terminal.apply(themes[state.theme] ?? Theme.monochrome, noColor: noColor)
                appliedTheme = state.theme
                // A theme can change the palette thumbnails are drawn in.
                if state.palette != terminal.palette { queue.post(.palette(terminal.palette)) }
            }
            if dirty {
                // The view is a function of the state alone: the device's clock is read here, and
                // every time is shown on it, in its zone (it can travel).
                state.now = scheduler?.clock.now ?? Date()
                state.timeZone = scheduler?.clock.timeZone ?? .current
                terminal.draw(InboxView.screen(state))
                dirty = false
            }
            // Keys curses has already read come first; then sleep until a key, a message, or
            // the next timed duty (folding arrivals in, moving the header's clock).
            var typed = false
            while let event = terminal.nextEvent(timeoutMs: 0) {
                queue.post(event)
                typed = true
            }
            if !typed {
                // At least twice a second: another process's changes to the inbox are looked for.
                var waitSeconds = 0.5
                if !arrivals.isEmpty { waitSeconds = min(waitSeconds, Self.foldInterval - Date().timeIntervalSince(lastFold)) }
                if let sched = state.scheduled, sched.simulated || !sched.pending.isEmpty {
                    waitSeconds = min(waitSeconds, 0.5 - Date().timeIntervalSince(lastClock))
                }
                queue.wait(orReadable: STDIN_FILENO, timeoutMs: Int32(max(0, waitSeconds * 1000).rounded(.up)))
            }
        }
    }
}

extension TUIApp {
    /// The fleet view's content from the inbox's share of a push: a cell per device.
    static func summary(_ share: FleetShare) -> FleetSummary {
        FleetSummary(
            push: share.push,
            cells: share.parts.map { part in
                FleetCell(
                    device: part.member.name, platform: part.member.platform, languages: part.member.languages, rendering: part.rendering,
                    state: part.state, reached: part.reached,
                    findings: part.findings.map { $0.kind == .wrongLanguage ? "wrong language (\($0.cause?.rawValue ?? "?"))" : $0.kind.rawValue })
            })
    }
}
