import PushboxJSON

/// The outcome of validating one payload: APNs' answer, warnings, and the payload as delivered.
public struct ValidationReport: Sendable {
    /// APNs' refusal, if refused.
    public var rejection: Rejection? {
        get { fields.rejection }
        _modify {
            unique()
            yield &fields.rejection
        }
    }
    /// What APNs accepts but a developer should know.
    public var warnings: [Diagnostic] {
        get { fields.warnings }
        _modify {
            unique()
            yield &fields.warnings
        }
    }
    /// The payload as accepted.
    public var validated: ValidatedPayload? {
        get { fields.validated }
        _modify {
            unique()
            yield &fields.validated
        }
    }
    /// Whether an FCM message reaches this device.
    public var targeting: Targeting {
        get { fields.targeting }
        _modify {
            unique()
            yield &fields.targeting
        }
    }
    /// Why an FCM message reaches this device, in words (its token, topic or condition), as
    /// judged when it arrived: the device's topics and tokens may change since.
    public var targetDescription: String? {
        get { fields.targetDescription }
        _modify {
            unique()
            yield &fields.targetDescription
        }
    }
    /// To whom an FCM message was addressed, in a few words (`token …` and whether it is the
    /// device's own, `topic …`, `condition …`).
    public var addressee: String? {
        get { fields.addressee }
        _modify {
            unique()
            yield &fields.addressee
        }
    }
    /// What the device did with a Live Activity push (nil: not applied to a device).
    public var liveActivity: LiveActivityOutcome? {
        get { fields.liveActivity }
        _modify {
            unique()
            yield &fields.liveActivity
        }
    }
    /// What the inbox lists of the payload (nil: its body could not be read).
    public var listing: PayloadListing? {
        get { fields.listing }
        _modify {
            unique()
            yield &fields.listing
        }
    }

    /// The fields behind one reference, copied before a change when shared: a report travels in
    /// a judgement through the batch, the answer and the arrival, and one retain is cheaper than
    /// the dozen its warnings, payload and listing cost (callgrind).
    private var fields: Fields

    /// The stored fields of a report; changed only through `unique()`'s own copy, so
    /// no access needs the run-time exclusivity check (which cost more than the retains saved).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var rejection: Rejection?
        @exclusivity(unchecked) var warnings: [Diagnostic]
        @exclusivity(unchecked) var validated: ValidatedPayload?
        @exclusivity(unchecked) var targeting: Targeting
        @exclusivity(unchecked) var targetDescription: String? = nil
        @exclusivity(unchecked) var addressee: String? = nil
        @exclusivity(unchecked) var liveActivity: LiveActivityOutcome? = nil
        @exclusivity(unchecked) var listing: PayloadListing? = nil

        init(rejection: Rejection?, warnings: [Diagnostic], validated: ValidatedPayload?, targeting: Targeting) {
            self.rejection = rejection
            self.warnings = warnings
            self.validated = validated
            self.targeting = targeting
        }

        /// A copy of every field.
        func copy() -> Fields {
            let c = Fields(rejection: rejection, warnings: warnings, validated: validated, targeting: targeting)
            c.targetDescription = targetDescription
            c.addressee = addressee
            c.liveActivity = liveActivity
            c.listing = listing
            return c
        }
    }

    /// Makes `fields` a report's own before it changes.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
    }

    /// A report of the refusal or acceptance, with its warnings, the payload as accepted and its targeting.
    public init(rejection: Rejection?, warnings: [Diagnostic], validated: ValidatedPayload?, targeting: Targeting) {
        fields = Fields(rejection: rejection, warnings: warnings, validated: validated, targeting: targeting)
    }

    /// Whether it was accepted.
    public var ok: Bool { rejection == nil }

    /// The report of a refusal decided outside the payload (the device's registration), for a
    /// stored notification whose answer validation alone would not give again.
    public static func refused(_ rejection: Rejection) -> ValidationReport {
        ValidationReport(rejection: rejection, warnings: [], validated: nil, targeting: .device)
    }
    /// The HTTP status APNs would answer.
    public var status: Int { rejection?.status ?? 200 }

    /// Says, for an FCM message, to whom it was addressed and why it reaches the device, with
    /// the device's topics and own tokens as they are now.
    public mutating func describeTarget(deviceTopics: Set<String>, isOwn: (String) -> Bool) {
        guard let message = validated?.fcm else { return }
        addressee = FCMRules.addressee(message, isOwn: isOwn)
        if targeting == .device { targetDescription = FCMRules.describeTarget(message, deviceTopics: deviceTopics, isOwn: isOwn) }
    }

    /// The same accepted FCM message judged for another device: whether its topic or condition
    /// reaches a device with `deviceTopics`, and why, with that device's own tokens (`isOwn`).
    public func retargeted(deviceTopics: Set<String>, isOwn: (String) -> Bool) -> ValidationReport {
        guard ok, let message = validated?.fcm, let targeting = try? FCMRules.targeting(of: message, deviceTopics: deviceTopics) else { return self }
        var report = self
        report.targeting = targeting
        report.targetDescription = nil
        report.describeTarget(deviceTopics: deviceTopics, isOwn: isOwn)
        return report
    }
}
