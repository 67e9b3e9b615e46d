import Foundation
import PushboxJSON

/// What the inbox lists of a payload, read once when it is validated and stored with its row,
/// so the list is made without parsing or validating the payload again: the alert as sent
/// (literal, or the loc-key's name in brackets), its thread, whether it is a background event
/// or encrypted, and when a local notification fired on the device clock.
public struct PayloadListing: Sendable, Equatable {
    /// The title as sent (`[title-loc-key]` for a localized one).
    public var title: String?
    /// The body as sent (`[loc-key]` for a localized one).
    public var body: String?
    /// `thread-id`.
    public var threadID: String?
    /// No alert and no Live Activity: nothing is shown (a background event).
    public var background = false
    /// The payload carries `encrypted_data`.
    public var encrypted = false
    /// When a local notification fired, on the device clock (ISO 8601).
    public var firedAt: String?

    /// What is listed of `payload` (the APNs payload; an FCM message's as it reaches the iPhone)
    /// sent as `pushType`.
    public init(payload: JSONObject, pushType: PushType?) {
        let aps = payload["aps"]?.objectValue
        switch aps?["alert"] {
        case .string(let text)?: body = text
        case .object(let alert)?:
            title = alert["title-loc-key"]?.stringValue.map { "[\($0)]" } ?? alert["title"]?.stringValue
            body = alert["loc-key"]?.stringValue.map { "[\($0)]" } ?? alert["body"]?.stringValue
        default: break
        }
        threadID = aps?["thread-id"]?.stringValue
        // A Live Activity push without an alert changes the activity: it is no background event.
        background = aps != nil && aps?["alert"] == nil && pushType != .liveactivity
        encrypted = payload["encrypted_data"] != nil
        firedAt = LocalNotificationPayload.info(payload)?["firedAt"]?.stringValue
    }

    /// A listing of these values.
    public init(title: String?, body: String?, threadID: String?, background: Bool, encrypted: Bool, firedAt: String?) {
        self.title = title
        self.body = body
        self.threadID = threadID
        self.background = background
        self.encrypted = encrypted
        self.firedAt = firedAt
    }
}
