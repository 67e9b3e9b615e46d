import CPosix
import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxSystem
import Synchronization

/// Renderings for one language list, pushed to whoever listens.
public struct RenderBatch: Sendable {
    /// The renderings, by notification id.
    public var renderings: [Int64: RenderedNotification]
    /// The language list they were rendered for (`RenderKey.languageKey`).
    public var languageKey: String
}

/// The one owner of every rendering of a (notification, device language list) pair: it renders
/// ahead, in the background, what arrives (for the device's languages), or on demand what a
/// reader asks for; it keeps an in-flight set so one pair is never rendered twice at once,
/// stores each result, and pushes it to its listeners (the TUI). An arrival's validation is
/// reused for every language list while the arrival is recent.
public final class Renderings: Sendable {
    /// The device: its app, localizations, extension and (the languages rendered ahead) languages.
    public let base: Renderer
    /// Where renderings are kept.
    public let store: InboxStore
    let state: Locked<State>
    private let listeners = Locked<[@Sendable (RenderBatch) -> Void]>([])
    let arrivalListeners = Locked<[@Sendable ([RenderedArrival]) -> Void]>([])
    /// Held while arrivals are handed on, so listeners hear them in arrival order.
    let handingOn = NSLock()
    /// Entered for every arrival queued, left once it was rendered (`drain`).
    private let pending = DispatchGroup()
    /// When an arrival was last queued (monotonic nanoseconds, `DispatchTime.uptimeNanoseconds`).
    private let lastQueued = Atomic<UInt64>(0)

    /// A rendering being made: readers of the same pair wait for it instead of making it again.
    final class InFlight: Sendable {
        let done = DispatchGroup()
        let result = Locked<RenderedNotification?>(nil)
        init() { done.enter() }
    }

    /// A recent arrival: its payload and the intake's validation, reused when it is rendered.
    typealias Recent = (raw: RawPayload, report: ValidationReport?)

    struct State {
        /// The languages rendered ahead: the device's.
        var aheadLanguages: [String]
        /// Arrivals waiting to be rendered ahead, oldest first.
        var backlog = FIFO<Int64>()
        /// Those of them not rendered yet (one rendered on demand meanwhile is taken out).
        var waiting = Set<Int64>()
        /// The latest `recentKept` arrivals' payloads and validations.
        var recent: [Int64: Recent] = [:]
        var recentOrder = FIFO<Int64>()
        var inFlight: [RenderKey: InFlight] = [:]
        /// Threads rendering the backlog now.
        var renderers = 0
        /// Arrivals to hand to the arrival listeners once rendered (only while there are some),
        /// each with its place in arrival order.
        var unpublished: [Int64: (place: Int, row: StoredNotification)] = [:]
        /// The place the next arrival gets, and the next place to hand on.
        var nextPlace = 0
        var nextToPublish = 0
        /// Rendered arrivals waiting for those before them (another thread renders them), by place.
        var ready: [Int: RenderedArrival] = [:]
        /// When the oldest arrival still waiting in the backlog was queued (monotonic nanoseconds).
        var oldestWaiting: UInt64?
        /// Arrivals of another device of the fleet, rendered ahead in its languages, not the ahead ones.
        var ownLanguages: [Int64: [String]] = [:]

        mutating func remember(_ id: Int64, _ entry: Recent) {
            recent[id] = entry
            recentOrder.append(id)
            while recentOrder.count > Renderings.recentKept, let old = recentOrder.popFirst() { recent[old] = nil }
        }
    }

    /// Renders with `base` (its languages are rendered ahead) and keeps the results in `store`;
    /// the backlog waits for the intake to be quiet for `quietPeriod`.
    public init(base: Renderer, store: InboxStore, quietPeriod: Duration = Renderings.quietPeriod) {
        self.base = base
        self.store = store
        self.quietPeriod = quietPeriod
        state = Locked(State(aheadLanguages: base.preferredLanguages))
    }

