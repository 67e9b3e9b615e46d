import CPosix
import Foundation
import PushboxCore
import PushboxStore
import PushboxText

/// Renders stored notifications for the device's languages in the background and keeps the
/// result per language in the store, so the inbox shows them without rendering again.
public final class NotificationProcessor: Sendable {
    public let renderer: Renderer
    public let store: InboxStore
    private let pending = DispatchGroup()
    /// Notifications waiting to be rendered, with the intake's validation when it can be reused.
    private let backlog = Locked<[(Int64, RawPayload, ValidationReport?)]>([])

    /// The key renders are stored under: the preferred-language list.
    public var languageKey: String { renderer.preferredLanguages.joined(separator: ",") }

    /// Renders with `renderer` and keeps the results in `store`.
    public init(renderer: Renderer, store: InboxStore) {
        self.renderer = renderer
        self.store = store
    }

    /// Renders after the answer went out (an extension may take its whole budget). A burst is
    /// rendered in batches whose results are stored in one transaction.
    /// `report` is the intake's validation of `raw` (with the renderer's context), reused.
    public func enqueue(id: Int64, raw: RawPayload, report: ValidationReport? = nil) {
        pending.enter()
        let first = backlog.withLock { backlog in
            backlog.append((id, raw, report))
            return backlog.count == 1
        }
        guard first else { return }
        // A thread of its own for each burst: rendering is deferred work and runs at a lower
        // priority (on Linux each thread has its own nice value), which ends with the thread
        // instead of staying on a pooled Dispatch thread that serves others later.
        let thread = Thread { [self] in
            _ = pb_set_thread_nice(10)
            renderBacklog()
        }
        thread.name = "pushbox.render"
        thread.start()
    }

    /// Renders the backlog in batches of up to 256, each batch's results stored in one
    /// transaction, until it is empty.
    private func renderBacklog() {
        while true {
            let batch = backlog.withLock { Array($0.prefix(256)) }
            if batch.isEmpty { return }
            let rendered = batch.map { id, raw, report in (id, languageKey, JSONWriter.compact(renderer.render(raw, validated: report).json)) }
            // A rendering is a cache of what the stored payload gives: when it cannot be saved,
            // the inbox renders the notification again when it is shown.
            try? store.saveRenders(rendered)
            let done = backlog.withLock { backlog in
                backlog.removeFirst(batch.count)
                return backlog.isEmpty
            }
            for _ in batch { pending.leave() }
            if done { return }
        }
    }

    /// Waits until every queued rendering is stored.
    public func drain() { pending.wait() }

    /// The stored rendering for this language list, if there is one.
    public func stored(id: Int64) -> JSONObject? {
        store.render(id: id, language: languageKey).flatMap { try? JSONParser.parse(Array($0.utf8)).objectValue }
    }

    /// The rendering for this language list: the store's, or rendered now and kept. The payload
    /// is loaded only when it has to be rendered.
    public func rendering(id: Int64, payload: () -> RawPayload?) -> RenderedNotification? {
        if let cached = stored(id: id).flatMap(RenderedNotification.init(json:)) { return cached }
        guard let raw = payload() else { return nil }
        let note = renderer.render(raw)
        try? store.saveRender(id: id, language: languageKey, json: JSONWriter.compact(note.json))
        return note
    }

    /// The stored rendering for this language list as JSON, rendered now if missing.
    @discardableResult
    public func process(id: Int64, raw: RawPayload) -> JSONObject? {
        rendering(id: id) { raw }?.json.objectValue
    }
}
