import Foundation
import PushboxJSON
import PushboxPayload

/// Whether the simulated device's app is installed, which of its tokens are no longer valid
/// (what APNs answers `410 Unregistered` for, and FCM `404 UNREGISTERED`), whether it is
/// online, and the FCM topics it was subscribed to or unsubscribed from since it started. By
/// default the app is installed, the device online and every well-formed token this device's.
public struct DeviceRegistration: Sendable, Equatable {

    /// When the app was uninstalled (milliseconds since 1970); nil while it is installed.
    public var uninstalledAt: Int64?
    /// Tokens the user made unregistered while the app stays installed, with when.
    public var unregistered: [String: Int64] = [:]
    /// When the device went offline (ms since 1970); nil while it is online. While offline the
    /// push service answers as usual and keeps what it accepted (`OfflineStorage`).
    public var offlineSince: Int64?
    /// FCM tokens made this device's besides its own (`pushbox device register TOKEN`), with
    /// when: what strict mode also accepts.
    public var registered: [String: Int64] = [:]
    /// Topics subscribed to since the device started (through FCM's API or `pushbox device
    /// subscribe`), with when and by whom (`api`, `app`).
    public var subscribed: [String: TopicSubscription] = [:]
    /// Topics of the device's own (its profile's, its language's) unsubscribed from since, with when and by whom.
    public var unsubscribed: [String: TopicSubscription] = [:]

    /// The app the device runs (its folder, absolute), as the inbox's pushbox last ran it: what
    /// every command addressing this inbox uses when it is given no `--app`.
    public var app: String?
    /// The device's preferred languages (BCP 47 tags, regions kept), as the inbox last set
    /// them: what every command addressing this inbox uses when it is given no `--lang`.
    public var languages: [String]?
    /// The Firebase project the device's registration token belongs to when the app's profile
    /// names none: the first project that sent to it.
    public var fcmProject: String?
    /// The APNs environment the inbox's pushbox judges the device's token by (its
    /// `--apns-environment`, else the profile's), as it last ran: what `pushbox device` shows.
    public var apnsEnvironment: APNsEnvironment?
    /// How many times the file was changed: a view that saw another count reads the device again.
    public var changes: Int = 0
    /// Focus, the scheduled summary, previews and the ring switch: how notifications interrupt.
    public var attention = DeviceAttention()
    /// The devices added beside this one (`pushbox device add`), in the order they were added;
    /// empty for a device of the fleet itself.
    public var devices: [FleetDevice] = []

    /// One change to the device's topics: when, and who made it (`api`: FCM's topic API or the
    /// Instance ID service, `app`: `pushbox device subscribe`, as the app's SDK would).
    public struct TopicSubscription: Sendable, Equatable {
        /// Milliseconds since 1970.
        public var at: Int64
        /// `api` or `app`.
        public var by: String
        /// A change at `at` by `by`.
        public init(at: Int64, by: String) {
            self.at = at
            self.by = by
        }
    }

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

    /// Whether an FCM `token` or `fid` is the device's own (its token, its installation id, or
    /// one registered since).
    public func isOwn(_ token: String) -> Bool {
        DeviceIdentity.isBuiltIn(token) || registered[token] != nil
    }

    /// Whether `token` addresses this device in `mode`: not unregistered, and in strict mode its own.
    public func accepts(_ token: String, mode: FCMTokenMode) -> Bool {
        unregisteredAt(token) == nil && (mode == .any || isOwn(token))
    }

    /// The device's topics: its own (`base`: the profile's and its language's), less those
    /// unsubscribed from, plus those subscribed to since.
    public func topics(base: Set<String>) -> Set<String> {
        base.subtracting(unsubscribed.keys).union(subscribed.keys)
    }

    /// Subscribes the device to `topic` (a no-op when it already is).
    public mutating func subscribe(_ topic: String, base: Set<String>, at: Int64, by: String) {
        unsubscribed[topic] = nil
        if !base.contains(topic) && subscribed[topic] == nil { subscribed[topic] = TopicSubscription(at: at, by: by) }
    }

    /// Unsubscribes the device from `topic`; whether it was subscribed.
    @discardableResult
    public mutating func unsubscribe(_ topic: String, base: Set<String>, at: Int64, by: String) -> Bool {
        let was = topics(base: base).contains(topic)
        subscribed[topic] = nil
        if base.contains(topic) && unsubscribed[topic] == nil { unsubscribed[topic] = TopicSubscription(at: at, by: by) }
        return was
    }

