import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxRendering
import Testing

@testable import PushboxPayload

/// One FCM message as the FCM Android SDK builds it from the app's strings.xml: each rule of
/// `NotificationParams` and `CommonNotificationBuilder`, each with its typed finding.
@Suite("FCM messages on Android")
struct AndroidRendererTests {
    /// An app with these folders → strings.xml texts.
    final class App {
        let res = FileManager.default.temporaryDirectory.appendingPathComponent("pbandroid-\(UUID().uuidString.prefix(8))").path
        init(_ folders: [String: String]) throws {
            for (folder, body) in folders {
                try FileManager.default.createDirectory(atPath: res + "/" + folder, withIntermediateDirectories: true)
                try Data("<resources>\(body)</resources>".utf8).write(to: URL(fileURLWithPath: res + "/" + folder + "/strings.xml"))
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: res) }
    }

    static let strings = [
        "values": #"""
        <string name="invite_title">Game invite</string>
        <string name="invite_body">%1$s and %2$s invited you</string>
        <string name="score">%1$s leads by %2$d</string>
        <plurals name="unread"><item quantity="one">%d message</item><item quantity="other">%d messages</item></plurals>
        """#,
        "values-ko": #"""
        <string name="invite_title">게임 초대</string>
        <string name="invite_body">%1$s 님과 %2$s 님이 초대했습니다</string>
        <string name="korean_only">한국어만</string>
        """#,
    ]

    var profile: AndroidProfile {
        var p = AndroidProfile()
        p.channels = [
            AndroidProfile.Channel(id: "invites", name: "Game invites", importance: "high"),
            AndroidProfile.Channel(id: "news", name: "News", importance: "default"),
        ]
        p.defaultChannel = "news"
        p.defaultColor = "#3366FF"
        return p
    }

    func render(_ message: String, languages: [String] = ["en-US"], profile: AndroidProfile? = nil, app: App? = nil) throws -> AndroidRendering {
        let app = try app ?? App(Self.strings)
        let m = try FCMMessage(try #require(try JSONParser.parse(Array(message.utf8)).objectValue))
        let r = AndroidRenderer(resources: AndroidResources(res: app.res), profile: profile ?? self.profile, appName: "Sample")
        return r.render(m, preferred: languages)
    }

    func codes(_ r: AndroidRendering) -> [Diagnostic.Code] { r.warnings.map(\.code) }

    @Test("a literal beats the loc key; the loc key's string is formatted with the loc args, from the device's folder")
    func literalThenKey() throws {
        let r = try render(
            #"{"notification":{"title":"Literal"},"android":{"notification":{"title_loc_key":"invite_title","body_loc_key":"invite_body","body_loc_args":["Ana","Bo"]}}}"#,
            languages: ["ko-KR"])
        #expect(r.title == "Literal")
        #expect(r.body == "Ana 님과 Bo 님이 초대했습니다")
        #expect(r.language == "values-ko")
        #expect(r.delivered == .shown)
    }

    @Test("a missing resource shows no title; a plurals name is unreachable; a string only in values-ko is removed by the build")
    func missing() throws {
        let missing = try render(#"{"android":{"notification":{"title_loc_key":"nope","body":"b"}}}"#)
        #expect(missing.title == nil)
        #expect(codes(missing) == [.androidMissingResource])
        let plurals = try render(#"{"android":{"notification":{"title_loc_key":"unread","body":"b"}}}"#)
        #expect(plurals.title == nil && codes(plurals) == [.androidUnreachableResource])
        let korean = try render(#"{"android":{"notification":{"title_loc_key":"korean_only","body":"b"}}}"#, languages: ["ko-KR"])
        #expect(korean.title == nil && codes(korean) == [.androidNoDefault])
    }

    @Test("a %d cannot take a string loc arg: the app throws, nothing is shown; too few args: the SDK catches it and sets no text")
    func formats() throws {
        let thrown = try render(#"{"android":{"notification":{"title":"t","body_loc_key":"score","body_loc_args":["Ana","3"]}}}"#)
        #expect(thrown.delivered == .rejected)
        #expect(thrown.reason == "IllegalFormatConversionException")
        #expect(thrown.warnings.first?.code == .androidFormatException && thrown.warnings.first?.severity == .error)
        let few = try render(#"{"android":{"notification":{"title":"t","body_loc_key":"invite_body","body_loc_args":["Ana"]}}}"#)
        #expect(few.delivered == .shown && few.body == nil && codes(few) == [.androidMissingArgument])
    }

    @Test("channel: the message's when the app creates it, else the default, else FCM's fallback; colour and icon fall back likewise")
    func fallbacks() throws {
        let own = try render(##"{"android":{"notification":{"title":"t","channel_id":"invites","color":"#112233","icon":"ic_stat"}}}"##)
        #expect((own.channel.id, own.channelSource, own.color, own.icon, own.iconSource) == ("invites", .message, "#112233", "ic_stat", .message))
        let unknown = try render(#"{"android":{"notification":{"title":"t","channel_id":"gone","color":"red"}}}"#)
        #expect((unknown.channel.id, unknown.channelSource, unknown.color) == ("news", .appDefault, "#3366FF"))
        #expect(codes(unknown) == [.androidUnknownChannel])
        let bare = try render(#"{"notification":{"title":"t"}}"#, profile: AndroidProfile())
        #expect(
            (bare.channel.id, bare.channelSource, bare.icon, bare.iconSource) == (
                "fcm_fallback_notification_channel", .fallback, "launcher icon", .fallback
            ))
    }

    @Test("foreground: onMessageReceived, nothing shown; a data message is never shown")
    func notShown() throws {
        var foreground = profile
        foreground.foreground = true
        let f = try render(#"{"notification":{"title":"t"}}"#, profile: foreground)
        #expect(f.delivered == .app && f.reason == "foreground")
        let d = try render(#"{"data":{"k":"v"}}"#)
        #expect(d.delivered == .app && d.reason == "data-message")
        #expect(d.extras.map(\.key) == ["k"])
    }

    @Test("tag, count, sticky, visibility, event time, click action and the data extras (android.data over data)")
    func fields() throws {
        let r = try render(
            #"{"data":{"a":"top"},"android":{"data":{"b":"android"},"notification":{"title":"t","tag":"g1","notification_count":3,"sticky":true,"visibility":"SECRET","event_time":"2026-12-01T10:00:00Z","click_action":"OPEN"}}}"#
        )
        #expect(
            (r.tag, r.notificationCount, r.sticky, r.visibility, r.eventTime, r.clickAction) == (
                "g1", 3, true, "secret", "2026-12-01T10:00:00Z", "OPEN"
            ))
        #expect(r.extras.map(\.key) == ["b"])
        #expect(codes(r) == [.androidLockScreen])
    }

    @Test("divergence from the iPhone: the literal Android title against the iPhone's localized one is a finding on the Android side")
    func divergence() throws {
        let app = try App(Self.strings)
        let text =
            #"{"android":{"notification":{"title":"Game invite","body":"b"}},"apns":{"payload":{"aps":{"alert":{"title-loc-key":"T","body":"b"}}}}}"#
        let m = try FCMMessage(try #require(try JSONParser.parse(Array(text.utf8)).objectValue))
        var ios = RenderedNotification(delivered: .original)
        ios.title = "게임 초대"
        ios.body = "b"
        let r = AndroidRenderer(resources: AndroidResources(res: app.res), profile: profile, appName: "Sample").render(
            m, preferred: ["ko-KR"], ios: ios)
        #expect(r.warnings.map(\.code) == [.platformDivergence])
        #expect(r.warnings.first?.field == "title")
    }

    @Test("the image: shown when the download gives one of 1 MiB at most; over it, or failing, the notification shows without it")
    func image() throws {
        let app = try App(Self.strings)
        let text = #"{"notification":{"title":"t","image":"https://example.com/a.png"}}"#
        let m = try FCMMessage(try #require(try JSONParser.parse(Array(text.utf8)).objectValue))
        let r = AndroidRenderer(resources: AndroidResources(res: app.res), profile: profile, appName: "Sample")
        func attachment(_ bytes: Int) -> RenderedAttachment {
            RenderedAttachment(path: "/cache/a.png", type: "image/png", bytes: bytes, width: 10, height: 10, source: "https://example.com/a.png")
        }
        let small = r.render(m, preferred: ["en"], fetchImage: { _ in .success(attachment(1000)) })
        #expect(small.imageAttachment?.bytes == 1000 && small.warnings.isEmpty)
        let big = r.render(m, preferred: ["en"], fetchImage: { _ in .success(attachment(AndroidRenderer.imageLimitBytes + 1)) })
        #expect(big.imageAttachment == nil && big.warnings.map(\.code) == [.androidImage] && big.delivered == .shown)
        let failed = r.render(m, preferred: ["en"], fetchImage: { _ in .failure(.refused("timed out")) })
        #expect(failed.imageAttachment == nil && failed.warnings.map(\.code) == [.androidImage])
        // Larger than the iPhone's 10 MB cap, the download stops there: the Android card names Android's rule.
        let stopped = r.render(m, preferred: ["en"], fetchImage: { _ in .failure(.download(.tooLarge(limit: 10_000_000, received: 10_000_001))) })
        let refused = r.render(m, preferred: ["en"], fetchImage: { _ in .failure(.tooLarge("over the cap")) })
        for huge in [stopped, refused] {
            let message = huge.warnings.first?.message ?? ""
            #expect(message.contains("Android's 1 MiB") && !message.contains("10000000") && !message.contains("cap"), "\(message)")
        }
    }

    @Test("the rendering reads back from its JSON unchanged (the store keeps it with the iPhone's)")
    func roundTrip() throws {
        let r = try render(#"{"android":{"notification":{"title":"t","body_loc_key":"invite_body","body_loc_args":["A","B"],"tag":"x"}}}"#)
        #expect(AndroidRendering(json: r.json) == r)
    }
}
