import PushboxPayload

/// One Live Activity push as the device receives it.
public struct ActivityDelivery: Sendable {
    /// Its keys.
    public var push: LiveActivityPush
    /// The device token it was sent to (an activity's, or the push-to-start token).
    public var token: String
    /// `apns-priority` (10 when not sent).
    public var priority: Int
    /// Its apns-id.
    public var apnsID: String?
    /// The device clock when it arrived, UNIX seconds.
    public var now: Double

    /// A delivery of `push` to `token` at `now`.
    public init(push: LiveActivityPush, token: String, priority: Int = 10, apnsID: String? = nil, now: Double) {
        self.push = push
        self.token = token
        self.priority = priority
        self.apnsID = apnsID
        self.now = now
    }
}