    /// How long the intake must have been quiet before the backlog is rendered, by default.
    public static let quietPeriod: Duration = .milliseconds(20)
    /// How long the intake must have been quiet before this backlog is rendered.
    let quietPeriod: Duration
    /// Renderings waiting beyond this many are rendered even while pushes keep coming, so a
    /// flood that never pauses neither grows memory without bound nor leaves the inbox
    /// unrendered for long. A waiting rendering is an id (tens of bytes), so this bounds memory
    /// at a few MB; readers render on demand what is not stored yet.
    public static let maxDeferred = 200_000
    /// How many of the latest arrivals keep their payload and the intake's validation (a
    /// validation report is several times the payload's size in memory); an older one is read
    /// back from the store and validated again when it is rendered.
    static let recentKept = 1_000
    /// Threads that render a backlog: one per core (at most 4).
    static let renderThreads = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// The languages of the fleet's added devices, by name (the intake sets it): a notification
    /// delivered to one is rendered in its languages.
    let fleetLanguages = Locked<(@Sendable (String) -> [String]?)?>(nil)

    /// Tells the renderings each added device's languages (nil: the default device's).
    public func languages(ofDevice lookup: @escaping @Sendable (String) -> [String]?) {
        fleetLanguages.withLock { $0 = lookup }
    }

    /// The languages a stored notification is rendered in when none are asked for: its device's.
    func languages(of row: StoredNotification) -> [String]? {
        guard let device = row.device, let lookup = fleetLanguages.withLock({ $0 }) else { return nil }
        return lookup(device)
    }

    /// The renderer for a language list (cheap: the localizer's tables are shared).
    public func renderer(for languages: [String]) -> Renderer {
        var r = base
        r.preferredLanguages = languages
        return r
    }

