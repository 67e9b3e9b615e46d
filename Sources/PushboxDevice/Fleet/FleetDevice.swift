import Foundation
import PushboxJSON
import PushboxPayload

/// Which push service a device of the fleet is reached through and how it shows a notification.
public enum DevicePlatform: String, Sendable, CaseIterable {
    /// An iPhone: an APNs device token, and an FCM token when the app uses Firebase.
    case ios
    /// An Android phone: an FCM registration token only.
    case android
}

/// A device added to the inbox beside its default one (`pushbox device add NAME`): its own
/// tokens, languages, time zone, APNs environment and registration (installed, online, topics).
/// The default device, `phone`, is the registration file's own and is not one of these.
public struct FleetDevice: Sendable, Equatable {
    /// How commands and views name it (`--device NAME`).
    public var name: String
    /// iOS or Android.
    public var platform: DevicePlatform
    /// Its preferred languages; nil: the inbox's device's.
    public var languages: [String]?
    /// Its time zone (an IANA name); nil: the inbox's device's.
    public var timeZone: String?
    /// How many seconds its clock runs ahead of the inbox's device clock (behind when negative);
    /// nil: none (`device add --clock DATE` sets it from the time the device shows now).
    public var clockOffset: Double?
    /// Its APNs device token (64 hex digits); nil on Android.
    public var apnsToken: String?
    /// Its FCM registration token.
    public var fcmToken: String
    /// Its Firebase installation id.
    public var installationID: String
    /// The APNs environment its token belongs to; nil: the inbox's device's.
    public var apnsEnvironment: APNsEnvironment?
    /// Installed or not, online or not, tokens made unregistered or registered, topic changes,
    /// the Firebase project its token belongs to.
    public var state: DeviceRegistration

    /// The name of the inbox's default device, which every inbox has.
    public static let defaultName = "phone"

    /// A new device with fresh random tokens.
    public init(
        name: String, platform: DevicePlatform, languages: [String]? = nil, timeZone: String? = nil,
        apnsEnvironment: APNsEnvironment? = nil, fcmProject: String? = nil
    ) {
        self.name = name
        self.platform = platform
        self.languages = languages
        self.timeZone = timeZone
        self.apnsEnvironment = apnsEnvironment
        func hex(_ count: Int) -> String {
            String((0..<(count + 31) / 32).map { _ in FastUUID.make().replacingOccurrences(of: "-", with: "") }.joined().prefix(count))
        }
        apnsToken = platform == .ios ? hex(64) : nil
        // Of FCM's forms: an installation id (22 characters, the first `c`–`f`), `:`, a long id.
        installationID = "c" + hex(21)
        fcmToken = installationID + ":APA91b" + hex(134)
        state = DeviceRegistration()
        state.fcmProject = fcmProject
    }

    /// Its app's Live Activity tokens: a push-to-start token and its activities' token prefix
    /// of its own, made from its APNs token (an Android phone has none: its are never used).
    public var activityIdentity: ActivityBook.Identity {
        let device = apnsToken ?? String(repeating: "0", count: 64)
        return ActivityBook.Identity(
            pushToStart: "5747" + device.dropFirst(4), tokenPrefix: "ac71" + device.prefix(4), deviceToken: device)
    }

    /// Whether an FCM `token` or `fid` is this device's (its own, or one registered to it since).
    public func ownsFCM(_ token: String) -> Bool {
        token == fcmToken || token == installationID || state.registered[token] != nil
    }

    /// Whether `name` can name a device: 1–32 letters, digits, `-`, `_` or `.`, not starting with `-`.
    public static func isValidName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && !name.hasPrefix("-")
            && name.utf8.allSatisfy {
                $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || "-_.".utf8.contains($0))
            }
    }

    /// The device as the registration file keeps it.
    public var json: JSONValue {
        var o = JSONObject([
            ("name", .string(name)), ("platform", .string(platform.rawValue)),
            ("languages", languages.map { .array($0.map { .string($0) }) } ?? .null), ("timeZone", .optionalString(timeZone)),
            ("apnsToken", .optionalString(apnsToken)), ("fcmToken", .string(fcmToken)), ("fid", .string(installationID)),
            ("apnsEnvironment", .optionalString(apnsEnvironment?.rawValue)),
            ("clockOffset", clockOffset.map { .number(String(format: "%.3f", $0)) } ?? .null),
        ])
        o["state"] = state.json
        return .object(o)
    }

    /// A device read back from the file; nil when it has no usable name or tokens.
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let name = o["name"]?.stringValue, Self.isValidName(name), name != Self.defaultName,
            let fcmToken = o["fcmToken"]?.stringValue, let fid = o["fid"]?.stringValue
        else { return nil }
        self.name = name
        platform = o["platform"]?.stringValue.flatMap(DevicePlatform.init(rawValue:)) ?? .ios
        languages = o["languages"]?.arrayValue.map { $0.compactMap(\.stringValue) }.flatMap { $0.isEmpty ? nil : $0 }
        timeZone = o["timeZone"]?.stringValue
        apnsToken = o["apnsToken"]?.stringValue
        self.fcmToken = fcmToken
        installationID = fid
        apnsEnvironment = o["apnsEnvironment"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:))
        clockOffset = o["clockOffset"]?.doubleValue
        state = o["state"].map(DeviceRegistration.init(json:)) ?? DeviceRegistration()
        state.devices = []
    }
}
