import Foundation
import PushboxJSON
import PushboxPayload
import PushboxSystem

/// Whether a judgement may change the device: a real send, or a dry run (FCM's `validate_only`,
/// `pushbox render`, `pushbox snapshot`).
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
    public var verdict: Verdict
}

extension Judgement {
    /// Where the judged push stands in delivery as it arrives at `receivedAt`: kept for an
    /// offline device, or dropped by that storage; nil: delivered.
    public func delivery(receivedAt: Date) -> DeliveryRecord? {
        verdict.storage.map { $0.delivery(at: receivedAt) }
    }
}

/// The simulated phone: what validation knows of the app and the device (bundle id, topics,
/// tokens), its registration beside the inbox (installed, online, subscriptions, languages) and
/// its Live Activities. `judge` is the one place a payload meets the device, for every path: the
/// intake, FCM's `validate_only`, `render` and `snapshot`.
public final class Phone: Sendable {
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

    /// The device's clock, read as each payload arrives (its time and zone are kept with the
    /// row); nil: the wall clock in the host's zone.
    public var clock: SimulatedClock? {
        get { clockSource.withLock { $0 } }
        set { clockSource.withLock { $0 = newValue } }
    }
    private let clockSource = Locked<SimulatedClock?>(nil)

    /// The added iPhones' Live Activities, by name (`liveActivities(of:)`).
    let memberActivities = Locked<[String: LiveActivityDevice]>([:])

    /// The languages the language topic was last set for, and the profile's topics beside it;
    /// nil until `deviceLanguagesChanged` was first called (serve and the inbox call it at start).
    private let languagesNow = Locked<(languages: [String], profileTopics: [String])?>(nil)

    /// A phone that validates with `context`, with no registration and no Live Activities kept
    /// until they are given.
    public init(context: ValidationContext, registrationFile: DeviceRegistrationFile? = nil, liveActivities: LiveActivityDevice? = nil) {
        contextNow = Locked(context)
        registrationSource.withLock { $0 = registrationFile }
        activitiesSource.withLock { $0 = liveActivities }
    }

    /// The device's registration as it is now; nil when none is kept.
    public func registration() -> DeviceRegistration? { registrationFile?.current() }

    /// `.live` changes the device (a Live Activity push is applied); `.dryRun` answers exactly as
    /// the real send would and changes nothing.
    /// Judges one payload as the device would take it now: validated as APNs (or FCM)
    /// validates, then refused, kept while offline, or applied by the device's Live Activities.
    /// With devices added to the inbox (`pushbox device add`), the judgement of the device that
    /// answers: the one the payload reaches first (`deliveries` gives them all).
    public func judge(_ raw: RawPayload, mode: JudgementMode) -> Judgement {
        deliveries(raw, mode: mode, validated: nil)[0]
    }

    /// Judges payloads that arrived together, as `judge` judges each, in order. Their validation
    /// — most of the work, and free of side effects — runs first on two threads side by side,
    /// with the device as it is when the batch starts; a payload whose device changed meanwhile
    /// is validated again with the device as `judge` finds it.
    public func judge(batch raws: [RawPayload], mode: JudgementMode) -> [Judgement] {
        deliveries(batch: raws, mode: mode).map { $0[0] }
    }

