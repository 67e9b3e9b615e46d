import Foundation

/// The simulated device's own tokens, fixed for every run: what a backend registers, and what
/// validation calls "this device's own".
public enum DeviceIdentity {
    /// The device's APNs device token (32 bytes, hex).
    public static let apnsToken = "5e1ec7ed" + String(repeating: "00", count: 28)
    /// The device's FCM registration token (of FCM's form: an instance id, `:`, a long id).
    public static let fcmToken = "pushboxDevice0000000A:APA91b" + String(repeating: "pushboxSimulatedDevice", count: 6)
    /// The device's Firebase installation id (22 characters of URL-safe base64, first `c`–`f`).
    public static let installationID = "cPushboxDeviceFid00000"

    /// Whether an FCM `token` or `fid` is one of the device's built-in ones.
    public static func isBuiltIn(_ token: String) -> Bool { token == fcmToken || token == installationID }
}
