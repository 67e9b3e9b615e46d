import PushboxDevice
import PushboxJSON
import Testing

@testable import PushboxPayload

@Suite("FCM HTTP v1 messages")
struct FCMTests {
    let device = ValidationContext(deviceTopics: DeviceTopics.topics(preferredLanguages: ["en-US"], profileTopics: ["NewsApp"]))

    @Test("a wrapped message maps to the APNs payload an iPhone receives")
    func mapping() throws {
        let text =
            #"{"message":{"topic":"NewsApp","notification":{"title":"T","body":"B","image":"https://x/i.png"},"data":{"id":"7"},"apns":{"headers":{"apns-priority":"5","apns-collapse-id":"c1"},"payload":{"aps":{"sound":"default","mutable-content":1}}},"android":{"priority":"high"}}}"#
        let report = validate(text, context: device)
        let v = try #require(report.validated)
        #expect(v.form == .fcm(wrapped: true))
        #expect(v.aps["alert"] == .object(JSONObject([("title", "T"), ("body", "B")])))
        #expect(v.aps["sound"] == "default")
        #expect(v.payload["id"] == "7")
        #expect(v.payload.value(atPath: "fcm_options.image") == "https://x/i.png")
        #expect(v.headers["apns-priority"] == "5")
        #expect(v.headers["apns-collapse-id"] == "c1")
        #expect(v.fcm?.android?["priority"] == "high")
        #expect(report.targeting == .device)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test("the APNs block's own alert fields win over notification's")
    func apnsOverrides() throws {
        let text =
            #"{"token":"t1","notification":{"title":"generic","body":"generic body"},"apns":{"payload":{"aps":{"alert":{"title":"iOS title"}}}}}"#
        let v = try #require(validate(text).validated)
        #expect(v.form == .fcm(wrapped: false))
        #expect(v.aps.value(atPath: "alert.title") == "iOS title")
        #expect(v.aps.value(atPath: "alert.body") == "generic body")
    }

    @Test(
        "FCM's own refusals are INVALID_ARGUMENT with the field's path",
        arguments: [
            (#"{"message":{"notification":{"title":"t"}}}"#, "no target"),
            (#"{"message":{"topic":"a","token":"b","notification":{"title":"t"}}}"#, "2 targets"),
            (#"{"message":{"topic":"bad topic!","notification":{"title":"t"}}}"#, "not a valid topic name"),
            (#"{"message":{"condition":"'A' in topics &&","notification":{"title":"t"}}}"#, "message.condition column"),
            (#"{"message":{"topic":"a","data":{"n":1}}}"#, "message.data.n must be a string"),
            (#"{"message":{"topic":"a","notification":"hi"}}"#, "message.notification must be an object"),
            (#"{"message":{"topic":"a","apns":{"headers":{"apns-priority":10}}}}"#, "message.apns.headers.apns-priority must be a string"),
        ])
    func refusals(text: String, detail: String) {
        let report = validate(text, context: device)
        #expect(report.rejection?.reason == .invalidArgument)
        #expect(report.rejection?.detail.contains(detail) == true, "\(report.rejection?.detail ?? "accepted")")
    }

    @Test("headers from apns.headers are checked as APNs checks them")
    func headerChecks() {
        let text = #"{"message":{"topic":"a","notification":{"title":"t"},"apns":{"headers":{"apns-priority":"7"}}}}"#
        #expect(validate(text).rejection?.reason == .badPriority)
    }

    @Test("a condition or topic the device does not match is valid but not for this device")
    func targeting() {
        let fr = #"{"message":{"condition":"'NewsApp' in topics && 'LangFrFR' in topics","notification":{"title":"t"}}}"#
        let report = validate(fr, context: device)
        #expect(report.ok)
        guard case .notTargeted(let why) = report.targeting else {
            Issue.record("targeted")
            return
        }
        #expect(why.contains("LangEnUS"))
        let other = #"{"message":{"topic":"Sports","notification":{"title":"t"}}}"#
        #expect(validate(other, context: device).targeting != .device)
        // Without a described device, targeting is not judged.
        #expect(validate(fr).targeting == .device)
    }

    @Test("an image without mutable-content warns that it will not show")
    func imageWarning() {
        let text = #"{"message":{"token":"t","notification":{"title":"t","image":"https://x/i.png"}}}"#
        #expect(validate(text).warnings.map(\.code).contains(.fcmImageWithoutExtension))
    }

    @Test("a data-only message is accepted with a warning that iOS shows nothing")
    func dataOnly() {
        let report = validate(#"{"message":{"token":"t","data":{"k":"v"}}}"#)
        #expect(report.ok)
        #expect(report.warnings.map(\.code).contains(.fcmDataOnly))
    }

    @Test("the APNs payload FCM builds is held to APNs' size limit, not just the message")
    func mappedSize() {
        // U+2028 is 3 bytes as sent and 6 once re-encoded (\u2028), as FCM's encoders write it.
        let text = #"{"message":{"token":"t","notification":{"body":""# + String(repeating: "\u{2028}", count: 1300) + #""}}}"#
        #expect(text.utf8.count <= 4096)
        let report = validate(text)
        // FCM answers INVALID_ARGUMENT (400), and that is what is stored, not APNs' 413.
        #expect(report.rejection?.reason == .invalidArgument)
        #expect(report.status == 400)
    }
}
