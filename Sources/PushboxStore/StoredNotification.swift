import Foundation
import PushboxCore

/// A notification as the store holds it: the raw bytes and envelope, and APNs' verdict once known.
public struct StoredNotification: Sendable, Equatable {
    /// The row's id, in arrival order.
    public var id: Int64
    /// The apns-id it was answered with.
    public var apnsID: String
    /// When it was taken in (real time).
    public var receivedAt: Date
    /// Where it came from.
    public var source: PayloadSource
    /// The file it was read from (folder watch, replay of a folder).
    public var file: String?
    /// SHA-256 of the bytes, for files (the watch's only-once check).
    public var contentHash: String
    /// The device token of /3/device/<token>.
    public var deviceToken: String?
    /// Its request headers, in order.
    public var headers: PushHeaders
    /// The bytes as they arrived, untouched.
    public var raw: [UInt8]
    /// APNs' status (200 or the refusal's), nil until validated.
    public var status: Int?
    /// APNs' reason when refused.
    public var reason: String?
    /// Why, in words, when refused.
    public var detail: String?
    /// `apns-collapse-id`, when accepted with one.
    public var collapseID: String?
    /// `apns-topic` (or the FCM message's).
    public var topic: String?
    /// How it reached the HTTP API (listener, protocol, client, authentication).
    public var arrival: Arrival? = nil
    /// Where it stands when the device was offline as it arrived; nil: delivered then (or refused).
    public var delivery: DeliveryRecord? = nil
    /// For an accepted FCM message, its targeting as judged when it arrived.
    public var targeting: TargetingRecord? = nil
    /// For a Live Activity push, what the device did with it when it arrived.
    public var liveActivity: LiveActivityOutcome? = nil
    /// What the inbox lists of the payload, read when it was validated (nil: stored before
    /// pushbox kept it, or its body could not be read).
    public var listing: PayloadListing? = nil

    /// The raw payload again, as it arrived.
    public var rawPayload: RawPayload {
        RawPayload(
            bytes: raw,
            envelope: Envelope(
                source: source, receivedAt: receivedAt, headers: headers, deviceToken: deviceToken,
                fileName: file, arrival: arrival))
    }
}

extension StoredNotification {
    /// The row `insertRow` stored as `id`, without reading it back.
    init(id: Int64, raw: RawPayload, apnsID: String, verdict: InboxStore.Verdict?, contentHash: String) {
        self.init(
            id: id, apnsID: apnsID, receivedAt: raw.envelope.receivedAt, source: raw.envelope.source, file: raw.envelope.fileName,
            contentHash: contentHash, deviceToken: raw.envelope.deviceToken, headers: raw.envelope.headers,
            raw: raw.bytes, status: verdict?.status, reason: verdict?.reason, detail: verdict?.detail,
            collapseID: verdict?.collapseID, topic: verdict?.topic, arrival: raw.envelope.arrival,
            delivery: verdict?.storage.map { InboxStore.delivery(of: $0, at: raw.envelope.receivedAt) }, targeting: verdict?.targeting,
            liveActivity: verdict?.liveActivity, listing: verdict?.listing)
    }
}
