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
    /// For `410 Unregistered`: when the token stopped being valid (ms since 1970).
    public var timestamp: Int64? = nil
    /// What became of an accepted payload (nil when refused or not stored).
    public var acceptance: Acceptance? = nil

    /// An answer: the row `id` (nil when not stored), the apns-id, status, reason and why.
    public init(id: Int64?, apnsID: String, status: Int, reason: String? = nil, detail: String? = nil, field: String? = nil) {
        self.id = id
        self.apnsID = apnsID
        self.status = status
        self.reason = reason
        self.detail = detail
        self.field = field
    }
}

/// Whether a judgement may change the device: a real send, or a dry run (FCM's `validate_only`).
public enum JudgementMode: Sendable {
    case live, dryRun
}

/// What the device made of one payload: the answer's id, the validation (with what the device
/// decided: a refusal of its own, the targeting, a Live Activity's outcome) and the verdict kept
/// with the row.
public struct Judgement: Sendable {
    /// The apns-id answered.
    public var apnsID: String
    /// The payload's validation as the device judged it.
    public var report: ValidationReport
    /// What is stored with the row.
    public var verdict: InboxStore.Verdict
}

/// What became of a payload the push service accepted: on the screen, kept for an offline
/// device, dropped by that storage, or not addressed to this device at all.
public enum Acceptance: String, Sendable {
    case delivered
    case stored
    case discarded
    case notTargeted = "not-targeted"

