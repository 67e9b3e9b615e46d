import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import Testing

@testable import PushboxUI

/// An FCM message's card on the Android phone beside the iPhone's: `P` switches, wide panes
/// show both side by side, the matrix has an Android row per locale.
@Suite("The Android card")
struct AndroidCardTests {
    /// The fixture inbox with notification 6 an FCM message, rendered for both phones in `language`.
    static func state(width: Int, height: Int, language: String = "ko", rtl: Bool = false) -> InboxState {
        var s = UIFixtures.state(width: width, height: height)
        var a = AndroidRendering(
            appName: "Pushbox Sample", delivered: .shown, channel: AndroidProfile.Channel(id: "invites", name: "Game invites", importance: "high"),
            channelSource: .message, icon: "ic_stat_pushbox", iconSource: .appDefault)
        a.title = "Game invite"
        a.body = rtl ? "دعاك Shelly وRick للعب مونوبولي" : "Shelly 님과 Rick 님이 모노폴리 게임에 초대했습니다"
        a.language = rtl ? "values-ar" : "values-ko"
        a.locale = rtl ? "ar-EG" : "ko-KR"
        a.color = "#E53935"
        a.tag = "game-12345678"
        a.clickAction = "dev.pushbox.sample.OPEN_GAME"
        a.warnings = [
            Diagnostic(
                .platformDivergence, "Android shows the literal title \"Game invite\" (a literal beats a loc key there); iOS shows the localized one",
                field: "title")
        ]
        s.renders[6]?.android = a
        if rtl {
            s.device = DeviceLanguages(languages: ["ar-EG"], choices: ["en", "ko", "ar"])
            s.renders[6]?.title = "دعوة إلى لعبة"
            s.renders[6]?.body = "دعاك Shelly وRick للعب مونوبولي"
            s.renders[6]?.language = "ar"
        }
        s.list.selected = 0
        return s
    }

    @Test("P switches to the Android card and back; on an APNs payload it is unavailable and says why")
    func switching() {
        var s = Self.state(width: 80, height: 24)
        _ = s.update(.key(.char("P")))
        _ = s.update(.key(.enter))  // a narrow screen opens the card over the list
        #expect(s.card.platform == .android)
        let lines = InboxView.screen(s).lines
        #expect(lines.contains { $0.contains("◉ Pushbox Sample") })
        #expect(lines.contains { $0.contains("channel invites (Game invites, high)") && $0.contains("values-ko") })
        // 80 columns leave no room for two cards: the next P is the iPhone again.
        _ = s.update(.key(.char("P")))
        #expect(s.card.platform == .iphone)
        var apns = Self.state(width: 80, height: 24)
        _ = apns.update(.key(.char("j")))
        _ = apns.update(.key(.char("P")))
        #expect(apns.card.platform == .iphone)
        #expect(apns.status == .unavailable(.notFCM))
    }

    @Test("a wide pane shows both phones side by side")
    func sideBySide() {
        var s = Self.state(width: 160, height: 40)
        _ = s.update(.key(.char("P")))
        _ = s.update(.key(.char("P")))
        #expect(s.card.platform == .both)
        let lines = InboxView.screen(s).lines
        #expect(lines.contains { $0.contains("iPhone") && $0.contains("Android") })
        #expect(lines.contains { $0.contains("게임 초대") && $0.contains("Game invite") })
    }

    @Test("the lock-screen preview hides a private notification's content, as a secure lock screen does")
    func lockScreen() {
        var s = Self.state(width: 80, height: 24)
        _ = s.update(.key(.char("P")))
        _ = s.update(.key(.enter))
        _ = s.update(.key(.char("p")))
        _ = s.update(.key(.char("p")))
        #expect(s.card.preview == .lockScreen)
        #expect(InboxView.screen(s).lines.contains { $0.contains("Contents hidden") })
    }

    @Test("the matrix has an Android row per locale, with the folder it read")
    func matrix() {
        var s = Self.state(width: 120, height: 40)
        s.overlay = .matrix
        s.matrix = [(language: "ko", note: s.renders[6]!)]
        let lines = InboxView.screen(s).lines
        #expect(lines.contains { $0.contains("ko iPhone") })
        #expect(lines.contains { $0.contains("ko Android") && $0.contains("(values-ko)") })
    }

    @Test("snapshots: the Android card at 80 and 120 columns, left to right and right to left")
    func snapshots() throws {
        for (width, height) in [(80, 24), (120, 40)] {
            for rtl in [false, true] {
                var s = Self.state(width: width, height: height, rtl: rtl)
                _ = s.update(.key(.char("P")))
                if width < 100 { _ = s.update(.key(.enter)) }
                try ViewSnapshotTests().check("android-\(rtl ? "ar" : "ko")-\(width)x\(height)", InboxView.screen(s))
            }
        }
    }
}
