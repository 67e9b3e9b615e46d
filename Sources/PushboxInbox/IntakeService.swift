import CPosix
import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem

/// APNs' answer to one payload, after it was stored.
public struct IntakeResult: Sendable {
    /// The stored row's id (nil when it could not be stored).
    public var id: Int64?
    /// The apns-id answered.
    public var apnsID: String
    /// The phone's judgement, as stored with the row (for a payload that could not be stored,
    /// the 500 answered).
    public var verdict: Verdict
    /// For FCM's refusals, the field at fault (`message.data[0].value`).
    public var field: String? = nil
    /// For `410 Unregistered`: when the token stopped being valid (ms since 1970).
    public var timestamp: Int64? = nil

    /// The HTTP status answered.
    public var status: Int { verdict.status }
    /// APNs' reason, when refused.
    public var reason: String? { verdict.reason }
    /// Why, in words (pushbox's own explanation).
    public var detail: String? { verdict.detail }
    /// What became of an accepted payload (nil when refused or not stored).
    public var acceptance: Acceptance? { id == nil ? nil : Acceptance(verdict) }

    /// An answer: the row `id` (nil when not stored), the apns-id and the judgement.
    public init(id: Int64?, apnsID: String, verdict: Verdict, field: String? = nil, timestamp: Int64? = nil) {
        self.id = id
        self.apnsID = apnsID
        self.verdict = verdict
        self.field = field
        self.timestamp = timestamp
    }
}

/// What became of a payload the push service accepted: on the screen, kept for an offline
/// device, dropped by that storage, or not addressed to this device at all.
public enum Acceptance: String, Sendable {
    case delivered
    case stored
    case discarded
    case notTargeted = "not-targeted"

    /// The acceptance of an accepted verdict; nil for a refusal.
    init?(_ verdict: Verdict) {
        guard verdict.status == 200 else { return nil }
        if verdict.targeting?.targeted == false {
            self = .notTargeted
            return
        }
        switch verdict.storage {
        case nil: self = .delivered
        case .store?: self = .stored
        case .notStored?: self = .discarded
        }
    }
}

/// The one path every payload takes in: validated as APNs validates, committed to the store
/// with its verdict (so nothing acknowledged, or refused, is ever lost), answered, and published
/// once to the `arrivals` feed, from which the renderer, the TUI and the log take it.
public final class IntakeService: Sendable {
    /// Where payloads are committed.
    public let store: InboxStore
    /// The device every payload is judged by (its context, registration and Live Activities).
    public let phone: Phone
    /// The owner of every rendering (nil: nothing is rendered).
    public let renderings: Renderings?
    /// Every payload taken in, once, after it was answered.
    public let arrivals = ArrivalFeed()
    /// The inbox's live events (`GET /api/v1/events`), numbered and kept for readers that reconnect.
    public let events = InboxEvents()

    /// Told when a payload could not be stored and was answered 500: the answer's body says only
    /// `InternalServerError`, as APNs' does, so this is where the person running pushbox learns why.
    public var onStoreFailure: (@Sendable (IntakeResult) -> Void)? {
        get { storeFailureHook.withLock { $0 } }
        set { storeFailureHook.withLock { $0 = newValue } }
    }
    private let storeFailureHook = Locked<(@Sendable (IntakeResult) -> Void)?>(nil)

    /// An intake storing into `store`, judging with a phone that validates with `context`,
    /// rendering with `renderings` (nil: no rendering), which hears of every arrival first.
    public convenience init(store: InboxStore, context: ValidationContext, renderings: Renderings?) {
        self.init(store: store, phone: Phone(context: context), renderings: renderings)
    }

    /// An intake storing into `store`, judging by `phone`, rendering with `renderings`.
    public init(store: InboxStore, phone: Phone, renderings: Renderings?) {
        self.store = store
        self.phone = phone
        let context = phone.context
        self.renderings = renderings
        if let renderings {
            // Decided once: the intake's report stands in for the renderer's validation when both
            // validate with the same context.
            let reportsApply = renderings.base.context == context
            arrivals.subscribe { events in renderings.arrived(events, reportsApply: reportsApply) }
            renderings.languages(ofDevice: { [phone] in phone.languages(ofDevice: $0) })
        }
    }

    /// The phone follows languages another process gave the device (`pushbox device language`,
    /// `PUT /api/v1/device`, a second inbox's picker) when it judges a push: the renderings follow
    /// it before that push is rendered, so every view shows what the device would.
    private func followDeviceLanguages() {
        guard let renderings else { return }
        let now = phone.languages
        if !now.isEmpty, now != renderings.aheadLanguages { renderings.renderAhead(for: now) }
    }

