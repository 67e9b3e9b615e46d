import Foundation
import PushboxJSON
import PushboxPayload

/// What the push service keeps for a device that is offline (Apple's "Sending notification
/// requests to APNs": it stores "only one notification per bundle ID", "for 30 days or less,
/// depending on the date you specify in the apns-expiration header", and with an expiration of
/// 0 "attempts to deliver the notification only once and doesn't store it"; FCM's "Setting the
/// lifespan of a message" and "Collapsible messages": a message is kept for its `ttl`, 4 weeks
/// by default, `0s` is now or never, and of messages sharing a collapse key only the latest).
public enum OfflineStorage {
    /// How long APNs keeps a notification sent without `apns-expiration` (its 30-day ceiling).
    public static let apnsDefault: TimeInterval = 30 * 86_400
    /// How long FCM keeps a message without `ttl` (4 weeks, also its ceiling).
    public static let fcmDefault: TimeInterval = 28 * 86_400

    /// What the service does with an accepted push while the device is offline.
    public enum Decision: Sendable, Equatable {
        /// Kept until `expiresAt`; an earlier one kept under the same `key` is replaced (nil: no
        /// other message replaces it).
        case store(expiresAt: Date, key: String?)
        /// Not kept at all: it would be delivered now or never (why, in words).
        case notStored(String)

        /// Where a push this decision was made for stands as it arrives at `at`.
        public func delivery(at: Date) -> DeliveryRecord {
            switch self {
            case .store(let expiresAt, _): return DeliveryRecord(state: .stored, at: at, expiresAt: expiresAt)
            case .notStored: return DeliveryRecord(state: .discardedExpired, at: at)
            }
        }
    }

    /// The decision for `validated`, received at `receivedAt` while the device is offline.
    public static func decide(_ validated: ValidatedPayload, receivedAt: Date) -> Decision {
        if let message = validated.fcm { return decideFCM(message, headers: validated.headers, receivedAt: receivedAt) }
        let app = validated.headers[PushHeaders.topic].map(PushType.bundleID(fromTopic:)) ?? ""
        switch validated.headers[PushHeaders.expiration].flatMap({ Int64($0) }) {
        case 0?:
            return .notStored("apns-expiration 0: APNs delivers it once, now, and does not store it")
        case let seconds?:
            let until = min(Date(timeIntervalSince1970: TimeInterval(seconds)), receivedAt.addingTimeInterval(apnsDefault))
            return .store(expiresAt: until, key: "apns:" + app)
        case nil:
            return .store(expiresAt: receivedAt.addingTimeInterval(apnsDefault), key: "apns:" + app)
        }
    }

    /// FCM's storage: `android.ttl` (or, for the APNs leg, `apns-expiration`), the collapse key
    /// (`android.collapse_key`, or `apns-collapse-id`).
    static func decideFCM(_ message: FCMMessage, headers: PushHeaders, receivedAt: Date) -> Decision {
        let lifespan: TimeInterval
        if let ttl = message.android?["ttl"]?.stringValue.flatMap(FCMAndroidRules.seconds(ofDuration:)) {
            lifespan = min(ttl, fcmDefault)
        } else if let expiration = headers[PushHeaders.expiration].flatMap({ Int64($0) }) {
            lifespan = expiration == 0 ? 0 : max(0, TimeInterval(expiration) - receivedAt.timeIntervalSince1970)
        } else {
            lifespan = fcmDefault
        }
        guard lifespan > 0 else { return .notStored("ttl 0s: FCM delivers it now or never, and the device is offline") }
        let collapse = message.android?["collapse_key"]?.stringValue ?? headers[PushHeaders.collapseID]
        return .store(expiresAt: receivedAt.addingTimeInterval(lifespan), key: collapse.map { "fcm:" + $0 })
    }
}