    /// The refusal APNs (or FCM, for a message to a `token`/`fid`) gives a valid payload for a
    /// token that is no longer valid; nil when the device takes it. FCM's topic and condition
    /// messages are not judged here (an uninstalled app's subscriptions are not modelled).
    public func refusal(of report: ValidationReport, deviceToken: String?, mode: FCMTokenMode = .any) -> Rejection? {
        guard report.ok, let validated = report.validated else { return nil }
        if let message = validated.fcm {
            guard let token = Self.deviceAddress(of: message), !accepts(token, mode: mode) else { return nil }
            // FCM's message is "Requested entity was not found."; the detail says why, for people.
            return Rejection(
                .fcmUnregistered,
                unregisteredAt(token) != nil
                    ? (installed
                        ? "the token was made unregistered (pushbox device unregister)" : "the app was uninstalled (pushbox device uninstall)")
                    : "not this device's token or installation id, and FCM tokens are strict (pushbox device prints the device's own)")
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
    public static let reasons: Set<String> = [
        APNsReason.unregistered.rawValue, APNsReason.fcmUnregistered.rawValue, APNsReason.fcmSenderIDMismatch.rawValue,
    ]

    /// FCM's refusal of a message to the device's `token` or `fid` sent to `project` when its
    /// token belongs to `own`, another project: 403 SENDER_ID_MISMATCH. Topics and conditions
    /// are not judged here.
    public static func senderMismatch(of report: ValidationReport, sentTo project: String, own: String) -> Rejection? {
        guard project != own, report.ok, let message = report.validated?.fcm, deviceAddress(of: message) != nil else { return nil }
        return Rejection(
            .fcmSenderIDMismatch,
            "the device's registration token belongs to the Firebase project \(own); this message was sent to \(project) with its credentials")
    }

    /// The `token` or `fid` an FCM message addresses a device by; nil for a topic or condition.
    static func deviceAddress(of message: FCMMessage) -> String? {
        switch message.targets.first {
        case .token(let t)?, .fid(let t)?: t
        default: nil
        }
    }

    /// The registration as its file holds it.
    public var json: JSONValue {
        func times(_ map: [String: Int64]) -> JSONValue {
            .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) }))
        }
        func subscriptions(_ map: [String: TopicSubscription]) -> JSONValue {
            .object(
                JSONObject(
                    map.sorted { $0.key < $1.key }.map {
                        ($0.key, .object(JSONObject([("at", .number(String($0.value.at))), ("by", .string($0.value.by))])))
                    }))
        }
        var object = JSONObject([
            ("installed", .bool(installed)), ("uninstalledAt", uninstalledAt.map { .number(String($0)) } ?? .null),
            ("unregistered", times(unregistered)), ("online", .bool(online)),
            ("offlineSince", offlineSince.map { .number(String($0)) } ?? .null), ("registered", times(registered)),
            ("subscribed", subscriptions(subscribed)), ("unsubscribed", subscriptions(unsubscribed)),
            ("app", .optionalString(app)), ("languages", languages.map { .array($0.map { .string($0) }) } ?? .null),
            ("fcmProject", .optionalString(fcmProject)), ("apnsEnvironment", .optionalString(apnsEnvironment?.rawValue)),
            ("changes", .number(String(changes))),
        ])
        if !attention.isDefault { object["attention"] = attention.json }
        if !devices.isEmpty { object["devices"] = .array(devices.map(\.json)) }
        return .object(object)
    }

    /// A registration read back from its file's JSON (an unreadable one is the default).
    public init(json: JSONValue) {
        let o = json.objectValue
        uninstalledAt = o?["installed"] == .bool(false) ? Int64(o?["uninstalledAt"]?.intValue ?? 0) : nil
        offlineSince = o?["online"] == .bool(false) ? Int64(o?["offlineSince"]?.intValue ?? 0) : nil
        for entry in o?["unregistered"]?.objectValue?.entries ?? [] {
            if let ms = entry.value.intValue { unregistered[entry.key] = Int64(ms) }
        }
        for entry in o?["registered"]?.objectValue?.entries ?? [] {
            if let ms = entry.value.intValue { registered[entry.key] = Int64(ms) }
        }
        func subscriptions(_ value: JSONValue?) -> [String: TopicSubscription] {
            var map: [String: TopicSubscription] = [:]
            for entry in value?.objectValue?.entries ?? [] {
                guard let o = entry.value.objectValue, let at = o["at"]?.intValue else { continue }
                map[entry.key] = TopicSubscription(at: Int64(at), by: o["by"]?.stringValue ?? "api")
            }
            return map
        }
        subscribed = subscriptions(o?["subscribed"])
        unsubscribed = subscriptions(o?["unsubscribed"])
        app = o?["app"]?.stringValue
        fcmProject = o?["fcmProject"]?.stringValue
        apnsEnvironment = o?["apnsEnvironment"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:))
        languages = o?["languages"]?.arrayValue.map { $0.compactMap(\.stringValue) }.flatMap { $0.isEmpty ? nil : $0 }
        self.changes = o?["changes"]?.intValue ?? 0
        attention = DeviceAttention(json: o?["attention"])
        var seen: Set<String> = []
        devices = (o?["devices"]?.arrayValue ?? []).compactMap(FleetDevice.init(json:)).filter { seen.insert($0.name).inserted }
    }

    /// Each added device's platform (`ios`, `android`) by name: what a query's `platform:` reads.
    public var platforms: [String: String] {
        Dictionary(devices.map { ($0.name, $0.platform.rawValue) }, uniquingKeysWith: { first, _ in first })
    }

    /// The added device named `name`; nil when there is none.
    public func device(named name: String) -> FleetDevice? { devices.first { $0.name == name } }
}
