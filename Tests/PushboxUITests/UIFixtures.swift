import Foundation
import PushboxJSON
import PushboxPayload

@testable import PushboxUI

/// A fixed inbox with text in Korean, Japanese, Arabic and emoji, for snapshots and scenarios.
enum UIFixtures {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func note(
        _ title: String?, _ body: String?, subtitle: String? = nil, language: String = "ko",
        attachments: [RenderedAttachment] = [], actions: [RenderedAction] = [], warnings: [String] = [],
        delivered: Delivery = .original
    ) -> RenderedNotification {
        var n = RenderedNotification(delivered: delivered)
        n.title = title
        n.subtitle = subtitle
        n.body = body
        n.language = language
        n.attachments = attachments
        n.actions = actions
        n.warnings = warnings.map { Diagnostic(.warning, $0) }
        n.interruptionLevel = "active"
        n.trace = [
            TraceEntry(step: .validate, ms: 0.21, outcome: .accepted, detail: "APNs payload, push type alert"),
            TraceEntry(step: .localize, ms: 0.5, outcome: .localized, detail: "ko-KR → ko (the region falls back to the language)"),
        ]
        return n
    }

    static func state(width: Int, height: Int) -> InboxState {
        var s = InboxState(appName: "Pushbox Sample", languages: ["ko-KR"], languageChoices: ["en", "ko", "ja", "ar", "accented"])
        s.width = width
        s.height = height
        s.now = now
        s.timeZone = TimeZone(identifier: "UTC")!
        s.intake = IntakeStatus(socket: "/run/user/1000/pushbox/pushbox.sock", watched: ["/tmp/in"])
        s.list.items = [
            InboxItem(
                id: 6, apnsID: "f", receivedAt: now.addingTimeInterval(-30), source: "socket", status: 200, sentTitle: "GAME_PLAY_REQUEST_TITLE",
                sentBody: "GAME_PLAY_REQUEST_FORMAT",
                rawText:
                    "{\n  \"aps\": {\n    \"alert\": {\"loc-key\": \"GAME_PLAY_REQUEST_FORMAT\"},\n    \"category\": \"GAME_INVITATION\"\n  },\n  \"deepLink\": \"pushboxsample://game/42\"\n}"
            ),
            InboxItem(
                id: 5, apnsID: "e", receivedAt: now.addingTimeInterval(-120), source: "folder", status: 200, threadID: "family", sentTitle: "Family",
                sentBody: "👨‍👩‍👧 dinner"),
            InboxItem(
                id: 4, apnsID: "d", receivedAt: now.addingTimeInterval(-180), source: "socket", status: 200, threadID: "family", sentTitle: "Flags",
                sentBody: "🇰🇷🇯🇵"),
            InboxItem(
                id: 3, apnsID: "c", receivedAt: now.addingTimeInterval(-600), source: "socket", status: 200, sentTitle: "ALARM_TITLE",
                sentBody: "ALARM_BODY"),
            InboxItem(
                id: 2, apnsID: "b", receivedAt: now.addingTimeInterval(-3600), source: "socket", status: 400, reason: "BadPriority",
                detail: "apns-priority \"7\" is not 10, 5 or 1"),
            InboxItem(
                id: 1, apnsID: "a", receivedAt: now.addingTimeInterval(-7200), source: "socket", status: 200, sentTitle: "\u{1B}]0;pwned\u{07}",
                sentBody: "x"),
        ]
        s.renders = [
            6: note(
                "게임 초대", "Shelly 님과 Rick 님이 모노폴리 게임에 초대했습니다",
                actions: [
                    RenderedAction(identifier: "ACCEPT", title: "수락", options: [.foreground]),
                    RenderedAction(identifier: "DECLINE", title: "거절", options: [.destructive]),
                ]),
            5: note("가족 👨‍👩‍👧", "오늘 저녁 7시에 만나요 👍🏽 🇰🇷", warnings: ["aps.data is not an APNs key"]),
            4: note(
                "ゲームへの招待", "ShellyさんとRickさんがモノポリーに招待しています", language: "ja",
                attachments: [
                    RenderedAttachment(
                        path: "/cache/f620d3123f29.png", type: "image/png", bytes: 1522, width: 320, height: 200, source: "file:///x.png")
                ]),
            3: note("دعوة إلى لعبة", "دعاك Shelly وRick للعب مونوبولي", language: "ar"),
            1: note("Hi \u{1B}]0;pwned\u{07}", "line one\nline two\u{202E}reversed"),
        ]
        return s
    }
}