    /// Takes one payload in: validated, committed with its verdict, published; the answer is
    /// returned (for a file, a replay, a sample: no answer travels anywhere).
    public func receive(_ raw: RawPayload) -> IntakeResult {
        let (result, arrival) = receiveBeforeAnswer(raw)
        arrival?.publish()
        return result
    }

    /// Takes one payload in for an answer still to be sent: validated and committed with its
    /// verdict; the arrival is published when the caller has sent the answer (`publish()`, or
    /// `HTTPResponse.afterSent`), never before. Nil when nobody listens or nothing was stored.
    /// A payload that reaches several devices of the fleet is committed once per device, in
    /// one transaction; the answer is the first device's.
    /// Its row is announced to the store while it is judged, so a commit starting meanwhile
    /// waits for it (at most 2 ms): the requests in flight share one transaction.
    public func receiveBeforeAnswer(_ raw: RawPayload) -> (IntakeResult, PendingArrival?) {
        let announcement = store.announceInsert()
        defer { store.withdrawInsert(announcement) }
        let judgements = phone.deliveries(raw, mode: .live)
        followDeviceLanguages()
        guard judgements.count > 1 || judgements[0].verdict.device != nil else {
            let judgement = judgements[0]
            return commit(raw, apnsID: judgement.apnsID, verdict: judgement.verdict, report: judgement.report, announcement: announcement)
        }
        return receiveBeforeAnswer(batch: [raw], judged: [judgements], announcement: announcement)[0]
    }

    /// Takes several payloads in, as `receiveBeforeAnswer` takes one, committed in one
    /// transaction (the requests an HTTP/2 loop read in one round); the answers in order. A batch
    /// announces no row: it is already many rows to one commit, and a commit that waited for
    /// another batch being judged held this one's answers as long (at 1 × 100 streams, three
    /// batches in flight ended up committing together while a core idled).
    public func receiveBeforeAnswer(batch raws: [RawPayload]) -> [(IntakeResult, PendingArrival?)] {
        guard raws.count > 1 else { return raws.map(receiveBeforeAnswer) }
        let judged = phone.deliveries(batch: raws, mode: .live)
        followDeviceLanguages()
        return receiveBeforeAnswer(batch: raws, judged: judged, announcement: nil)
    }

