import Foundation
import PushboxDevice
import PushboxPayload

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
    /// The device's judgement, stored with the bytes in the same commit; nil until judged.
    public var verdict: Verdict?
    /// How it reached the HTTP API (listener, protocol, client, authentication).
    public var arrival: Arrival? = nil
    /// Where it stands when the device was offline as it arrived; nil: delivered then (or refused).
    public var delivery: DeliveryRecord? = nil
    /// The device clock's time when it arrived, when that clock was not the wall clock.
    public var deviceAt: Date? = nil
    /// The device's time zone when it arrived (`Asia/Seoul`); nil: not known (then the host's).
    public var deviceZone: String? = nil

    /// When it arrived on the device's clock: what every list and card shows.
    public var deviceTime: Date { deviceAt ?? receivedAt }
    /// The zone its time is shown in: the device's then, else the host's.
    public var deviceTimeZone: TimeZone { deviceZone.flatMap(TimeZone.init(identifier:)) ?? .current }

    /// APNs' status (200 or the refusal's), nil until judged.
    public var status: Int? { verdict?.status }
    /// APNs' reason when refused.
    public var reason: String? { verdict?.reason }
    /// Why, in words, when refused.
    public var detail: String? { verdict?.detail }
    /// `apns-collapse-id`, when accepted with one.
    public var collapseID: String? { verdict?.collapseID }
    /// The device of the fleet it was delivered to; nil: the inbox's default device.
    public var device: String? { verdict?.device }
    /// `apns-topic` (or the FCM message's).
    public var topic: String? { verdict?.topic }
    /// For an accepted FCM message, its targeting as judged when it arrived.
    public var targeting: TargetingRecord? { verdict?.targeting }
    /// What the inbox lists of the payload, read when it was validated (nil: its body could not be read).
    public var listing: PayloadListing? { verdict?.listing }
    /// For a Live Activity push, what the device did with it (when it arrived, or came back online).
    public var liveActivity: LiveActivityOutcome? {
        get { verdict?.liveActivity }
        set { verdict?.liveActivity = newValue }
    }

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
    init(id: Int64, raw: RawPayload, apnsID: String, verdict: Verdict?, contentHash: String) {
        self.init(
            id: id, apnsID: apnsID, receivedAt: raw.envelope.receivedAt, source: raw.envelope.source, file: raw.envelope.fileName,
            contentHash: contentHash, deviceToken: raw.envelope.deviceToken, headers: raw.envelope.headers, raw: raw.bytes, verdict: verdict,
            arrival: raw.envelope.arrival, delivery: verdict?.storage.map { $0.delivery(at: raw.envelope.receivedAt) },
            deviceAt: raw.envelope.deviceAt, deviceZone: raw.envelope.deviceZone)
    }
}
