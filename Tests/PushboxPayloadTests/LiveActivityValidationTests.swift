import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxRendering
import PushboxTestSupport
import Testing

@testable import PushboxPayload

/// What APNs and FCM check of a Live Activity push on arrival, and what they accept that the
/// device will drop (warnings with their codes), and how it is rendered.
@Suite("Live Activity pushes on arrival")
struct LiveActivityValidationTests {
    static let context = ValidationContext(bundleID: "dev.pushbox.sample")

    static func report(_ body: String, headers: [(String, String)], source: PayloadSource = .socket) -> ValidationReport {
        var h = PushHeaders()
        for (n, v) in headers { h.add(n, v) }
        let raw = RawPayload(bytes: Array(body.utf8), envelope: Envelope(source: source, headers: h, deviceToken: String(repeating: "ab", count: 32)))
        return Validator.validate(raw, context: context)
    }

    static let live = [("apns-push-type", "liveactivity"), ("apns-topic", "dev.pushbox.sample.push-type.liveactivity")]

    @Test("the topic must be <bundle>.push-type.liveactivity: the app's own topic is DeviceTokenNotForTopic")
    func topic() {
        let body = #"{"aps": {"event": "update", "timestamp": 1, "content-state": {}}}"#
        #expect(Self.report(body, headers: Self.live).ok)
        let plain = Self.report(body, headers: [("apns-push-type", "liveactivity"), ("apns-topic", "dev.pushbox.sample")])
        #expect(plain.rejection?.reason == .deviceTokenNotForTopic)
        #expect(Self.report(body, headers: [("apns-push-type", "liveactivity")]).rejection?.reason == .missingTopic)
    }

    @Test("accepted, but the device will drop or ignore it: each warning with its code")
    func warnings() {
        func codes(_ aps: String, headers: [(String, String)] = Self.live) -> [String] {
            Self.report(#"{"aps": \#(aps)}"#, headers: headers).warnings.map(\.code.rawValue).filter { $0.hasPrefix("live-activity") }
        }
        #expect(codes(#"{"timestamp": 1, "content-state": {}}"#) == ["live-activity-event"])
        #expect(codes(#"{"event": "stop", "timestamp": 1, "content-state": {}}"#) == ["live-activity-event"])
        #expect(codes(#"{"event": "update", "content-state": {}}"#) == ["live-activity-timestamp"])
        #expect(codes(#"{"event": "update", "timestamp": 1796119200000, "content-state": {}}"#) == ["live-activity-milliseconds"])
        #expect(codes(#"{"event": "update", "timestamp": 1}"#) == ["live-activity-missing-field"])
        #expect(codes(#"{"event": "start", "timestamp": 1, "content-state": {}}"#) == ["live-activity-missing-field", "live-activity-missing-field"])
        #expect(codes(#"{"event": "update", "timestamp": 1, "content-state": {}, "attributes": {}}"#) == ["live-activity-ignored-key"])
        #expect(codes(#"{"event": "update", "timestamp": 1, "content-state": {}, "sound": "default"}"#) == ["live-activity-ignored-key"])
        #expect(codes(#"{"event": "update", "timestamp": 1, "content-state": {}, "dismissal-date": 5}"#) == ["live-activity-ignored-key"])
        #expect(codes(#"{"event": "end", "content-state": {}, "alert": {"title": {"loc-key": "K"}, "sound": "a.caf"}}"#) == [])
        // A Live Activity's relevance score is any number; a notification's is 0–1.
        let score = #"{"aps": {"event": "update", "timestamp": 1, "content-state": {}, "relevance-score": 75}}"#
        #expect(!Self.report(score, headers: Self.live).warnings.contains { $0.code == .relevanceScore })
        let alert = #"{"aps": {"alert": "hi", "relevance-score": 75}}"#
        #expect(Self.report(alert, headers: [("apns-topic", "dev.pushbox.sample")]).warnings.contains { $0.code == .relevanceScore })
        #expect(
            codes(
                #"{"event": "update", "timestamp": 1, "content-state": {}}"#,
                headers: [("apns-push-type", "alert"), ("apns-topic", "dev.pushbox.sample")])
                == ["live-activity-keys-without-type"])
    }

    @Test("FCM's apns.live_activity_token makes the APNs push a liveactivity to the app's liveactivity topic")
    func fcmLiveActivityToken() throws {
        let body =
            #"{"message": {"token": "t", "apns": {"live_activity_token": "ac71", "payload": {"aps": {"event": "update", "timestamp": 1, "content-state": {"a": 1}}}}}}"#
        let report = Self.report(body, headers: [], source: .fcm)
        let validated = try #require(report.validated)
        #expect(validated.pushType == .liveactivity)
        #expect(validated.headers[PushHeaders.topic] == "dev.pushbox.sample.push-type.liveactivity")
        #expect(validated.fcm?.liveActivityToken == "ac71")
    }

    @Test("rendered: an applied push lights its alert (loc-keys localized, the sound inside the alert); a dropped one lights nothing")
    func rendering() throws {
        let localizer = Localizer(app: AppLocalizations(directory: ProjectPaths.samples + "/SampleApp"))
        let renderer = Renderer(context: Self.context, preferredLanguages: ["en"], localizer: localizer)
        let body =
            #"{"aps": {"event": "update", "timestamp": 1, "content-state": {}, "alert": {"title": {"loc-key": "GAME_PLAY_REQUEST_TITLE"}, "body": {"loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Shelly", "Rick"]}, "sound": "chime.aiff"}}}"#
        var report = Self.report(body, headers: Self.live)
        report.liveActivity = LiveActivityOutcome(event: "update", applied: true, detail: "updated")
        let shown = renderer.render(
            RawPayload(bytes: Array(body.utf8), envelope: Envelope(source: .socket, headers: report.validated!.headers)), validated: report)
        #expect(shown.body == "Shelly and Rick have invited you to play Monopoly")
        #expect(shown.title == "Game invite")
        #expect(shown.sound == "chime.aiff")
        #expect(shown.trace.contains { $0.step == .liveActivity && $0.outcome == .applied })
        report.liveActivity = LiveActivityOutcome(event: "update", applied: false, drop: .notNewer, detail: "older")
        let dropped = renderer.render(
            RawPayload(bytes: Array(body.utf8), envelope: Envelope(source: .socket, headers: report.validated!.headers)), validated: report)
        #expect(dropped.title == nil && dropped.body == nil && dropped.delivered == .discarded && dropped.reason == "not-newer")
        #expect(dropped.intended?.body == "Shelly and Rick have invited you to play Monopoly")
        #expect(dropped.trace.contains { $0.step == .liveActivity && $0.outcome == .dropped && $0.cause?.rawValue == "not-newer" })
    }
}
