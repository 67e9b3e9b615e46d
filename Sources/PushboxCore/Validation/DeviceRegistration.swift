import Foundation
import PushboxText

/// Whether the simulated device's app is installed, and which of its tokens are no longer
/// valid: what APNs answers `410 Unregistered` for, and FCM `404 UNREGISTERED`. By default the
/// app is installed and every well-formed token is this device's.
public struct DeviceRegistration: Sendable, Equatable {
    /// When the app was uninstalled (milliseconds since 1970); nil while it is installed.
    public var uninstalledAt: Int64?
    /// Tokens the user made unregistered while the app stays installed, with when.
    public var unregistered: [String: Int64] = [:]
    /// When the device went offline (ms since 1970); nil while it is online. While offline the
    /// push service answers as usual and keeps what it accepted (`OfflineStorage`).
    public var offlineSince: Int64?

    /// An installed app with every token valid, on a device that is online.
    public init(uninstalledAt: Int64? = nil, unregistered: [String: Int64] = [:], offlineSince: Int64? = nil) {
        self.uninstalledAt = uninstalledAt
        self.unregistered = unregistered
        self.offlineSince = offlineSince
    }

    /// Whether the app is installed.
    public var installed: Bool { uninstalledAt == nil }
    /// Whether the device is online.
    public var online: Bool { offlineSince == nil }

    /// When `token` stopped being valid, or nil while it is this device's.
    public func unregisteredAt(_ token: String?) -> Int64? {
        uninstalledAt ?? token.flatMap { unregistered[$0] }
    }

    /// The refusal APNs (or FCM, for a message to a `token`/`fid`) gives a valid payload for a
    /// token that is no longer valid; nil when the device takes it. FCM's topic and condition
    /// messages are not judged here (an uninstalled app's subscriptions are not modelled).
    public func refusal(of report: ValidationReport, deviceToken: String?) -> Rejection? {
        guard report.ok, let validated = report.validated else { return nil }
        if let message = validated.fcm {
            let token: String
            switch message.targets.first {
            case .token(let t)?, .fid(let t)?: token = t
            default: return nil
            }
            guard unregisteredAt(token) != nil else { return nil }
            return Rejection(.fcmUnregistered, "Requested entity was not found.")
        }
        guard let at = unregisteredAt(deviceToken) else { return nil }
        var rejection = Rejection(
            .unregistered,
            installed
                ? "the token was made unregistered (pushbox device unregister)" : "the app was uninstalled from the device (pushbox device uninstall)"
        )
        rejection.timestamp = at
        return rejection
    }

    /// What the push service does with a payload it accepted while the device is offline; nil
    /// when the device is online or the payload reaches no device (refused, not for this one).
    public func storage(of report: ValidationReport, receivedAt: Date) -> OfflineStorage.Decision? {
        guard !online, report.ok, report.targeting == .device, let validated = report.validated else { return nil }
        return OfflineStorage.decide(validated, receivedAt: receivedAt)
    }

    /// The reasons a device, not a payload, gives: a stored notification with one of them is
    /// shown as refused whatever its payload's own validation says.
    public static let reasons: Set<String> = [APNsReason.unregistered.rawValue, APNsReason.fcmUnregistered.rawValue]

    /// The registration as its file holds it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("installed", .bool(installed)), ("uninstalledAt", uninstalledAt.map { .number(String($0)) } ?? .null),
                ("unregistered", .object(JSONObject(unregistered.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) }))),
                ("online", .bool(online)), ("offlineSince", offlineSince.map { .number(String($0)) } ?? .null),
            ]))
    }

    /// A registration read back from its file's JSON (an unreadable one is the default).
    public init(json: JSONValue) {
        let o = json.objectValue
        uninstalledAt = o?["installed"] == .bool(false) ? Int64(o?["uninstalledAt"]?.intValue ?? 0) : nil
        offlineSince = o?["online"] == .bool(false) ? Int64(o?["offlineSince"]?.intValue ?? 0) : nil
        for entry in o?["unregistered"]?.objectValue?.entries ?? [] {
            if let ms = entry.value.intValue { unregistered[entry.key] = Int64(ms) }
        }
    }
}
