import PushboxJSON
import Testing

@testable import PushboxPayload

@Suite("Validation answers as APNs does")
struct ValidatorReasonTests {
    static let alert = #"{"aps":{"alert":"hi"}}"#

    @Test(
        "each header and token problem gets its APNs reason",
        arguments: [
            ([("apns-collapse-id", String(repeating: "c", count: 65))], nil, "BadCollapseId"),
            ([("apns-priority", "7")], nil, "BadPriority"),
            ([("apns-priority", "high")], nil, "BadPriority"),
            ([("apns-push-type", "banner")], nil, "InvalidPushType"),
            ([("apns-expiration", "tomorrow")], nil, "BadExpirationDate"),
            ([("apns-expiration", "-5")], nil, "BadExpirationDate"),
            ([("apns-id", "1234")], nil, "BadMessageId"),
            ([("apns-id", "123e4567e89b12d3a45642665544000000")], nil, "BadMessageId"),
            ([("apns-priority", "10"), ("APNS-PRIORITY", "5")], nil, "DuplicateHeaders"),
            ([], "zz11", "BadDeviceToken"),
            ([], "abc", "BadDeviceToken"),
            ([], "", "BadDeviceToken"),
        ] as [([(String, String)], String?, String)])
    func headerReasons(headers: [(String, String)], token: String?, reason: String) {
        let report = validate(Self.alert, headers: headers, token: token)
        #expect(report.rejection?.reason.rawValue == reason)
        #expect(report.rejection?.status == 400)
    }

    @Test("well-formed headers pass")
    func goodHeaders() {
        let report = validate(
            Self.alert,
            headers: [
                ("apns-push-type", "alert"), ("apns-id", "123E4567-e89b-12d3-a456-426655440000"),
                ("apns-expiration", "0"), ("apns-priority", "5"), ("apns-collapse-id", String(repeating: "c", count: 64)),
            ], token: "00ff" + String(repeating: "ab", count: 30))
        #expect(report.ok)
        #expect(report.status == 200)
    }

    @Test("an empty body is PayloadEmpty", arguments: ["", "   \n\t"])
    func empty(text: String) {
        #expect(validate(text).rejection?.reason == .payloadEmpty)
    }

    @Test("4096 bytes pass and 4097 are PayloadTooLarge (413)")
    func sizeLimit() {
        let fits = payload(ofSize: 4096)
        #expect(fits.utf8.count == 4096)
        #expect(validate(fits).ok)
        let over = payload(ofSize: 4097)
        #expect(over.utf8.count == 4097)
        let report = validate(over)
        #expect(report.rejection?.reason == .payloadTooLarge)
        #expect(report.rejection?.status == 413)
    }

    @Test("multi-byte text counts in UTF-8 bytes, not characters")
    func multibyteSize() {
        let korean = payload(ofSize: 4098, filler: "가")
        #expect(korean.count < 4096)
        #expect(korean.utf8.count > 4096)
        #expect(validate(korean).rejection?.reason == .payloadTooLarge)
    }

    @Test("voip pushes may be 5120 bytes, not one more")
    func voipLimit() {
        let headers = [("apns-push-type", "voip")]
        #expect(validate(payload(ofSize: 5120), headers: headers).ok)
        #expect(validate(payload(ofSize: 5121), headers: headers).rejection?.reason == .payloadTooLarge)
    }

