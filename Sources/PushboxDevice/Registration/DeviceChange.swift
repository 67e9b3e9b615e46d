import Foundation
import PushboxPayload

/// A change a user makes to the device's registration (`pushbox device ACTION`, `U` and `O` in
/// the inbox). Coming back online is not one: it delivers what the inbox kept, so the inbox
/// layer does it (`comeOnline`).
public enum DeviceChange: Sendable, Equatable {
    /// The device goes offline: the push service keeps what it accepts.
    case offline
    /// The app is installed again: its tokens are valid again.
    case install
    /// The app is uninstalled: APNs answers 410 Unregistered, FCM 404 UNREGISTERED.
    case uninstall
    /// One token stops being valid while the app stays installed.
    case unregister(String)
    /// An FCM token becomes this device's besides its own.
    case register(String)
    /// The app subscribes to an FCM topic.
    case subscribe(String)
    /// The app unsubscribes from an FCM topic.
    case unsubscribe(String)
    /// The user sets the device's preferred languages (its language topic follows the first).
    case language([String])
    /// The user changes Focus, the scheduled summary, previews or the ring switch.
    case attention(DeviceAttention)

    /// Applies the change to `registration` at `now` (milliseconds since 1970); `baseTopics` are
    /// the device's own topics (the profile's and its language's).
    public func apply(to registration: inout DeviceRegistration, baseTopics: Set<String>, at now: Int64) {
        switch self {
        case .offline: if registration.online { registration.offlineSince = now }
        case .install: registration.uninstalledAt = nil
        case .uninstall: if registration.installed { registration.uninstalledAt = now }
        case .unregister(let token):
            registration.unregistered[token] = registration.unregistered[token] ?? now
            registration.registered[token] = nil
        case .register(let token):
            registration.unregistered[token] = nil
            if !registration.isOwn(token) { registration.registered[token] = now }
        case .subscribe(let topic): registration.subscribe(topic, base: baseTopics, at: now, by: "app")
        case .unsubscribe(let topic): registration.unsubscribe(topic, base: baseTopics, at: now, by: "app")
        case .language(let tags): registration.languages = tags
        case .attention(let attention): registration.attention = attention
        }
    }
}

extension DeviceRegistrationFile {
    /// Makes `change` at `now` and writes the registration; the registration as written.
    public func apply(_ change: DeviceChange, baseTopics: Set<String> = [], at now: Date = Date()) throws(FileWriteError)
        -> DeviceRegistration
    {
        let ms = Int64(now.timeIntervalSince1970 * 1000)
        return try update { change.apply(to: &$0, baseTopics: baseTopics, at: ms) }
    }
}
