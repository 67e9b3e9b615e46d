import Foundation

/// Where a notification stands on the device's side of the push service, in the words of
/// Apple's delivery log (Push Notifications Console): delivered at once, stored while the
/// device was offline and then delivered, or discarded.
public enum DeliveryState: String, Sendable, Equatable, CaseIterable {
    /// Delivered when it arrived.
    case delivered
    /// Kept by the push service: the device is offline.
    case stored
    /// Delivered when the device came back online.
    case deliveredFromStorage = "delivered-from-storage"
    /// Thrown away: its expiration passed (or was 0) before the device came back.
    case discardedExpired = "discarded-expired"
    /// Thrown away: a newer notification for the same app (APNs) or collapse key (FCM) replaced it.
    case discardedReplaced = "discarded-replaced"

    /// The delivery log's words.
    public var phrase: String {
        switch self {
        case .delivered: return "delivered"
        case .stored: return "stored — device offline"
        case .deliveredFromStorage: return "delivered from storage"
        case .discardedExpired: return "discarded — expired"
        case .discardedReplaced: return "discarded — replaced"
        }
    }

    /// Whether the device shows it (now or since it came back).
    public var reachedDevice: Bool { self == .delivered || self == .deliveredFromStorage }
}

/// A stored notification's delivery: its state, since when, and for one the service keeps,
/// until when and under which key.
public struct DeliveryRecord: Sendable, Equatable {
    /// Where it stands.
    public var state: DeliveryState
    /// When it came to stand there (real time).
    public var at: Date
    /// Until when the service keeps it, for one it stored.
    public var expiresAt: Date?

    /// A record.
    public init(state: DeliveryState, at: Date, expiresAt: Date? = nil) {
        self.state = state
        self.at = at
        self.expiresAt = expiresAt
    }

    /// The state as the device sees it at `now`: a stored notification whose expiration passed
    /// while the device stayed offline is already gone.
    public func state(at now: Date) -> DeliveryState {
        state == .stored && (expiresAt.map { $0 <= now } ?? false) ? .discardedExpired : state
    }
}