    @Test(
        "bodies that cannot be read are refused with PayloadEmpty and say which",
        arguments: [
            (#"{"aps":{"alert":"x"},}"#, Rejection.EmptyCause.notJSON),
            (#"{"aps":"#, .notJSON),
            (#"[{"aps":{}}]"#, .notAnObject),
            (#""just a string""#, .notAnObject),
            (#"42"#, .notAnObject),
            (#"{"alert":"no aps"}"#, .noAps),
            (#"{"requests":[]}"#, .noAps),
            (#"{"aps":"alert"}"#, .apsNotADictionary),
            (String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000), .tooDeep),
        ])
    func unreadable(text: String, cause: Rejection.EmptyCause) {
        let report = validate(text)
        #expect(report.rejection?.reason == .payloadEmpty)
        #expect(report.rejection?.cause == cause, "\(report.rejection?.detail ?? "accepted")")
    }

    @Test("a schedule file sent as a push is told where it belongs")
    func scheduleSentAsPush() {
        #expect(validate(#"{"requests":[]}"#).rejection?.detail.contains("pushbox schedule FILE") == true)
    }

    @Test("10,000 levels of nesting get a clear answer: too large for APNs, and too deep within any limit")
    func tenThousandLevels() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(validate(deep).rejection?.reason == .payloadTooLarge)
        let object = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(validate(object).rejection?.status == 413)
        // Past the size check (as a replayed store might be), the depth limit still answers.
        let report = Validator.readDocument(Array(deep.utf8), limit: .max, maxDepth: JSONParser.defaultMaxDepth)
        guard case .failure(let r) = report else {
            Issue.record("accepted")
            return
        }
        #expect(r.reason == .payloadEmpty && r.cause == .tooDeep)
    }

    @Test("invalid UTF-8 and NUL bytes are refused with a clear reason")
    func bytes() {
        for (bytes, detail) in [
            ([0x7B, 0x22, 0x61, 0x70, 0x73, 0x22, 0x3A, 0xFF, 0x7D] as [UInt8], "not valid UTF-8"),
            (Array(#"{"aps":{"alert":"a"#.utf8) + [0] + Array(#""}}"#.utf8), "NUL byte"),
        ] {
            let report = Validator.validate(RawPayload(bytes: bytes, envelope: Envelope(source: .socket)))
            #expect(report.rejection?.reason == .payloadEmpty)
            #expect(report.rejection?.detail.contains(detail) == true)
        }
    }

    @Test("topic rules apply only with a bundle id")
    func topics() {
        let app = ValidationContext(bundleID: "dev.pushbox.sample")
        // No bundle id: any topic passes.
        #expect(validate(Self.alert, headers: [("apns-topic", "com.other")]).ok)
        // Through the HTTP API, token auth needs a topic.
        #expect(validate(Self.alert, source: .socket, context: app).rejection?.reason == .missingTopic)
        // A file targets the profile's app, as the Simulator does.
        #expect(validate(Self.alert, context: app).ok)
        #expect(validate(Self.alert, headers: [("apns-topic", "dev.pushbox.sample")], source: .socket, context: app).ok)
        #expect(validate(Self.alert, headers: [("apns-topic", "com.other.app")], context: app).rejection?.reason == .deviceTokenNotForTopic)
        #expect(validate(Self.alert, headers: [("apns-topic", "dev.pushbox.sample.voip")], context: app).rejection?.reason == .badTopic)
        #expect(validate(Self.alert, headers: [("apns-topic", "bad topic")], context: app).rejection?.reason == .badTopic)
        #expect(validate(Self.alert, headers: [("apns-topic", "dev.pushbox.sample.voip"), ("apns-push-type", "voip")], context: app).ok)
        #expect(
            validate(
                Self.alert, headers: [("apns-topic", "dev.pushbox.sample.push-type.liveactivity"), ("apns-push-type", "liveactivity")], context: app
            ).ok)
    }

    @Test("a Simulator file is read as its payload and its target bundle is the app")
    func simulatorFile() throws {
        let text = #"{"Simulator Target Bundle":"dev.pushbox.sample","aps":{"alert":"hi"}}"#
        let report = validate(text)
        let v = try #require(report.validated)
        #expect(v.form == .simulator(targetBundle: "dev.pushbox.sample"))
        #expect(v.payload.keys == ["aps"])
        #expect(validate(text, context: ValidationContext(bundleID: "com.other")).rejection?.reason == .deviceTokenNotForTopic)
        #expect(validate(text, context: ValidationContext(bundleID: "dev.pushbox.sample")).ok)
    }
}
