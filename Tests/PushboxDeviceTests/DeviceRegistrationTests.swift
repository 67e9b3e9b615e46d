import PushboxJSON
import PushboxPayload
import PushboxRendering
import Testing

@testable import PushboxDevice

/// The simulated device's registration: which tokens APNs and FCM answer as no longer valid.
@Suite("The device's registration: uninstalled apps and unregistered tokens")
struct DeviceRegistrationTests {
    static let payload = Array(#"{"aps":{"alert":{"title":"Hi","body":"there"}}}"#.utf8)

    static func report(_ bytes: [UInt8], token: String?, source: PayloadSource = .socket) -> ValidationReport {
        Validator.validate(
            RawPayload(bytes: bytes, envelope: Envelope(source: source, deviceToken: token)), context: ValidationContext(deviceTopics: ["NewsApp"]))
    }

    @Test("an unregistered token is refused 410 with its time while the app stays installed; other tokens are the device's")
    func unregisteredToken() throws {
        let registration = DeviceRegistration(unregistered: ["aa": 1_733_040_000_123])
        let refusal = try #require(registration.refusal(of: Self.report(Self.payload, token: "aa"), deviceToken: "aa"))
        #expect(refusal.reason == .unregistered && refusal.status == 410 && refusal.timestamp == 1_733_040_000_123)
        #expect(registration.refusal(of: Self.report(Self.payload, token: "bb"), deviceToken: "bb") == nil)
        // A payload refused for itself keeps its own refusal: the device is not asked.
        #expect(registration.refusal(of: Self.report(Array("{}".utf8), token: "aa"), deviceToken: "aa") == nil)
    }

    @Test("uninstalled: every token is 410, FCM's token and fid messages 404 UNREGISTERED, topic messages are not judged")
    func uninstalled() throws {
        let registration = DeviceRegistration(uninstalledAt: 42)
        #expect(registration.refusal(of: Self.report(Self.payload, token: "cc"), deviceToken: "cc")?.timestamp == 42)
        let token = Array(#"{"message":{"token":"t1","notification":{"title":"x"}}}"#.utf8)
        #expect(registration.refusal(of: Self.report(token, token: nil, source: .fcm), deviceToken: nil)?.reason == .fcmUnregistered)
        #expect(APNsReason.fcmUnregistered.status == 404)
        let topic = Array(#"{"message":{"topic":"NewsApp","notification":{"title":"x"}}}"#.utf8)
        #expect(registration.refusal(of: Self.report(topic, token: nil, source: .fcm), deviceToken: nil) == nil)
    }

    @Test("the registration's file form reads back to the same registration")
    func json() {
        let registration = DeviceRegistration(uninstalledAt: 7, unregistered: ["a": 1, "b": 2])
        #expect(DeviceRegistration(json: registration.json) == registration)
        #expect(DeviceRegistration(json: .null) == DeviceRegistration())
    }

    @Test("a notification the device refused is rendered as discarded, token unregistered, with what it would have shown")
    func rendering() throws {
        var rejection = Rejection(.unregistered, "the app was uninstalled")
        rejection.timestamp = 1
        let raw = RawPayload(bytes: Self.payload, envelope: Envelope(source: .socket, deviceToken: "aa"))
        let note = Renderer(context: ValidationContext(), preferredLanguages: ["en"]).render(raw, validated: .refused(rejection))
        #expect(note.delivered == .rejected && note.reason == "Unregistered")
        #expect(note.trace.last?.step == .deliver && note.trace.last?.outcome == .discarded && note.trace.last?.cause == .tokenUnregistered)
        #expect(note.intended?.title == "Hi")
    }
}

/// FCM's judgement of a message's `token` and `fid`, in the two modes, and the device's topics.
@Suite("FCM tokens, installation ids and the device's topics")
struct FCMTokenModeTests {
    static func report(_ target: String, context: ValidationContext = ValidationContext(deviceTopics: ["NewsApp"])) -> ValidationReport {
        Validator.validate(
            RawPayload(bytes: Array((#"{"message":{"# + target + #","notification":{"title":"x"}}}"#).utf8), envelope: Envelope(source: .fcm)),
            context: context)
    }

    static let stale = "staleInstance01:APA91b" + String(repeating: "x", count: 40)

    @Test("any: every well-formed token is the device's; strict: only its own (and registered ones), others 404 UNREGISTERED")
    func modes() throws {
        var device = DeviceRegistration()
        #expect(device.refusal(of: Self.report(#""token":"\#(Self.stale)""#), deviceToken: nil, mode: .any) == nil)
        let strict = try #require(device.refusal(of: Self.report(#""token":"\#(Self.stale)""#), deviceToken: nil, mode: .strict))
        #expect(strict.reason == .fcmUnregistered && strict.status == 404)
        #expect(device.refusal(of: Self.report(#""token":"\#(DeviceIdentity.fcmToken)""#), deviceToken: nil, mode: .strict) == nil)
        #expect(device.refusal(of: Self.report(#""fid":"\#(DeviceIdentity.installationID)""#), deviceToken: nil, mode: .strict) == nil)
        device.registered[Self.stale] = 1
        #expect(device.refusal(of: Self.report(#""token":"\#(Self.stale)""#), deviceToken: nil, mode: .strict) == nil)
        // Unregistered wins in either mode.
        device.unregistered[DeviceIdentity.fcmToken] = 2
        #expect(
            device.refusal(of: Self.report(#""token":"\#(DeviceIdentity.fcmToken)""#), deviceToken: nil, mode: .any)?.reason == .fcmUnregistered)
    }

    @Test("an fid that cannot be an installation id is 404 UNREGISTERED in any mode; a well-formed one is accepted")
    func installationIDs() {
        for bad in ["cXd2Z...", "aPushboxDeviceFid00000", "cPushboxDeviceFid0000", "cPushboxDeviceFid00000x", "cPushbox/eviceFid00000"] {
            #expect(Self.report(#""fid":"\#(bad)""#).rejection?.reason == .fcmUnregistered, "\(bad)")
        }
        #expect(FCMRules.isInstallationIDForm("f-_09AZaz000000000000x"))
        #expect(Self.report(#""fid":"dAbcdefghijklmnopqrstu""#).ok)
    }

    @Test("the report says to whom a message was addressed and whether it is the device's own")
    func addressee() {
        #expect(Self.report(#""token":"\#(DeviceIdentity.fcmToken)""#).addressee?.hasSuffix("(this device's own)") == true)
        #expect(Self.report(#""token":"\#(Self.stale)""#).addressee?.hasSuffix("(not this device's own)") == true)
        #expect(Self.report(#""topic":"NewsApp""#).addressee == "topic NewsApp")
    }

    @Test("subscribing adds a topic, unsubscribing removes one of the device's own; who and when are kept, and survive the file")
    func topics() {
        let base: Set<String> = ["NewsApp", "LangEnUS"]
        var device = DeviceRegistration()
        device.subscribe("LangKoKR", base: base, at: 5, by: "api")
        device.subscribe("NewsApp", base: base, at: 6, by: "api")  // already its own: nothing to keep
        #expect(device.topics(base: base) == ["NewsApp", "LangEnUS", "LangKoKR"])
        let was = device.unsubscribe("NewsApp", base: base, at: 7, by: "app")
        let wasNot = device.unsubscribe("Sport", base: base, at: 8, by: "api")
        #expect(was && !wasNot)
        #expect(device.topics(base: base) == ["LangEnUS", "LangKoKR"])
        #expect(device.subscribed["LangKoKR"] == .init(at: 5, by: "api") && device.unsubscribed["NewsApp"] == .init(at: 7, by: "app"))
        device.registered["t"] = 9
        #expect(DeviceRegistration(json: device.json) == device)
        let sources = DeviceTopics.sources(preferredLanguages: ["en-US"], profileTopics: ["NewsApp"], registration: device)
        #expect(sources.map { "\($0.topic) \($0.by)" } == ["LangEnUS language", "LangKoKR api"])
    }

    @Test("a targeting kept with the row stands when the message is validated again against other topics")
    func targetingRecord() throws {
        let subscribed = Self.report(#""condition":"'LangKoKR' in topics""#, context: ValidationContext(deviceTopics: ["LangKoKR"]))
        let record = try #require(TargetingRecord(subscribed))
        #expect(record.targeted && TargetingRecord(json: record.json) == record)
        let later = Self.report(#""condition":"'LangKoKR' in topics""#, context: ValidationContext(deviceTopics: ["LangEnUS"]))
        #expect(later.targeting != .device)
        #expect(record.applied(to: later).targeting == .device)
        #expect(TargetingRecord(Self.report(#""token":"""#)) == nil)
    }
}

@Suite("Device changes")
struct DeviceChangeTests {
    @Test("each change does what pushbox device ACTION says, and undoes what its opposite did")
    func changes() {
        var r = DeviceRegistration()
        DeviceChange.offline.apply(to: &r, baseTopics: [], at: 5)
        DeviceChange.offline.apply(to: &r, baseTopics: [], at: 9)
        #expect(r.offlineSince == 5)
        DeviceChange.uninstall.apply(to: &r, baseTopics: [], at: 6)
        #expect(!r.installed && r.unregisteredAt("any") == 6)
        DeviceChange.install.apply(to: &r, baseTopics: [], at: 7)
        #expect(r.installed)
        DeviceChange.register("other:token").apply(to: &r, baseTopics: [], at: 8)
        #expect(r.isOwn("other:token"))
        DeviceChange.unregister("other:token").apply(to: &r, baseTopics: [], at: 9)
        #expect(!r.isOwn("other:token") && r.unregisteredAt("other:token") == 9)
        DeviceChange.unsubscribe("LangEnUS").apply(to: &r, baseTopics: ["LangEnUS"], at: 10)
        DeviceChange.subscribe("sports").apply(to: &r, baseTopics: ["LangEnUS"], at: 10)
        #expect(r.topics(base: ["LangEnUS"]) == ["sports"])
    }
}
