import Foundation
import PushboxDevice
import PushboxLocalization
import PushboxPayload
import Testing

@testable import PushboxUI

/// The inbox's own device: languages with their regions, a tag typed in the picker, clearing
/// with a confirmation, and another process's changes folded in.
@Suite("The device's languages, clearing, and other processes' changes in the inbox")
struct DeviceOfTheInboxTests {
    var s = UIFixtures.state(width: 120, height: 40)

    @Test(
        "a localization stands for a device language with its likely region; a tag with a region is kept",
        arguments: [
            ("ja", "ja-JP"), ("pt", "pt-BR"), ("en", "en-US"), ("zh-Hant", "zh-Hant-TW"), ("zh-Hans", "zh-Hans-CN"), ("en-GB", "en-GB"),
            ("he", "he-IL"), ("Base", "Base"),
        ])
    func likelyRegion(localization: String, device: String) {
        #expect(LanguageTag.withLikelyRegion(localization) == device)
    }

    @Test("the FCM language topic follows the device language exactly: ja-JP is LangJaJP, not LangJa")
    func topicFollowsTheTag() {
        #expect(DeviceTopics.topics(preferredLanguages: [LanguageTag.withLikelyRegion("ja")], profileTopics: []).contains("LangJaJP"))
    }

    @Test(
        "text typed as a language is spelled as BCP 47, and what is no language tag is refused",
        arguments: [
            ("ja-JP", "ja-JP"), ("PT_br", "pt-BR"), ("zh-hant-tw", "zh-Hant-TW"), ("he-IL", "he-IL"), ("sr-Latn", "sr-Latn"),
            ("xx-YY", nil), ("j", nil), ("ja JP", nil), ("", nil), ("ja--JP", "ja-JP"),
        ] as [(String, String?)])
    func typedTags(text: String, tag: String?) {
        #expect(LanguageTag.typed(text) == tag)
    }

    @Test("in the picker, / types a tag: Enter makes it the device language exactly as typed, region kept; a bad one says so and stays")
    mutating func typedInPicker() {
        _ = s.update(.key(.char("L")))
        _ = s.update(.key(.char("/")))
        for c in "xx-q" { _ = s.update(.key(.char(c))) }
        #expect(s.update(.key(.enter)).isEmpty)
        #expect(s.status == .notALanguageTag("xx-q"))
        #expect(s.typedLanguage == "xx-q")
        for _ in 0..<4 { _ = s.update(.key(.backspace)) }
        for c in "ja_jp" { _ = s.update(.key(.char(c))) }
        #expect(InboxView.screen(s).lines.contains { $0.contains("tag: ja_jp") })
        let commands = s.update(.key(.enter))
        #expect(s.overlay == nil && s.typedLanguage == nil)
        #expect(s.device.languages == ["ja-JP"])
        #expect(commands.contains(.saveLanguages(["ja-JP"])))
        // j and k are letters while typing, not moves.
        _ = s.update(.key(.char("L")))
        _ = s.update(.key(.char("/")))
        _ = s.update(.key(.char("k")))
        #expect(s.typedLanguage == "k")
        _ = s.update(.key(.escape))
        #expect(s.typedLanguage == nil && s.overlay == .languagePicker(selection: s.device.currentChoice ?? 0))
    }

    @Test("X asks, a second X clears the inbox; any other key in between keeps it")
    mutating func clearConfirmed() {
        let count = s.list.items.count
        #expect(count > 0)
        #expect(s.update(.key(.char("X"))).isEmpty)
        #expect(s.status == .clearAsked(count))
        _ = s.update(.key(.char("j")))
        #expect(s.update(.key(.char("X"))).isEmpty)
        #expect(s.list.items.count == count)
        let commands = s.update(.key(.char("X")))
        #expect(commands.contains(.clearInbox))
        #expect(s.list.items.isEmpty)
    }

    @Test("another process's changes replace the list, the selection staying on its notification")
    mutating func reloaded() {
        _ = s.update(.key(.char("j")))
        let selected = s.list.items[s.list.selected].id
        var items = s.list.items
        items.removeFirst()
        var arrived = items[0]
        arrived.id = 1000
        items.insert(arrived, at: 0)
        _ = s.update(.reloaded(items))
        #expect(s.list.items.map(\.id) == items.map(\.id))
        #expect(s.list.items[s.list.selected].id == selected)
    }
}
