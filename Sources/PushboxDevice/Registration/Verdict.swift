import Foundation
import PushboxPayload

/// What the device judged of a payload (APNs' or FCM's answer, what an offline device's push
/// service does with it, its targeting, a Live Activity's outcome, what the inbox lists of it),
/// stored with the payload in the same commit: the one record of the judgement, which the stored
/// row holds as it is.
public struct Verdict: Sendable, Equatable {
    /// The HTTP status APNs answered.
    public var status: Int {
        get { fields.status }
        _modify {
            unique()
            yield &fields.status
        }
    }
    /// APNs' reason when refused.
    public var reason: String? {
        get { fields.reason }
        _modify {
            unique()
            yield &fields.reason
        }
    }
    /// Why, in words.
    public var detail: String? {
        get { fields.detail }
        _modify {
            unique()
            yield &fields.detail
        }
    }
    /// `apns-collapse-id`, for the collapse view.
    public var collapseID: String? {
        get { fields.collapseID }
        _modify {
            unique()
            yield &fields.collapseID
        }
    }
    /// `apns-topic`.
    public var topic: String? {
        get { fields.topic }
        _modify {
            unique()
            yield &fields.topic
        }
    }
    /// What the inbox lists of the payload.
    public var listing: PayloadListing? {
        get { fields.listing }
        _modify {
            unique()
            yield &fields.listing
        }
    }
    /// The device of the fleet it was delivered to (`pushbox device add`); nil: the default device.
    public var device: String? {
        get { fields.device }
        _modify {
            unique()
            yield &fields.device
        }
    }
    /// What few verdicts have, out of line: an inbox holds one verdict per notification, and
    /// a Live Activity outcome kept inline would make each of 100,000 several times larger.
    private var rare: Rare? {
        get { fields.rare }
        _modify {
            unique()
            yield &fields.rare
        }
    }

    /// The fields behind one reference, copied before a change when shared: a verdict is copied
    /// with its judgement, its answer and its row, and one retain is cheaper than the ten its
    /// strings and listing cost (callgrind).
    private var fields: Fields

    /// The stored fields of a verdict; changed only through `unique()`'s own copy, so
    /// no access needs the run-time exclusivity check (which cost more than the retains saved).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var status: Int
        @exclusivity(unchecked) var reason: String?
        @exclusivity(unchecked) var detail: String?
        @exclusivity(unchecked) var collapseID: String?
        @exclusivity(unchecked) var topic: String?
        @exclusivity(unchecked) var listing: PayloadListing?
        @exclusivity(unchecked) var device: String? = nil
        @exclusivity(unchecked) var rare: Rare?

        init(status: Int, reason: String?, detail: String?, collapseID: String?, topic: String?, listing: PayloadListing?, rare: Rare?) {
            self.status = status
            self.reason = reason
            self.detail = detail
            self.collapseID = collapseID
            self.topic = topic
            self.listing = listing
            self.rare = rare
        }

        /// A copy of every field.
        func copy() -> Fields {
            let c = Fields(status: status, reason: reason, detail: detail, collapseID: collapseID, topic: topic, listing: listing, rare: rare)
            c.device = device
            return c
        }
    }

    /// Makes `fields` a verdict's own before it changes.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
    }

    /// Equal when every field is.
    public static func == (a: Verdict, b: Verdict) -> Bool {
        a.fields === b.fields
            || (a.status == b.status && a.reason == b.reason && a.detail == b.detail && a.collapseID == b.collapseID && a.topic == b.topic
                && a.listing == b.listing && a.device == b.device && a.rare == b.rare)
    }

    /// What the push service does with it because the device is offline (nil: online).
    public var storage: OfflineStorage.Decision? {
        get { rare?.storage }
        set { rare = Rare(storage: newValue, targeting: targeting, liveActivity: liveActivity, presentation: presentation) }
    }
    /// An accepted FCM message's targeting, as judged now.
    public var targeting: TargetingRecord? {
        get { rare?.targeting }
        set { rare = Rare(storage: storage, targeting: newValue, liveActivity: liveActivity, presentation: presentation) }
    }
    /// What the device did with a Live Activity push.
    public var liveActivity: LiveActivityOutcome? {
        get { rare?.liveActivity }
        set { rare = Rare(storage: storage, targeting: targeting, liveActivity: newValue, presentation: presentation) }
    }

    /// How the device presented it when it arrived (shown, quietly, held for the summary, silenced by Focus).
    public var presentation: Presentation? {
        get { rare?.presentation }
        set { rare = Rare(storage: storage, targeting: targeting, liveActivity: liveActivity, presentation: newValue) }
    }

    /// The out-of-line parts; nil when it has none of them.
    private final class Rare: Sendable, Equatable {
        let storage: OfflineStorage.Decision?
        let targeting: TargetingRecord?
        let liveActivity: LiveActivityOutcome?
        let presentation: Presentation?

        init?(storage: OfflineStorage.Decision?, targeting: TargetingRecord?, liveActivity: LiveActivityOutcome?, presentation: Presentation? = nil) {
            guard storage != nil || targeting != nil || liveActivity != nil || presentation != nil else { return nil }
            self.storage = storage
            self.targeting = targeting
            self.liveActivity = liveActivity
            self.presentation = presentation
        }

        static func == (a: Rare, b: Rare) -> Bool {
            a.storage == b.storage && a.targeting == b.targeting && a.liveActivity == b.liveActivity && a.presentation == b.presentation
        }
    }

    /// APNs' answer for a payload, stored with it.
    public init(
        status: Int, reason: String? = nil, detail: String? = nil, collapseID: String? = nil, topic: String? = nil,
        storage: OfflineStorage.Decision? = nil, targeting: TargetingRecord? = nil, liveActivity: LiveActivityOutcome? = nil,
        listing: PayloadListing? = nil
    ) {
        fields = Fields(
            status: status, reason: reason, detail: detail, collapseID: collapseID, topic: topic, listing: listing,
            rare: Rare(storage: storage, targeting: targeting, liveActivity: liveActivity))
    }
}