    /// Judges payloads that arrived together, as `deliveries` judges each, in order.
    public func deliveries(batch raws: [RawPayload], mode: JudgementMode) -> [[Judgement]] {
        guard raws.count >= Self.sideBySideBatch else { return raws.map { deliveries($0, mode: mode) } }
        let device = registration()
        followKeptLanguages(device)
        let context = self.context(for: device)
        let reports = UnsafeMutableBufferPointer<ValidationReport?>.allocate(capacity: raws.count)
        reports.initialize(repeating: nil)
        defer {
            _ = reports.deinitialize()
            reports.deallocate()
        }
        // Each thread writes its own elements (every other one) and nothing reads them until both are done.
        nonisolated(unsafe) let shared = reports
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            for i in stride(from: half, to: raws.count, by: 2) { shared[i] = Validator.validate(raws[i], context: context) }
        }
        return raws.indices.map { deliveries(raws[$0], mode: mode, validated: reports[$0].map { ($0, context) }) }
    }

    /// Batches at least this long are validated on two threads (a shorter one is not worth the hand-off).
    static let sideBySideBatch = 8

    /// The default device's judgement, with the payload's validation already made for a device
    /// context (used when the context is still the device's), answered with `apnsID`.
    func judgeDefault(
        _ raw: RawPayload, mode: JudgementMode, validated: (ValidationReport, ValidationContext)?, device: DeviceRegistration?, apnsID: String
    ) -> Judgement {
        let context = self.context(for: device)
        var report = validated.flatMap { $0.1 == context ? $0.0 : nil } ?? Validator.validate(raw, context: context)
        // A valid payload for a token that is no longer this device's: the device, not the
        // payload, decides the answer.
        let (mismatch, adopted) = senderMismatch(report, raw: raw, context: context, device: device, mode: mode)
        if let refusal = device?.refusal(of: report, deviceToken: raw.envelope.deviceToken, mode: context.fcmTokens) ?? mismatch
            ?? Self.environmentMismatch(report, raw: raw, device: context.apnsEnvironment)
            ?? Self.unknownToken(report, raw: raw, context: context, device: device)
        {
            report.rejection = refusal
            report.validated = nil
        } else if let device {
            report.describeTarget(deviceTopics: context.deviceTopics ?? [], isOwn: device.isOwn)
        }
        if let adopted, report.ok {
            report.targetDescription = [report.targetDescription, "the device's Firebase project is now \(adopted), the first that sent to it"]
                .compactMap { $0 }.joined(separator: "; ")
        }
        let collapse = report.validated?.headers[PushHeaders.collapseID] ?? raw.envelope.headers[PushHeaders.collapseID]
        let topic = report.validated?.headers[PushHeaders.topic] ?? raw.envelope.headers[PushHeaders.topic]
        // Offline, the service answers as usual and keeps (or drops) what it accepted.
        var verdict = Verdict(
            status: report.status, reason: report.rejection?.reason.rawValue, detail: report.rejection?.detail,
            collapseID: report.ok ? collapse : nil, topic: topic, storage: device?.storage(of: report, receivedAt: raw.envelope.receivedAt),
            targeting: TargetingRecord(report))
        verdict.listing = report.listing
        verdict.presentation = presentation(
            report, raw: raw, attention: device?.attention ?? DeviceAttention(), context: context, storage: verdict.storage)
        var judgement = Judgement(apnsID: apnsID, report: report, verdict: verdict)
        Self.applyLiveActivity(&judgement, raw: raw, mode: mode, to: liveActivities)
        return judgement
    }

    /// How an iPhone presents an alert push it receives now (`DeviceAttention.decide`), at the
    /// level its app may use, on the device clock; nil for what it does not show now (refused,
    /// not targeted, kept while offline, background, Live Activity).
    func presentation(
        _ report: ValidationReport, raw: RawPayload, attention: DeviceAttention, context: ValidationContext, storage: OfflineStorage.Decision?
    ) -> Presentation? {
        guard report.ok, report.targeting == .device, storage == nil, let payload = report.validated,
            payload.pushType != .liveactivity, payload.pushType != .background
        else { return nil }
        let zone = raw.envelope.deviceZone.flatMap(TimeZone.init(identifier:)) ?? clock?.timeZone ?? .current
        let at = raw.envelope.deviceAt ?? clock.map { $0.isSimulated ? $0.now : raw.envelope.receivedAt } ?? raw.envelope.receivedAt
        // The sender a communication step would donate, read from the payload as it came (a
        // sender inside encrypted content is not known here).
        let sender =
            context.capabilities?.contains(.communicationNotifications) == false
            ? [] : (context.communicationSender ?? []).compactMap { payload.payload.value(atPath: $0)?.stringValue }
        return attention.decide(
            aps: payload.aps, level: PresentationRules.level(payload.aps, capabilities: context.capabilities), bundleID: context.bundleID,
            sender: sender, at: at, zone: zone)
    }

    /// A Live Activity push the device receives now applied to `activities` (or dropped) before
    /// it is kept; a dry run tries it on a copy. Nothing for another push, or one kept while offline.
    static func applyLiveActivity(_ judgement: inout Judgement, raw: RawPayload, mode: JudgementMode, to activities: LiveActivityDevice?) {
        guard judgement.verdict.storage == nil, judgement.report.targeting == .device, let validated = judgement.report.validated,
            validated.pushType == .liveactivity, let activities
        else { return }
        let outcome =
            mode == .live
            ? activities.apply(validated, deviceToken: raw.envelope.deviceToken, apnsID: judgement.apnsID)
            : activities.tryOn(validated, deviceToken: raw.envelope.deviceToken, apnsID: judgement.apnsID)
        judgement.report.liveActivity = outcome
        judgement.verdict.liveActivity = outcome
    }

    /// APNs' refusal of a push for the device's token sent to the other environment's host:
    /// `400 BadDeviceToken`. A request that names no APNs host (the socket, `localhost`) is taken
    /// as addressed to the device's own environment: pushbox's choice, said in docs/guide/backends.md.
    static func environmentMismatch(_ report: ValidationReport, raw: RawPayload, device: APNsEnvironment) -> Rejection? {
        guard report.ok, report.validated?.fcm == nil, raw.envelope.deviceToken != nil, let host = raw.envelope.arrival?.host,
            let addressed = APNsEnvironment.of(host: host), addressed != device
        else { return nil }
        return Rejection(
            .badDeviceToken,
            "the device's token is for APNs' \(device.rawValue) environment (\(device == .development ? "a debug build from Xcode" : "TestFlight or the App Store")), but the request went to \(host), the \(addressed.rawValue) environment: send it to \(device.host), or set the device to \(addressed.rawValue) (--apns-environment, \"apsEnvironment\" in pushbox.json)"
        )
    }

    /// A message to the device's token from another Firebase project than the device's own (the
    /// profile's `fcmProject`, else the first project that sent to it, which a live send records).
    private func senderMismatch(
        _ report: ValidationReport, raw: RawPayload, context: ValidationContext, device: DeviceRegistration?, mode: JudgementMode
    ) -> (refusal: Rejection?, adopted: String?) {
        guard let project = raw.envelope.arrival?.fcmProject, report.ok, report.validated?.fcm != nil else { return (nil, nil) }
        if let own = context.fcmProject ?? device?.fcmProject {
            return (DeviceRegistration.senderMismatch(of: report, sentTo: project, own: own), nil)
        }
        // The first project that sends is the device's from now on (pushbox device says which).
        guard mode == .live, let file = registrationFile, (try? file.update({ $0.fcmProject = $0.fcmProject ?? project })) != nil else {
            return (nil, nil)
        }
        return (nil, project)
    }

    /// The device's languages changed (the inbox's language picker): its FCM language topic
    /// follows the first, as the app re-subscribes on a locale change.
    public func deviceLanguagesChanged(to languages: [String], profileTopics: [String]) {
        languagesNow.withLock { $0 = (languages, profileTopics) }
        contextNow.withLock { context in
            if context.deviceTopics != nil { context.deviceTopics = DeviceTopics.topics(preferredLanguages: languages, profileTopics: profileTopics) }
        }
    }

    /// The app profile's FCM topics, as last set.
    public var profileTopics: [String] { languagesAndProfileTopics.profileTopics }

    /// The default device's languages and the app profile's topics, as last set (empty before).
    var languagesAndProfileTopics: (languages: [String], profileTopics: [String]) {
        languagesNow.withLock { $0 } ?? ([], [])
    }

    /// Another process changed the device's languages (the picker of a second inbox on this
    /// database): the language topic follows the kept ones from the next push.
    func followKeptLanguages(_ device: DeviceRegistration?) {
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
    public static func answerID(sent: String?) -> String {
        sent.flatMap { PushHeaders.isCanonicalUUID($0) ? $0.lowercased() : nil } ?? FastUUID.make()
    }

    /// The judgement kept with a stored row (its bytes and verdict), read back for a rendering
    /// of it (another language, a second inbox): what validating it again would not give — the refusal of a device
    /// whose token was no longer valid, or an FCM message's targeting as judged when it arrived
    /// (the device's topics and tokens change); nil when validating again gives the answer.
    public static func report(of raw: RawPayload, verdict: Verdict?, context: ValidationContext) -> ValidationReport? {
        guard let outcome = verdict?.liveActivity else { return judgedReport(raw, verdict: verdict, context: context) }
        var report = judgedReport(raw, verdict: verdict, context: context) ?? Validator.validate(raw, context: context)
        report.liveActivity = outcome
        return report
    }

    /// What `report(of:context:)` gives for everything but a Live Activity's outcome.
    private static func judgedReport(_ raw: RawPayload, verdict: Verdict?, context: ValidationContext) -> ValidationReport? {
        if let reason = verdict?.reason, DeviceRegistration.reasons.contains(reason), let known = APNsReason(rawValue: reason) {
            return .refused(Rejection(known, verdict?.detail ?? reason))
        }
        if let targeting = verdict?.targeting { return targeting.applied(to: Validator.validate(raw, context: context)) }
        // An FCM message stored before its targeting was kept is judged again, against the
        // device's topics now (its language topic may have changed): the card says so.
        guard raw.envelope.source == .fcm, verdict?.status == 200 else { return nil }
        var report = Validator.validate(raw, context: context)
        let again = " (judged again against the device's topics now: this message was stored before pushbox kept how it was targeted)"
        switch report.targeting {
        case .device: report.targetDescription = (report.targetDescription ?? "the message is for this device") + again
        case .notTargeted(let why): report.targeting = .notTargeted(why + again)
        }
        return report
    }
}