    /// The acceptance of an accepted verdict; nil for a refusal.
    init?(_ verdict: InboxStore.Verdict) {
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
    /// What validation knows about the device and app now (its language topic follows the
    /// device's language when the inbox switches it).
    public var context: ValidationContext { contextNow.withLock { $0 } }
    private let contextNow: Locked<ValidationContext>
    /// The device's registration beside the inbox (read again whenever its file changed; FCM's
    /// topic API writes it); nil: the app is installed, the device online, every token valid.
    public var registrationFile: DeviceRegistrationFile? {
        get { registrationSource.withLock { $0 } }
        set { registrationSource.withLock { $0 = newValue } }
    }
    private let registrationSource = Locked<DeviceRegistrationFile?>(nil)

    /// The device's Live Activities, which each accepted liveactivity push is applied to;
    /// nil: none are kept.
    public var liveActivities: LiveActivityDevice? {
        get { activitiesSource.withLock { $0 } }
        set { activitiesSource.withLock { $0 = newValue } }
    }
    private let activitiesSource = Locked<LiveActivityDevice?>(nil)

    /// The device's registration as it is now; nil when none is kept.
    public func registration() -> DeviceRegistration? { registrationFile?.current() }
    /// The owner of every rendering (nil: nothing is rendered).
    public let renderings: Renderings?
    /// Every payload taken in, once, after it was answered.
    public let arrivals = ArrivalFeed()

    /// Told when a payload could not be stored and was answered 500: the answer's body says only
    /// `InternalServerError`, as APNs' does, so this is where the person running pushbox learns why.
    public var onStoreFailure: (@Sendable (IntakeResult) -> Void)? {
        get { storeFailureHook.withLock { $0 } }
        set { storeFailureHook.withLock { $0 = newValue } }
    }
    private let storeFailureHook = Locked<(@Sendable (IntakeResult) -> Void)?>(nil)

    /// An intake storing into `store`, validating with `context`, rendering with `renderings`
    /// (nil: no rendering), which hears of every arrival first.
    public init(store: InboxStore, context: ValidationContext, renderings: Renderings?) {
        self.store = store
        contextNow = Locked(context)
        self.renderings = renderings
        if let renderings {
            // Decided once: the intake's report stands in for the renderer's validation when both
            // validate with the same context.
            let reportsApply = renderings.base.context == context
            arrivals.subscribe { events in renderings.arrived(events, reportsApply: reportsApply) }
        }
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
    public func receiveBeforeAnswer(_ raw: RawPayload) -> (IntakeResult, PendingArrival?) {
        let judgement = judge(raw, mode: .live)
        return commit(raw, apnsID: judgement.apnsID, verdict: judgement.verdict, report: judgement.report)
    }

    /// Judges one payload as the device would take it now, the one judgement every path uses:
    /// validated as APNs (or FCM) validates, then refused, kept while offline, or applied by the
    /// device's Live Activities. `.live` changes the device (a Live Activity push is applied);
    /// `.dryRun` (FCM's `validate_only`) answers exactly as the real send would and changes nothing.
    public func judge(_ raw: RawPayload, mode: JudgementMode) -> Judgement {
        let apnsID = Self.answerID(sent: raw.envelope.headers[PushHeaders.id])
        let device = registration()
        followKeptLanguages(device)
        let context = self.context(for: device)
        var report = Validator.validate(raw, context: context)
        // A valid payload for a token that is no longer this device's: the device, not the
        // payload, decides the answer.
        if let refusal = device?.refusal(of: report, deviceToken: raw.envelope.deviceToken, mode: context.fcmTokens) {
            report.rejection = refusal
            report.validated = nil
        } else if let device {
            report.describeTarget(deviceTopics: context.deviceTopics ?? [], isOwn: device.isOwn)
        }
        let collapse = report.validated?.headers[PushHeaders.collapseID] ?? raw.envelope.headers[PushHeaders.collapseID]
        let topic = report.validated?.headers[PushHeaders.topic] ?? raw.envelope.headers[PushHeaders.topic]
        // Offline, the service answers as usual and keeps (or drops) what it accepted.
        var verdict = InboxStore.Verdict(
            status: report.status, reason: report.rejection?.reason.rawValue, detail: report.rejection?.detail,
            collapseID: report.ok ? collapse : nil, topic: topic, storage: device?.storage(of: report, receivedAt: raw.envelope.receivedAt),
            targeting: TargetingRecord(report))
        // A Live Activity push the device receives now is applied (or dropped) before it is kept.
        if verdict.storage == nil, report.targeting == .device, let validated = report.validated, validated.pushType == .liveactivity,
            let activities = liveActivities
        {
            let outcome =
                mode == .live
                ? activities.apply(validated, deviceToken: raw.envelope.deviceToken, apnsID: apnsID)
                : activities.tryOn(validated, deviceToken: raw.envelope.deviceToken, apnsID: apnsID)
            report.liveActivity = outcome
            verdict.liveActivity = outcome
        }
        return Judgement(apnsID: apnsID, report: report, verdict: verdict)
    }

    /// The device's languages changed (the inbox's language picker): its FCM language topic
    /// follows the first, as the app re-subscribes on a locale change.
    public func deviceLanguagesChanged(to languages: [String], profileTopics: [String]) {
        languagesNow.withLock { $0 = (languages, profileTopics) }
        contextNow.withLock { context in
            if context.deviceTopics != nil { context.deviceTopics = DeviceTopics.topics(preferredLanguages: languages, profileTopics: profileTopics) }
        }
    }

    /// The languages the language topic was last set for, and the profile's topics beside it;
    /// nil until `deviceLanguagesChanged` was first called (serve and the inbox call it at start).
    private let languagesNow = Locked<(languages: [String], profileTopics: [String])?>(nil)

    /// Another process changed the device's languages (the picker of a second inbox on this
    /// database): the language topic follows the kept ones from the next push.
    private func followKeptLanguages(_ device: DeviceRegistration?) {
        guard let kept = device?.languages, let known = languagesNow.withLock({ $0 }), kept != known.languages else { return }
        deviceLanguagesChanged(to: kept, profileTopics: known.profileTopics)
    }

    /// What validation knows of the device now: its topics as subscriptions since changed them.
    public func context(for device: DeviceRegistration?) -> ValidationContext {
        let context = self.context
        guard let device, let base = context.deviceTopics, !(device.subscribed.isEmpty && device.unsubscribed.isEmpty) || !device.installed
        else { return context }
        var now = context
        // An uninstalled app's registration, and with it every topic subscription, is gone.
        now.deviceTopics = device.installed ? device.topics(base: base) : []
        return now
    }

    /// The id APNs echoes on every answer: the one sent when it is a canonical UUID (lowercased),
    /// else a new one.
    static func answerID(sent: String?) -> String {
        sent.flatMap { PushHeaders.isCanonicalUUID($0) ? $0.lowercased() : nil } ?? FastUUID.make()
    }

    /// Commits the raw bytes with their verdict; gives the answer (500 InternalServerError when
    /// the inbox could not store it, and nothing to publish) and the arrival to publish.
    private func commit(_ raw: RawPayload, apnsID: String, verdict: InboxStore.Verdict, report: ValidationReport?) -> (
        IntakeResult, PendingArrival?
    ) {
        let row: StoredNotification
        do {
            row = try store.insertRow(raw, apnsID: apnsID, verdict: verdict)
        } catch {
            let result = IntakeResult(
                id: nil, apnsID: apnsID, status: 500, reason: APNsReason.internalServerError.rawValue,
                detail: "the inbox could not store it: \(error.explained(path: store.path))")
            onStoreFailure?(result)
            return (result, nil)
        }
        var result = IntakeResult(
            id: row.id, apnsID: apnsID, status: verdict.status, reason: verdict.reason, detail: verdict.detail,
            field: report?.rejection?.field)
        result.timestamp = report?.rejection?.timestamp
        result.acceptance = Acceptance(verdict)
        guard arrivals.hasSubscribers else { return (result, nil) }
        return (result, PendingArrival(ArrivalEvent(stored: row, result: result, report: report), feed: arrivals))
    }

    /// Takes in a local request that fired at `firedAt` on the device's clock: stored (source
    /// `local`, received now in real time) without APNs validation, which local notifications
    /// never meet, and rendered like any other.
    public func receiveLocal(_ request: LocalRequest, firedAt: Date, timeZone: TimeZone) -> IntakeResult {
        let payload = LocalDelivery.payload(request, firedAt: firedAt, timeZone: timeZone)
        return receiveLocal(
            RawPayload(
                bytes: Array(JSONWriter.compact(.object(payload)).utf8),
                envelope: Envelope(source: .local, fileName: "local:\(request.identifier)")))
    }

    /// Stores a fired local notification in its stored form (a replay of one delivers it again).
    public func receiveLocal(_ raw: RawPayload) -> IntakeResult {
        let (result, arrival) = commit(raw, apnsID: FastUUID.make(), verdict: InboxStore.Verdict(status: 200, topic: context.bundleID), report: nil)
        arrival?.publish()
        return result
    }

    /// Waits until every arrival so far was published and rendered (serve's orderly stop, tests).
    public func drain() {
        arrivals.flush()
        renderings?.drain()
    }
}
