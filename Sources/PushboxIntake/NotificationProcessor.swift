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
    /// Notifications waiting to be rendered, with the intake's validation when it can be reused.
    private let backlog = Locked(Backlog())

    /// A first-in first-out queue that takes from its front by moving an index: removing the
    /// front of an array moves all the rest, and a burst leaves tens of thousands waiting.
    struct Backlog {
        typealias Entry = (id: Int64, raw: RawPayload, report: ValidationReport?)
        private var entries: [Entry] = []
        private var head = 0
        /// How many wait.
        var count: Int { entries.count - head }
        mutating func append(_ entry: Entry) { entries.append(entry) }
        /// The first `n` waiting, left in place.
        func first(_ n: Int) -> ArraySlice<Entry> { entries[head..<min(head + n, entries.count)] }
        /// Takes the first `n` away; the storage is compacted once most of it is taken.
        mutating func removeFirst(_ n: Int) {
            head += n
            if head == entries.count {
                entries.removeAll(keepingCapacity: entries.count <= 4096)
                head = 0
            } else if head >= 4096 && head * 2 >= entries.count {
                entries.removeFirst(head)
                head = 0
            }
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
    /// flood that never pauses neither grows memory without bound nor leaves the inbox unrendered.
    public static let maxDeferred = 20_000
    /// Only this many waiting renderings keep the intake's validation; later ones validate again
    /// when rendered (a validation report is several times the payload's size in memory).
    static let reportsKept = 1_000

    /// When a payload was last queued (monotonic nanoseconds, `DispatchTime.uptimeNanoseconds`).
    private let lastQueued = Atomic<UInt64>(0)

    /// Queues a stored notification's rendering; it runs after the answer went out (an extension
    /// may take its whole budget), on a thread of its own in Linux's idle scheduling class, once
    /// the intake has been quiet for `quietPeriod`: answers come first, and a burst is rendered
    /// when it ends (`pushbox-bench intake` reports how long after). Results are stored in
    /// batches, one transaction each. `report` is the intake's validation of `raw` (with the
    /// renderer's context), reused.
    public func enqueue(id: Int64, raw: RawPayload, report: ValidationReport? = nil) {
        pending.enter()
        lastQueued.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        let first = backlog.withLock { backlog in
            backlog.append((id, raw, backlog.count < Self.reportsKept ? report : nil))
            return backlog.count == 1
        }
        guard first else { return }
        // A thread of its own for each burst: its scheduling class ends with it instead of
        // staying on a pooled Dispatch thread that serves others later. Where the idle class is
        // refused, a nice value of 10 does a weaker job.
        let thread = Thread { [self] in
            if pb_set_thread_idle() != 0 { _ = pb_set_thread_nice(10) }
            renderBacklog()
        }
        thread.name = "pushbox.render"
        thread.start()
    }

    /// Renders the backlog in batches of up to 64, each batch's results stored in one
    /// transaction, until it is empty; waits while the intake is busy and the backlog is short.
    private func renderBacklog() {
        while true {
            let waiting = backlog.withLock { $0.count }
            if waiting == 0 { return }
            // Another thread may queue between reading the clock and `lastQueued`: no time since.
            let now = DispatchTime.now().uptimeNanoseconds, last = lastQueued.load(ordering: .relaxed)
            let sinceLast = Duration.nanoseconds(Int64(now > last ? now - last : 0))
            if Self.mustWait(quietFor: sinceLast, waiting: waiting) {
                usleep(UInt32((Self.quietPeriod - sinceLast) / .microseconds(1)) + 1000)
                continue
            }
            let batch = backlog.withLock { Array($0.first(64)) }
            let rendered = batch.map { id, raw, report in (id, languageKey, JSONWriter.compact(renderer.render(raw, validated: report).storedJSON)) }
            // A rendering is a cache of what the stored payload gives: when it cannot be saved,
            // the inbox renders the notification again when it is shown.
            try? store.saveRenders(rendered)
            let done = backlog.withLock { backlog in
                backlog.removeFirst(batch.count)
                return backlog.count == 0
            }
            for _ in batch { pending.leave() }
            if done { return }
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
