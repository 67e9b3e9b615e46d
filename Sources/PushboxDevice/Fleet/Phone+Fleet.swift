import Foundation
import PushboxPayload

/// The fleet: the inbox's default device and those added beside it, each with its own tokens,
/// languages, topics and state. A payload is routed as APNs and FCM route it — to the device
/// whose token it names, or to every device a topic or condition reaches — and judged once per
/// device it reaches: one request, one answer, a delivery per device.
extension Phone {
    /// Judges one payload for every device it reaches, the answering one first (there is always
    /// one: a payload no device takes is the default device's, refused or not targeted).
    public func deliveries(_ raw: RawPayload, mode: JudgementMode) -> [Judgement] {
        deliveries(raw, mode: mode, validated: nil)
    }

    /// `deliveries`, with the payload's validation already made for a device context.
    func deliveries(_ raw: RawPayload, mode: JudgementMode, validated: (ValidationReport, ValidationContext)?) -> [Judgement] {
        let apnsID = Self.answerID(sent: raw.envelope.headers[PushHeaders.id])
        let registration = self.registration()
        followKeptLanguages(registration)
        guard let registration, !registration.devices.isEmpty else {
            return [judgeDefault(raw, mode: mode, validated: validated, device: registration, apnsID: apnsID)]
        }
        let context = self.context(for: registration)
        let report = validated.flatMap { $0.1 == context ? $0.0 : nil } ?? Validator.validate(raw, context: context)
        let own = { [self] in judgeDefault(raw, mode: mode, validated: (report, context), device: registration, apnsID: apnsID) }
        guard report.ok, let payload = report.validated else { return [own()] }
        // A Live Activity push goes to the iPhone whose push-to-start or activity token it names.
        if payload.pushType == .liveactivity, let token = payload.fcm?.liveActivityToken ?? raw.envelope.deviceToken,
            let device = activityOwner(token, in: registration)
        {
            var theirs = report
            theirs.targetDescription = "the push names a Live Activity token of \(device.name)'s"
            return [judge(raw, as: device, report: theirs, context: context, mode: mode, apnsID: apnsID)]
        }
        guard let message = payload.fcm else {
            // APNs: the device whose token the request names; a token no added device owns is the default device's.
            guard let token = raw.envelope.deviceToken, let device = registration.devices.first(where: { $0.apnsToken == token }) else {
                var mine = own()
                // Said in the trace: which device took a token no device owns, and why.
                if mine.report.ok, let token = raw.envelope.deviceToken, token.lowercased() != DeviceIdentity.apnsToken,
                    payload.pushType != .liveactivity
                {
                    mine.report.targetDescription =
                        "the token \(token.prefix(12))… is no device's own: APNs tokens are taken as any, so the default device (phone) gets the push (--apns-tokens strict answers 400 BadDeviceToken)"
                    mine.verdict.targeting = TargetingRecord(mine.report)
                }
                return [mine]
            }
            var theirs = report
            theirs.targetDescription = "the push names \(device.name)'s device token"
            return [judge(raw, as: device, report: theirs, context: context, mode: mode, apnsID: apnsID)]
        }
        switch message.targets.first {
        case .token(let token)?, .fid(let token)?:
            guard let device = registration.devices.first(where: { $0.ownsFCM(token) }) else { return [own()] }
            return [judge(raw, as: device, report: report, context: context, mode: mode, apnsID: apnsID)]
        default:
            // A topic or a condition: every device whose topics it reaches, each judged for them.
            var reached = report.targeting == .device ? [own()] : []
            // The language topics of the languages the fleet uses, made once, not once per device.
            let inbox = languagesAndProfileTopics
            var bases: [String: Set<String>] = [:]
            for device in registration.devices where device.state.installed {
                let first = (device.languages ?? inbox.languages).first ?? ""
                let base =
                    bases[first]
                    ?? {
                        let made = DeviceTopics.topics(preferredLanguages: [first], profileTopics: inbox.profileTopics)
                        bases[first] = made
                        return made
                    }()
                let topics = device.state.topics(base: base)
                let theirs = report.retargeted(deviceTopics: topics, isOwn: device.ownsFCM)
                if theirs.targeting == .device {
                    reached.append(judge(raw, as: device, report: theirs, context: context, mode: mode, apnsID: apnsID, described: true))
                }
            }
            return reached.isEmpty ? [own()] : reached
        }
    }

    /// The default device's languages (as the inbox last set them).
    public var languages: [String] { languagesAndProfileTopics.languages }

    /// The languages of the added device named `name` (its own, else the default device's); nil
    /// when there is no such device.
    public func languages(ofDevice name: String) -> [String]? {
        registrationFile?.languages(ofDevice: name, otherwise: languagesAndProfileTopics.languages)
    }

    /// The FCM topics an added device subscribes to now: its language's and the app's, changed
    /// by its subscriptions; none once its app is uninstalled.
    public func topics(of device: FleetDevice) -> Set<String> {
        guard device.state.installed else { return [] }
        return device.state.topics(base: baseTopics(of: device))
    }

    /// An added device's own topics, before any subscription changed them: its language's (its
    /// first language, else the default device's) and the app profile's.
    public func baseTopics(of device: FleetDevice) -> Set<String> {
        let inbox = languagesAndProfileTopics
        return DeviceTopics.topics(preferredLanguages: device.languages ?? inbox.languages, profileTopics: inbox.profileTopics)
    }

