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
    /// What the push service does with it because the device is offline (nil: online).
    public var storage: OfflineStorage.Decision?
    /// An accepted FCM message's targeting, as judged now.
    public var targeting: TargetingRecord?
    /// What the device did with a Live Activity push.
    public var liveActivity: LiveActivityOutcome? = nil
    /// What the inbox lists of the payload.
    public var listing: PayloadListing? = nil

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
        self.storage = storage
        self.targeting = targeting
        self.liveActivity = liveActivity
        self.listing = listing
    }
}
