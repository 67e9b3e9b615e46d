import CPosix
import Foundation
import Synchronization
import PushboxCore
import PushboxStore
import PushboxText

/// APNs' answer to one payload, after it was stored.
public struct IntakeResult: Sendable {
    public var id: Int64?
    public var apnsID: String
    public var status: Int
    public var reason: String?
    public var detail: String?
    /// For FCM's refusals, the field at fault (`message.data[0].value`).
    public var field: String? = nil
}

/// Renders stored notifications for the device's languages in the background and keeps the
/// result per language in the store, so the inbox shows them without rendering again.
public final class NotificationProcessor: Sendable {
    public let renderer: Renderer
    public let store: InboxStore
    private let pending = DispatchGroup()
    /// Notifications waiting to be rendered, with the intake's validation when it can be reused.
    private let backlog = Mutex<[(Int64, RawPayload, ValidationReport?)]>([])

    /// The key renders are stored under: the preferred-language list.
    public var languageKey: String { renderer.preferredLanguages.joined(separator: ",") }

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

/// The one path every payload takes in: validated as APNs validates, committed to the store
/// with its verdict (so nothing acknowledged, or refused, is ever lost), answered, and its
/// rendering queued.
public final class IntakeService: Sendable {
    public let store: InboxStore
    public let context: ValidationContext
    public let processor: NotificationProcessor?
    /// Told about every payload taken in (for `serve`'s log and the TUI's redraw); set before
    /// the listeners start.
    public var onReceive: (@Sendable (RawPayload, IntakeResult) -> Void)? {
        get { receiveHook.withLock { $0 } }
        set { receiveHook.withLock { $0 = newValue } }
    }
    private let receiveHook = Mutex<(@Sendable (RawPayload, IntakeResult) -> Void)?>(nil)

    /// Told when a payload could not be stored and was answered 500: the answer's body says only
    /// `InternalServerError`, as APNs' does, so this is where the person running pushbox learns why.
    public var onStoreFailure: (@Sendable (IntakeResult) -> Void)? {
        get { storeFailureHook.withLock { $0 } }
        set { storeFailureHook.withLock { $0 = newValue } }
    }
    private let storeFailureHook = Mutex<(@Sendable (IntakeResult) -> Void)?>(nil)

    /// Whether the renderer validates with the intake's own context, so the intake's report can
    /// stand in for its validation (decided once, not per request).
    private let rendererSharesContext: Bool

    public init(store: InboxStore, context: ValidationContext, processor: NotificationProcessor?) {
        self.store = store
        self.context = context
        self.processor = processor
        rendererSharesContext = processor?.renderer.context == context
    }

    public func receive(_ raw: RawPayload) -> IntakeResult {
        // The id APNs echoes: the one sent when it is a UUID, else a new one.
        let sent = raw.envelope.headers[PushHeaders.id]
        let apnsID = sent.flatMap { PushHeaders.isCanonicalUUID($0) ? $0.lowercased() : nil } ?? FastUUID.make()
        // Validation is pure computation; its verdict is committed with the raw bytes, in one
        // write, before the answer goes out.
        let report = Validator.validate(raw, context: context)
        let collapse = report.validated?.headers[PushHeaders.collapseID] ?? raw.envelope.headers[PushHeaders.collapseID]
        let topic = report.validated?.headers[PushHeaders.topic] ?? raw.envelope.headers[PushHeaders.topic]
        let verdict = InboxStore.Verdict(status: report.status, reason: report.rejection?.reason, detail: report.rejection?.detail,
                                         collapseID: report.ok ? collapse : nil, topic: topic)
        var result = commit(raw, apnsID: apnsID, verdict: verdict, report: rendererSharesContext ? report : nil)
        result.field = report.rejection?.field
        return result
    }

    /// Commits the raw bytes with their verdict, queues the rendering, tells `onReceive`, and
    /// gives the answer (500 InternalServerError when the inbox could not store it).
    private func commit(_ raw: RawPayload, apnsID: String, verdict: InboxStore.Verdict, report: ValidationReport? = nil) -> IntakeResult {
        let id: Int64
        do {
            id = try store.insert(raw, apnsID: apnsID, verdict: verdict)
        } catch {
            let result = IntakeResult(id: nil, apnsID: apnsID, status: 500, reason: APNsReason.internalServerError.rawValue,
                                      detail: "the inbox could not store it: \(error.explained(path: store.path))")
            onStoreFailure?(result)
            return result
        }
        processor?.enqueue(id: id, raw: raw, report: report)
        let result = IntakeResult(id: id, apnsID: apnsID, status: verdict.status, reason: verdict.reason, detail: verdict.detail)
        onReceive?(raw, result)
        return result
    }

    /// Takes in a local request that fired at `firedAt` on the device's clock: stored (source
    /// `local`, received now in real time) without APNs validation, which local notifications
    /// never meet, and rendered like any other.
    public func receiveLocal(_ request: LocalRequest, firedAt: Date, timeZone: TimeZone) -> IntakeResult {
        let payload = LocalDelivery.payload(request, firedAt: firedAt, timeZone: timeZone)
        return receiveLocal(RawPayload(bytes: Array(JSONWriter.compact(.object(payload)).utf8),
                                       envelope: Envelope(source: .local, fileName: "local:\(request.identifier)")))
    }

    /// Stores a fired local notification in its stored form (a replay of one delivers it again).
    public func receiveLocal(_ raw: RawPayload) -> IntakeResult {
        commit(raw, apnsID: UUID().uuidString.lowercased(),
               verdict: InboxStore.Verdict(status: 200, topic: context.bundleID))
    }
}

/// Random version-4 UUIDs, lowercase, from a buffered generator: `UUID()` reads /dev/urandom per
/// call on Linux, which showed in the intake's profile.
enum FastUUID {
    static func make() -> String {
        var g = SystemRandomNumberGenerator()
        var a = g.next() as UInt64, b = g.next() as UInt64
        a = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        b = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var i = 0
        for (word, shift) in [(a, 60), (a, 56), (a, 52), (a, 48), (a, 44), (a, 40), (a, 36), (a, 32), (a, 28), (a, 24), (a, 20), (a, 16), (a, 12), (a, 8), (a, 4), (a, 0),
                              (b, 60), (b, 56), (b, 52), (b, 48), (b, 44), (b, 40), (b, 36), (b, 32), (b, 28), (b, 24), (b, 20), (b, 16), (b, 12), (b, 8), (b, 4), (b, 0)] {
            if i == 8 || i == 13 || i == 18 || i == 23 { i += 1 }
            out[i] = hex[Int((word >> UInt64(shift)) & 0xF)]
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
