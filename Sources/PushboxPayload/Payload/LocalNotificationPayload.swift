import Foundation
import PushboxJSON

/// The stored form of a fired local notification, as far as a reader of payloads needs it:
/// pushbox's own `pushbox-local` block beside the content (`LocalDelivery` writes it).
public enum LocalNotificationPayload {
    /// The payload key that marks a fired local notification's stored form.
    public static let key = "pushbox-local"

    /// The `pushbox-local` block of a stored payload.
    public static func info(_ payload: JSONObject) -> JSONObject? { payload[key]?.objectValue }

    /// The `userInfo` the app receives: for a push the whole payload, `aps` included, as
    /// `UNNotificationContent.userInfo` holds it; for a fired local request its own `userInfo`
    /// (the stored form's `aps` is pushbox's, not the app's). pushbox's own block is never in it.
    public static func userInfo(_ payload: JSONObject) -> JSONObject {
        var custom = payload
        if payload[key] != nil { custom["aps"] = nil }
        custom[key] = nil
        return custom
    }
}