    /// Commits each payload once per device it reached (`judged`, in order), all in one
    /// transaction; each payload's answer is its first device's, its arrivals published together.
    /// `announcement`: what the store was told of these rows.
    private func receiveBeforeAnswer(batch raws: [RawPayload], judged: [[Judgement]], announcement: InsertAnnouncement?) -> [(
        IntakeResult, PendingArrival?
    )] {
        let fleet = judged.contains { $0.count > 1 || $0[0].verdict.device != nil } ? phone.registration() : nil
        let byName = Dictionary((fleet?.devices ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let flat = zip(raws, judged).flatMap { raw, judgements in
            judgements.map { (raw: stamped(raw, device: $0.verdict.device.flatMap { byName[$0] }), judgement: $0) }
        }
        let rows = store.insertRows(flat.map { ($0.raw, $0.judgement.apnsID, $0.judgement.verdict) }, announcement: announcement)
        var finished = zip(flat, rows).map { j, row in
            finish(row, apnsID: j.judgement.apnsID, verdict: j.judgement.verdict, report: j.judgement.report)
        }[...]
        return judged.map { judgements in
            let mine = finished.prefix(judgements.count)
            finished = finished.dropFirst(judgements.count)
            let events = mine.compactMap(\.event)
            return (mine.first!.result, events.isEmpty ? nil : PendingArrival(events, feed: arrivals))
        }
    }

    /// The payload with what the device's clock said when it arrived, which lists show: an
    /// added device's own zone (`device`), else the default device's clock.
    private func stamped(_ raw: RawPayload, device: FleetDevice? = nil) -> RawPayload {
        guard raw.envelope.deviceZone == nil else { return raw }
        var raw = raw
        if let device, device.timeZone != nil || device.clockOffset != nil {
            raw.envelope.deviceZone = device.timeZone ?? phone.clock?.timeZone.identifier
            // Its own clock: the inbox's device clock, that far ahead or behind.
            let now = phone.clock.map { $0.isSimulated ? $0.now : raw.envelope.receivedAt } ?? raw.envelope.receivedAt
            if device.clockOffset != nil || phone.clock?.isSimulated == true {
                raw.envelope.deviceAt = now.addingTimeInterval(device.clockOffset ?? 0)
            }
            return raw
        }
        guard let clock = phone.clock else { return raw }
        raw.envelope.deviceZone = clock.timeZone.identifier
        if clock.isSimulated { raw.envelope.deviceAt = clock.now }
        return raw
    }

    /// Keeps a push chaos refused (its arrival names the rule) as the inbox keeps every refusal:
    /// stored with the status and reason the sender heard, never judged or delivered. The
    /// apns-id is the request's, else a new one; the arrival to publish once the answer is sent.
    public func receiveInjectedRefusal(_ raw: RawPayload, status: Int, reason: String, detail: String) -> (apnsID: String, PendingArrival?) {
        let apnsID = raw.envelope.headers[PushHeaders.id] ?? FastUUID.make()
        let topic = raw.envelope.headers[PushHeaders.topic]
        let (result, arrival) = commit(
            raw, apnsID: apnsID, verdict: Verdict(status: status, reason: reason, detail: detail, topic: topic), report: nil)
        return (result.apnsID, arrival)
    }

    /// Commits the raw bytes with their verdict; gives the answer (500 InternalServerError when
    /// the inbox could not store it, and nothing to publish) and the arrival to publish.
    private func commit(_ raw: RawPayload, apnsID: String, verdict: Verdict, report: ValidationReport?, announcement: InsertAnnouncement? = nil) -> (
        IntakeResult, PendingArrival?
    ) {
        let row: Result<StoredNotification, StoreError>
        do {
            row = .success(try store.insertRow(stamped(raw), apnsID: apnsID, verdict: verdict, announcement: announcement))
        } catch {
            row = .failure(error)
        }
        let (result, event) = finish(row, apnsID: apnsID, verdict: verdict, report: report)
        return (result, event.map { PendingArrival([$0], feed: arrivals) })
    }

    /// The answer to a payload whose commit gave `stored`, and the arrival to publish (nil when
    /// nobody listens or nothing was stored).
    private func finish(_ stored: Result<StoredNotification, StoreError>, apnsID: String, verdict: Verdict, report: ValidationReport?) -> (
        result: IntakeResult, event: ArrivalEvent?
    ) {
        let row: StoredNotification
        switch stored {
        case .success(let r): row = r
        case .failure(let error):
            let result = IntakeResult(
                id: nil, apnsID: apnsID,
                verdict: Verdict(
                    status: 500, reason: APNsReason.internalServerError.rawValue,
                    detail: "the inbox could not store it: \(error.explained(path: store.path))"))
            onStoreFailure?(result)
            return (result, nil)
        }
        let result = IntakeResult(
            id: row.id, apnsID: apnsID, verdict: verdict, field: report?.rejection?.field, timestamp: report?.rejection?.timestamp)
        guard arrivals.hasSubscribers else { return (result, nil) }
        return (result, ArrivalEvent(stored: row, result: result, report: report))
    }

    /// Takes in a local request that fired at `firedAt` on the device's clock: stored (source
    /// `local`, received now in real time) without APNs validation, which local notifications
    /// never meet, and rendered like any other.
    /// `device`: the added device of the fleet it fired on (nil: the default device).
    public func receiveLocal(_ request: LocalRequest, firedAt: Date, timeZone: TimeZone, device: String? = nil) -> IntakeResult {
        let payload = LocalDelivery.payload(request, firedAt: firedAt, timeZone: timeZone)
        var envelope = Envelope(source: .local, fileName: "local:\(request.identifier)")
        envelope.deviceAt = firedAt
        envelope.deviceZone = timeZone.identifier
        return receiveLocal(
            RawPayload(bytes: Array(JSONWriter.compact(.object(payload)).utf8), envelope: envelope),
            listing: PayloadListing(payload: payload, pushType: nil), device: device)
    }

    /// Stores a fired local notification in its stored form (a replay of one delivers it again);
    /// `listing` is what the inbox lists of it (read from the bytes when not given).
    public func receiveLocal(_ raw: RawPayload, listing: PayloadListing? = nil, device: String? = nil) -> IntakeResult {
        var verdict = Verdict(status: 200, topic: phone.context.bundleID)
        verdict.device = device
        verdict.listing = listing ?? (try? JSONParser.parse(raw.bytes))?.objectValue.map { PayloadListing(payload: $0, pushType: nil) }
        let (result, arrival) = commit(raw, apnsID: FastUUID.make(), verdict: verdict, report: nil)
        arrival?.publish()
        return result
    }

    /// Waits until every arrival so far was published and rendered (serve's orderly stop, tests).
    public func drain() {
        arrivals.flush()
        renderings?.drain()
    }
}
