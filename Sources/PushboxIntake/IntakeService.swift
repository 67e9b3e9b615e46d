import CPosix
import Foundation
import PushboxCore
import PushboxStore
import PushboxText

/// APNs' answer to one payload, after it was stored.
public struct IntakeResult: Sendable {
    /// The stored row's id (nil when it could not be stored).
    public var id: Int64?
    /// The apns-id answered.
    public var apnsID: String
    /// The HTTP status answered.
    public var status: Int
    /// APNs' reason, when refused.
    public var reason: String?
    /// Why, in words (pushbox's own explanation).
    public var detail: String?
    /// For FCM's refusals, the field at fault (`message.data[0].value`).
    public var field: String? = nil
}

/// The one path every payload takes in: validated as APNs validates, committed to the store
/// with its verdict (so nothing acknowledged, or refused, is ever lost), answered, and its
/// rendering queued.
public final class IntakeService: Sendable {
    /// Where payloads are committed.
    public let store: InboxStore
    /// What validation knows about the device and app.
    public let context: ValidationContext
    /// Renders in the background (nil: no rendering).
    public let processor: NotificationProcessor?
    /// Told about every payload taken in (for `serve`'s log and the TUI's redraw); set before
    /// the listeners start.
    public var onReceive: (@Sendable (RawPayload, IntakeResult) -> Void)? {
        get { receiveHook.withLock { $0 } }
        set { receiveHook.withLock { $0 = newValue } }
    }
    private let receiveHook = Locked<(@Sendable (RawPayload, IntakeResult) -> Void)?>(nil)

    /// Told when a payload could not be stored and was answered 500: the answer's body says only
    /// `InternalServerError`, as APNs' does, so this is where the person running pushbox learns why.
    public var onStoreFailure: (@Sendable (IntakeResult) -> Void)? {
        get { storeFailureHook.withLock { $0 } }
        set { storeFailureHook.withLock { $0 = newValue } }
    }
    private let storeFailureHook = Locked<(@Sendable (IntakeResult) -> Void)?>(nil)

    /// Whether the renderer validates with the intake's own context, so the intake's report can
    /// stand in for its validation (decided once, not per request).
    private let rendererSharesContext: Bool

    /// An intake storing into `store`, validating with `context`, rendering with `processor` (nil: no rendering).
    public init(store: InboxStore, context: ValidationContext, processor: NotificationProcessor?) {
        self.store = store
        self.context = context
        self.processor = processor
        rendererSharesContext = processor?.renderer.context == context
    }

    /// Takes one payload in: validated, committed with its verdict, answered, its rendering queued.
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
        commit(raw, apnsID: FastUUID.make(),
               verdict: InboxStore.Verdict(status: 200, topic: context.bundleID))
    }
}