    /// An added device's judgement of a payload routed to it (`report`: validated, and for FCM
    /// targeted for its topics): refused by its registration, its project or its environment,
    /// kept while it is offline, or delivered. Live Activities are the default device's only.
    /// `described`: the report already says why the message reaches this device.
    private func judge(
        _ raw: RawPayload, as device: FleetDevice, report: ValidationReport, context: ValidationContext, mode: JudgementMode, apnsID: String,
        described: Bool = false
    ) -> Judgement {
        var report = report
        let refusal =
            device.state.refusal(of: report, deviceToken: raw.envelope.deviceToken)
            ?? senderMismatch(report, raw: raw, device: device, context: context, mode: mode)
            ?? Self.environmentMismatch(report, raw: raw, device: device.apnsEnvironment ?? context.apnsEnvironment)
        if let refusal {
            report.rejection = refusal
            report.validated = nil
        } else if !described, report.validated?.fcm != nil {
            report.describeTarget(deviceTopics: topics(of: device), isOwn: device.ownsFCM)
        }
        let collapse = report.validated?.headers[PushHeaders.collapseID] ?? raw.envelope.headers[PushHeaders.collapseID]
        let topic = report.validated?.headers[PushHeaders.topic] ?? raw.envelope.headers[PushHeaders.topic]
        var verdict = Verdict(
            status: report.status, reason: report.rejection?.reason.rawValue, detail: report.rejection?.detail,
            collapseID: report.ok ? collapse : nil, topic: topic,
            storage: Self.held(device.state.storage(of: report, receivedAt: raw.envelope.receivedAt), by: device),
            targeting: TargetingRecord(report))
        verdict.listing = report.listing
        verdict.device = device.name
        if device.platform == .ios {
            verdict.presentation = presentation(report, raw: raw, attention: device.state.attention, context: context, storage: verdict.storage)
        }
        var judgement = Judgement(apnsID: apnsID, report: report, verdict: verdict)
        // Its own activities, not the default device's.
        Self.applyLiveActivity(&judgement, raw: raw, mode: mode, to: liveActivities(of: device))
        return judgement
    }

    /// An added iPhone's Live Activities (nil for an Android phone, or when the default device
    /// keeps none), kept for the phone's life so its file is read again only when it changed.
    public func liveActivities(of device: FleetDevice) -> LiveActivityDevice? {
        guard device.platform == .ios, let own = liveActivities else { return nil }
        return memberActivities.withLock { kept in
            if let made = kept[device.name], made.databasePath == own.databasePath { return made }
            let made = own.of(device)
            kept[device.name] = made
            return made
        }
    }

    /// The added iPhone a Live Activity token belongs to: its push-to-start token, or one of its
    /// activities' push tokens; nil for the default device's (or nobody's).
    func activityOwner(_ token: String, in registration: DeviceRegistration) -> FleetDevice? {
        let token = token.lowercased()
        return registration.devices.first { device in
            guard device.platform == .ios else { return false }
            let identity = device.activityIdentity
            if token == identity.pushToStart { return true }
            guard token.hasPrefix(identity.tokenPrefix), let activities = liveActivities(of: device) else { return false }
            return activities.file.current().book.activities.contains { $0.pushToken?.lowercased() == token }
        }
    }

    /// What an offline device's push service keeps, under a key of that device's: a newer
    /// notification replaces an older one only on the same device.
    static func held(_ decision: OfflineStorage.Decision?, by device: FleetDevice) -> OfflineStorage.Decision? {
        guard case .store(let expiresAt, let key?)? = decision else { return decision }
        return .store(expiresAt: expiresAt, key: "\(device.name)\u{1F}\(key)")
    }

    /// FCM's refusal of a message to an added device's token from another project than its own
    /// (the profile's, else the first that sent to it, which a live send records for it).
    private func senderMismatch(_ report: ValidationReport, raw: RawPayload, device: FleetDevice, context: ValidationContext, mode: JudgementMode)
        -> Rejection?
    {
        guard let project = raw.envelope.arrival?.fcmProject, report.ok, report.validated?.fcm != nil else { return nil }
        if let own = context.fcmProject ?? device.state.fcmProject {
            return DeviceRegistration.senderMismatch(of: report, sentTo: project, own: own)
        }
        if mode == .live, let file = registrationFile {
            _ = try? file.update(device: device.name) { $0.state.fcmProject = $0.state.fcmProject ?? project }
        }
        return nil
    }

    /// APNs' refusal of a device token that no device of the inbox owns, when APNs tokens are
    /// strict (`--apns-tokens strict`): `400 BadDeviceToken`, as APNs answers a token it does not
    /// know in the environment it was sent to. A Live Activity's own push token is its
    /// activity's to judge, not the device's.
    static func unknownToken(_ report: ValidationReport, raw: RawPayload, context: ValidationContext, device: DeviceRegistration?) -> Rejection? {
        guard context.apnsTokens == .strict, report.ok, let payload = report.validated, payload.fcm == nil, payload.pushType != .liveactivity,
            let token = raw.envelope.deviceToken, token != DeviceIdentity.apnsToken
        else { return nil }
        return Rejection(
            .badDeviceToken,
            "no device of this inbox has the token \(token.prefix(16))… in APNs' \(context.apnsEnvironment.rawValue) environment, and APNs tokens are strict (--apns-tokens): pushbox device list prints every device's token"
        )
    }
}
