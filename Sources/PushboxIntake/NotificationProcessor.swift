import CPosix
import Foundation
import PushboxCore
import PushboxStore
import PushboxText
import Synchronization

/// Renders stored notifications for the device's languages in the background and keeps the
/// result per language in the store, so the inbox shows them without rendering again.
public final class NotificationProcessor: Sendable {
    /// Renders for the device's languages.
    public let renderer: Renderer
    /// Where renderings are kept.
    public let store: InboxStore
    private let pending = DispatchGroup()
    /// Notifications waiting to be rendered: the first `payloadsKept` with their payload and the
    /// intake's validation, the rest by id alone (their payload is read back when rendered).
    private let backlog = Locked(Backlog())

    /// A first-in first-out queue that takes from its front by moving an index (removing the
    /// front of an array moves all the rest, and a burst leaves tens of thousands waiting), and
    /// how many threads render from it.
    struct Backlog {
        typealias Entry = (id: Int64, raw: RawPayload?, report: ValidationReport?)
        private var entries: [Entry] = []
        private var head = 0
        /// Threads rendering from it now.
        var renderers = 0
        /// How many wait.
        var count: Int { entries.count - head }
        mutating func append(_ entry: Entry) { entries.append(entry) }
        /// Takes up to the first `n` away; the storage is compacted once most of it is taken.
        mutating func takeFirst(_ n: Int) -> [Entry] {
            let taken = Array(entries[head..<min(head + n, entries.count)])
            head += taken.count
            if head == entries.count {
                entries.removeAll(keepingCapacity: entries.count <= 4096)
                head = 0
            } else if head >= 4096 && head * 2 >= entries.count {
                entries.removeFirst(head)
                head = 0
            }
            return taken
        }
    }

    /// The key renders are stored under: the preferred-language list.
    public var languageKey: String { renderer.preferredLanguages.joined(separator: ",") }

    /// Renders with `renderer` and keeps the results in `store`.
    public init(renderer: Renderer, store: InboxStore) {
        self.renderer = renderer
        self.store = store
    }

    /// How long the intake must have been quiet before the backlog is rendered.
    public static let quietPeriod: Duration = .milliseconds(20)
    /// Renderings waiting beyond this many are rendered even while pushes keep coming, so a
    /// flood that never pauses neither grows memory without bound nor leaves the inbox
    /// unrendered for long. A waiting rendering past the first `payloadsKept` is an id (tens of
    /// bytes), so this bounds memory at a few MB; readers render on demand what is not stored
    /// yet (`rendering(id:payload:)`), so nothing shows unrendered meanwhile.
    public static let maxDeferred = 200_000
    /// Only this many waiting renderings keep their payload and the intake's validation (a
    /// validation report is several times the payload's size in memory); later ones read the
    /// payload back from the store and validate again when rendered.
    static let payloadsKept = 1_000

    /// When a payload was last queued (monotonic nanoseconds, `DispatchTime.uptimeNanoseconds`).
    private let lastQueued = Atomic<UInt64>(0)

    /// Queues a stored notification's rendering; it runs after the answer went out (an extension
    /// may take its whole budget), on threads of their own (`renderThreads`) in Linux's idle
    /// scheduling class, once the intake has been quiet for `quietPeriod`: answers come first, and
    /// a burst is rendered when it ends (`pushbox-bench intake` reports how long after). Results
    /// are stored in batches, one transaction each. `report` is the intake's validation of `raw`
    /// (with the renderer's context), reused.
    public func enqueue(id: Int64, raw: RawPayload, report: ValidationReport? = nil) {
        pending.enter()
        lastQueued.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        let start = backlog.withLock { backlog in
            let keep = backlog.count < Self.payloadsKept
            backlog.append((id, keep ? raw : nil, keep ? report : nil))
            guard backlog.renderers < Self.renderThreads else { return false }
            backlog.renderers += 1
            return true
        }
        guard start else { return }
        // Threads of their own for each burst: their scheduling class ends with them instead of
        // staying on a pooled Dispatch thread that serves others later. Where the idle class is
        // refused, a nice value of 10 does a weaker job.
        let thread = Thread { [self] in
            if pb_set_thread_idle() != 0 { _ = pb_set_thread_nice(10) }
            renderBacklog()
        }
        thread.name = "pushbox.render"
        thread.start()
    }

    /// Threads that render a backlog: one per core (at most 4), so a burst's renderings drain on
    /// every core once the intake is quiet.
    static let renderThreads = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Renders the backlog in batches of up to 64, each batch's results stored in one
    /// transaction, until it is empty; waits while the intake is busy and the backlog is short.
    private func renderBacklog() {
        while true {
            let waiting = backlog.withLock { backlog in
                if backlog.count == 0 { backlog.renderers -= 1 }
                return backlog.count
            }
            if waiting == 0 { return }
            // Another thread may queue between reading the clock and `lastQueued`: no time since.
            let now = DispatchTime.now().uptimeNanoseconds, last = lastQueued.load(ordering: .relaxed)
            let sinceLast = Duration.nanoseconds(Int64(now > last ? now - last : 0))
            if Self.mustWait(quietFor: sinceLast, waiting: waiting) {
                usleep(UInt32((Self.quietPeriod - sinceLast) / .microseconds(1)) + 1000)
                continue
            }
            let batch = backlog.withLock { $0.takeFirst(64) }
            if batch.isEmpty { continue }  // another thread took the rest
            // Payloads not kept are read back in one query; one that is gone has nothing to render.
            let readBack = Dictionary(uniqueKeysWithValues: ((try? store.notifications(ids: batch.filter { $0.raw == nil }.map(\.id))) ?? [])
                .map { ($0.id, $0.rawPayload) })
            let rendered: [(id: Int64, language: String, json: String)] = batch.compactMap { id, raw, report in
                guard let raw = raw ?? readBack[id] else { return nil }
                return (id, languageKey, JSONWriter.compact(renderer.render(raw, validated: report).storedJSON))
            }
            // A rendering is a cache of what the stored payload gives: when it cannot be saved,
            // the inbox renders the notification again when it is shown.
            try? store.saveRenders(rendered)
            for _ in batch { pending.leave() }
        }
    }

    /// Whether the backlog waits: the intake was busy less than `quietPeriod` ago and fewer than
    /// `maxDeferred` renderings wait.
    static func mustWait(quietFor sinceLastQueued: Duration, waiting: Int) -> Bool {
        sinceLastQueued < quietPeriod && waiting < maxDeferred
    }

    /// Waits until every queued rendering is stored.
    public func drain() { pending.wait() }

    /// The stored rendering for this language list, if there is one.
    public func stored(id: Int64) -> RenderedNotification? {
        store.render(id: id, language: languageKey).flatMap { try? JSONParser.parse(Array($0.utf8)).objectValue }
            .flatMap(RenderedNotification.init(json:))
    }

    /// The rendering for this language list: the store's, or rendered now and kept. The payload
    /// is loaded only when it has to be rendered.
    public func rendering(id: Int64, payload: () -> RawPayload?) -> RenderedNotification? {
        if let cached = stored(id: id) { return cached }
        guard let raw = payload() else { return nil }
        let note = renderer.render(raw)
        try? store.saveRender(id: id, language: languageKey, json: JSONWriter.compact(note.storedJSON))
        return note
    }
}
