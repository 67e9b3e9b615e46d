import Foundation
import PushboxPayload

/// What the device judged of a payload (APNs' or FCM's answer, what an offline device's push
/// service does with it, its targeting, a Live Activity's outcome, what the inbox lists of it),
/// stored with the payload in the same commit: the one record of the judgement, which the stored
/// row holds as it is.
public struct Verdict: Sendable, Equatable {
    /// The HTTP status APNs answered.
    public var status: Int
    /// APNs' reason when refused.
    public var reason: String?
    /// Why, in words.
    public var detail: String?
    /// `apns-collapse-id`, for the collapse view.
    public var collapseID: String?
    /// `apns-topic`.
    public var topic: String?
    /// What the inbox lists of the payload.
    public var listing: PayloadListing? = nil
    /// The device of the fleet it was delivered to (`pushbox device add`); nil: the default device.
    public var device: String? = nil
    /// What few verdicts have, out of line: an inbox holds one verdict per notification, and
    /// a Live Activity outcome kept inline would make each of 100,000 several times larger.
    private var rare: Rare?

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
        self.status = status
        self.reason = reason
        self.detail = detail
        self.collapseID = collapseID
        self.topic = topic
        self.listing = listing
        rare = Rare(storage: storage, targeting: targeting, liveActivity: liveActivity)
    }
}
