import PushboxDevice
import PushboxJSON
import Testing

@testable import PushboxPayload

/// FCM reads its messages as proto3 JSON: each rule of the mapping (protobuf.dev, "ProtoJSON
/// Format") as one case, and apprise's message (`"token": null` beside `"topic"`), which FCM
/// delivers and pushbox refused.
@Suite("FCM messages as proto3 JSON")
struct FCMProto3JSONTests {
    func message(_ text: String) throws -> FCMMessage {
        try FCMMessage(try #require(try JSONParser.parse(Array(text.utf8)).objectValue))
    }

    @Test(
        "each rule of the mapping, as FCM reads it",
        arguments: [
            // null is "not set", for any field.
            (#"{"token":null,"topic":"news"}"#, "targets", "topic news"),
            (#"{"topic":"news","notification":null}"#, "title", "none"),
            (#"{"topic":"news","notification":{"title":null,"body":"B"}}"#, "title", "none"),
            // lowerCamelCase or the proto's own name.
            (#"{"topic":"news","apns":{"fcmOptions":{"image":"https://x/i.png"}}}"#, "apnsImage", "https://x/i.png"),
            (#"{"topic":"news","apns":{"liveActivityToken":"abc"}}"#, "liveActivityToken", "abc"),
            (#"{"topic":"news","android":{"collapseKey":"score"}}"#, "android.collapse_key", "score"),
            (#"{"topic":"news","android":{"notification":{"bodyLocKey":"k","channelId":"c"}}}"#, "android.notification.body_loc_key", "k"),
            // Enums by name or by number.
            (#"{"topic":"news","android":{"priority":1}}"#, "android.priority", "HIGH"),
            (#"{"topic":"news","android":{"notification":{"visibility":3}}}"#, "android.notification.visibility", "SECRET"),
            (
                #"{"topic":"news","android":{"notification":{"notificationPriority":"PRIORITY_MAX"}}}"#, "android.notification.notification_priority",
                "PRIORITY_MAX"
            ),
            // An int32 as a number or a string.
            (#"{"topic":"news","android":{"notification":{"notificationCount":"3"}}}"#, "android.notification.notification_count", "3"),
            // A Duration is a string of seconds.
            (#"{"topic":"news","android":{"ttl":"3.5s"}}"#, "android.ttl", "3.5s"),
        ])
    func rule(text: String, field: String, expected: String) throws {
        let m = try message(text)
        let read: String
        switch field {
        case "targets": read = m.targets.map { if case .topic(let t) = $0 { "topic \(t)" } else { "\($0)" } }.joined(separator: ",")
        case "title": read = m.notificationTitle ?? "none"
        case "apnsImage": read = m.apnsImage ?? "none"
        case "liveActivityToken": read = m.liveActivityToken ?? "none"
        default:
            let value = m.android?.value(atPath: String(field.dropFirst("android.".count)))
            read = value.map { $0.stringValue ?? JSONWriter.compact($0) } ?? "none"
        }
        #expect(read == expected, "\(text)")
    }

    @Test("values FCM passes on as they are keep their nulls: data, apns.headers, apns.payload")
    func passedOnAsTheyAre() throws {
        let m = try message(#"{"topic":"news","apns":{"payload":{"aps":{"alert":"hi"},"extra":null,"camelKey":1}}}"#)
        #expect(m.apnsPayload?["extra"] == .null)
        #expect(m.apnsPayload?["camelKey"] == .number("1"))
    }

    @Test("apprise's FCM message (token null, a topic) is delivered to a device subscribed to the topic, as FCM delivers it")
    func apprise() throws {
        let context = ValidationContext(deviceTopics: DeviceTopics.topics(preferredLanguages: ["en-US"], profileTopics: ["news"]))
        let text =
            #"{"message":{"token":null,"topic":"news","notification":{"title":"Apprise","body":"Hello"},"data":null,"android":{"priority":"HIGH"},"apns":{"payload":{"aps":{"sound":"default"}}}}}"#
        let report = Validator.validate(RawPayload(bytes: Array(text.utf8), envelope: Envelope(source: .fcm)), context: context)
        #expect(report.ok, "\(String(describing: report.rejection))")
        #expect(report.targeting == .device)
        #expect(report.validated?.aps.value(atPath: "alert.title") == "Apprise")
    }
}