    /// Calls `listener` with every batch of renderings made or read for a request, and with
    /// those rendered ahead.
    public func onRendered(_ listener: @escaping @Sendable (RenderBatch) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// The judgement kept with a stored row, for a rendering of it (`Phone.report`).
    func storedReport(_ row: StoredNotification) -> ValidationReport? {
        Phone.report(of: row.rawPayload, verdict: row.verdict, context: base.context)
    }

    /// Renders these rows again for `languages` and pushes them as one batch: their Live
    /// Activity outcome was decided after they arrived (delivered from storage).
    public func renderAgain(_ rows: [StoredNotification], languages: [String]) {
        request(rows.map { ($0.id, $0) }, languages: languages)
    }

    /// The languages rendered ahead, and rendered in when none are asked for: the device's.
    public var aheadLanguages: [String] { state.withLock { $0.aheadLanguages } }

    /// Renders ahead for these languages from now on (the TUI's device languages changed).
    public func renderAhead(for languages: [String]) {
        state.withLock { $0.aheadLanguages = languages }
    }

    // MARK: Arrivals

    /// Takes a burst of arrivals from the intake; `reportsApply` says whether the intake's
    /// validation used this renderer's context, so it can stand in for the renderer's own.
    func arrived(_ events: [ArrivalEvent], reportsApply: Bool) {
        for _ in events { pending.enter() }
        let now = DispatchTime.now().uptimeNanoseconds
        lastQueued.store(now, ordering: .relaxed)
        let publishing = !arrivalListeners.withLock { $0.isEmpty }
        let own = events.compactMap { e in languages(of: e.stored).map { (e.id, $0) } }
        let start = state.withLock { state in
            for (id, languages) in own where languages != state.aheadLanguages { state.ownLanguages[id] = languages }
            if state.oldestWaiting == nil { state.oldestWaiting = now }
            for e in events {
                if publishing {
                    state.unpublished[e.id] = (state.nextPlace, e.stored)
                    state.nextPlace += 1
                }
                state.remember(e.id, (e.stored.rawPayload, reportsApply ? e.report : storedReport(e.stored)))
                state.backlog.append(e.id)
                state.waiting.insert(e.id)
            }
            let threads = min(Self.renderThreads - state.renderers, state.backlog.count)
            state.renderers += max(0, threads)
            return max(0, threads)
        }
        // Threads of their own for each burst: their scheduling class ends with them instead of
        // staying on a pooled Dispatch thread that serves others later. Where the idle class is
        // refused, a nice value of 10 does a weaker job.
        for _ in 0..<start {
            let thread = Thread { [self] in
                // Somebody waiting for arrivals (the inbox) is served at normal priority: an idle
                // class thread gets no time on a busy machine, and the inbox would show nothing.
                if !publishing, pb_set_thread_idle() != 0 { _ = pb_set_thread_nice(10) }
                renderBacklog()
            }
            thread.name = "pushbox.render"
            thread.start()
        }
    }

    /// Whether the backlog waits: the intake was busy less than `quietPeriod` ago, fewer than
    /// `maxDeferred` renderings wait, and the oldest has waited less than `maxWait` when somebody
    /// waits for arrivals (`waitedFor`; nil: nobody does).
    static func mustWait(
        quietFor sinceLastQueued: Duration, waiting: Int, waitedFor: Duration? = nil, quietPeriod: Duration = Renderings.quietPeriod
    ) -> Bool {
        sinceLastQueued < quietPeriod && waiting < maxDeferred && (waitedFor.map { $0 < maxWait } ?? true)
    }

    /// Renders the backlog in batches of up to 64, each batch's results stored in one
    /// transaction, until it is empty; waits while the intake is busy and the backlog is short.
    private func renderBacklog() {
        while true {
            let (waiting, oldest, publishing) = state.withLock { state in
                if state.backlog.count == 0 { state.renderers -= 1 }
                return (state.backlog.count, state.oldestWaiting, !state.unpublished.isEmpty)
            }
            if waiting == 0 { return }
            // Another thread may queue between reading the clock and `lastQueued`: no time since.
            let now = DispatchTime.now().uptimeNanoseconds
            let last = lastQueued.load(ordering: .relaxed)
            let sinceLast = Duration.nanoseconds(Int64(now > last ? now - last : 0))
            let waited = publishing ? oldest.map { Duration.nanoseconds(Int64(now > $0 ? now - $0 : 0)) } : nil
            if Self.mustWait(quietFor: sinceLast, waiting: waiting, waitedFor: waited, quietPeriod: quietPeriod) {
                usleep(UInt32((quietPeriod - sinceLast) / .microseconds(1)) + 1000)
                continue
            }
            renderBatch(size: 64)
        }
    }

    /// Takes up to `batchSize` arrivals from the backlog and renders those nobody rendered or is
    /// rendering for the ahead languages; their results are stored in one transaction and pushed.
    private func renderBatch(size: Int) {
        let (taken, claimed, languages, toPublish) = state.withLock { state in
            let taken = state.backlog.takeFirst(size)
            state.oldestWaiting = state.backlog.count == 0 ? nil : DispatchTime.now().uptimeNanoseconds
            let toPublish = state.unpublished.isEmpty ? [] : taken.compactMap { state.unpublished.removeValue(forKey: $0) }
            var claimed: [(key: RenderKey, recent: Recent?, flight: InFlight)] = []
            for id in taken where state.waiting.remove(id) != nil {
                let key = RenderKey(id: id, languages: state.ownLanguages.removeValue(forKey: id) ?? state.aheadLanguages)
                guard state.inFlight[key] == nil else { continue }
                let flight = InFlight()
                state.inFlight[key] = flight
                claimed.append((key, state.recent[id], flight))
            }
            return (taken, claimed, state.aheadLanguages, toPublish)
        }
        defer { for _ in taken { pending.leave() } }
        guard !claimed.isEmpty else {
            publish(toPublish, made: [:], languages: languages)
            return
        }
        // Payloads no longer recent are read back in one query; one that is gone has nothing to render.
        let readBack = Dictionary(
            uniqueKeysWithValues: ((try? store.notifications(ids: claimed.filter { $0.recent == nil }.map(\.key.id))) ?? []).map {
                ($0.id, $0)
            })
        var renderers = [RenderKey.languageKey(languages): renderer(for: languages)]
        var made: [(key: RenderKey, note: RenderedNotification?, flight: InFlight)] = []
        for c in claimed {
            guard let raw = c.recent?.raw ?? readBack[c.key.id]?.rawPayload else {
                made.append((c.key, nil, c.flight))
                continue
            }
            let report = c.recent?.report ?? readBack[c.key.id].flatMap(storedReport)
            if renderers[c.key.languageKey] == nil { renderers[c.key.languageKey] = renderer(for: c.key.languages) }
            made.append((c.key, renderers[c.key.languageKey]!.render(raw, validated: report), c.flight))
        }
        // A rendering is a cache of what the stored payload gives: when it cannot be saved, the
        // inbox renders the notification again when it is shown.
        try? store.saveRenders(made.compactMap { m in m.note.map { (m.key.id, m.key.languageKey, JSONWriter.compact($0.storedJSON)) } })
        finish(made)
        // A fleet device's rendering in its own languages is stored, not handed on as the ahead languages'.
        let aheadKey = RenderKey.languageKey(languages)
        let renderings = Dictionary(
            uniqueKeysWithValues: made.compactMap { m in m.key.languageKey == aheadKey ? m.note.map { (m.key.id, $0) } : nil })
        // An arrival handed on whole (`onArrived`) is not pushed again as a rendering.
        let handedOn = Set(toPublish.map(\.row.id))
        push(RenderBatch(renderings: renderings.filter { !handedOn.contains($0.key) }, languageKey: RenderKey.languageKey(languages)))
        publish(toPublish, made: renderings, languages: languages)
    }

    /// Marks renderings done: their waiters wake with the result and the pairs leave the in-flight set.
    private func finish(_ done: [(key: RenderKey, note: RenderedNotification?, flight: InFlight)]) {
        for d in done { d.flight.result.withLock { $0 = d.note } }
        state.withLock { state in
            for d in done { state.inFlight[d.key] = nil }
        }
        for d in done { d.flight.done.leave() }
    }

    private func push(_ batch: RenderBatch) {
        guard !batch.renderings.isEmpty else { return }
        for listener in listeners.withLock({ $0 }) { listener(batch) }
    }

    /// Waits until every arrival queued so far was rendered ahead (or on demand) and stored.
    public func drain() { pending.wait() }

    // MARK: On demand

    /// The rendering of `id` for `languages` (default: the device's): the store's, the one being
    /// made (waited for), or made now and stored. `row` is the stored row when the caller has
    /// read it; otherwise a recent arrival's payload is used, or the row is read.
    public func rendering(id: Int64, languages: [String]? = nil, row: StoredNotification? = nil) -> RenderedNotification? {
        // Without languages asked for: the device's as they are now (the picker, the API).
        let key = RenderKey(id: id, languages: languages ?? state.withLock { $0.aheadLanguages })
        let (flight, kept, mine) = state.withLock { state -> (InFlight, Recent?, Bool) in
            if let flight = state.inFlight[key] { return (flight, nil, false) }
            let flight = InFlight()
            state.inFlight[key] = flight
            // Made now for the ahead languages: the backlog has nothing left to do for it.
            if key.languages == state.aheadLanguages { state.waiting.remove(id) }
            return (flight, state.recent[id], true)
        }
        guard mine else {
            flight.done.wait()
            return flight.result.withLock { $0 }
        }
        var note = stored(key)
        // A row whose Live Activity outcome was decided after it arrived (delivered from
        // storage) is rendered again from the row, not from the arrival's report, and a rendering
        // stored before the outcome (another process may have made it meanwhile) is replaced.
        let rowHasOutcome = row?.liveActivity != nil
        if rowHasOutcome, note?.liveActivity == nil { note = nil }
        let recent = rowHasOutcome && kept?.report?.liveActivity == nil ? nil : kept
        if note == nil {
            let source = recent == nil ? row ?? (try? store.notification(id: id)) : nil
            if let raw = recent?.raw ?? source?.rawPayload {
                let made = renderer(for: key.languages).render(raw, validated: recent?.report ?? source.flatMap(storedReport))
                try? store.saveRender(id: id, language: key.languageKey, json: JSONWriter.compact(made.storedJSON))
                note = made
            }
        }
        finish([(key, note, flight)])
        return note
    }

    /// The rendering of a stored notification as the device has it at `now`: its rendering for
    /// `languages` (default: the device's), with where it stands in delivery applied.
    /// A row delivered to another device of the fleet is rendered in that device's languages.
    public func shown(_ row: StoredNotification, languages: [String]? = nil, now: Date = Date()) -> RenderedNotification? {
        rendering(id: row.id, languages: languages ?? self.languages(of: row), row: row)?.delivering(
            row.delivery, receivedAt: row.receivedAt, now: now)
    }

    /// Renders (or reads) these notifications for `languages` on the caller's thread and pushes
    /// them to the listeners as one batch.
    public func request(_ ids: [Int64], languages: [String]) {
        request(ids.map { ($0, nil) }, languages: languages)
    }

    /// Renders each notification (from its row when given) and pushes them as one batch.
    private func request(_ items: [(id: Int64, row: StoredNotification?)], languages: [String]) {
        var map: [Int64: RenderedNotification] = [:]
        for item in items { map[item.id] = rendering(id: item.id, languages: languages, row: item.row) }
        push(RenderBatch(renderings: map, languageKey: RenderKey.languageKey(languages)))
    }

    /// The stored rendering of a pair, if there is one.
    public func stored(_ key: RenderKey) -> RenderedNotification? {
        store.render(id: key.id, language: key.languageKey).flatMap { try? JSONParser.parse(Array($0.utf8)).objectValue }
            .flatMap(RenderedNotification.init(json:))
    }
}
