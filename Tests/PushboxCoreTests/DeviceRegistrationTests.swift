import PushboxCore
import PushboxText
import Testing

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
