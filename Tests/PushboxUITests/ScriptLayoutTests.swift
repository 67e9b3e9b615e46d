import Foundation
import PushboxLocalization
import PushboxPayload
import Testing

@testable import PushboxUI

/// The card sets each script as the phone does: line breaks for the language, right to left mirrored.
@Suite("Japanese, Chinese, Korean, Thai, Arabic and Hebrew on the card")
struct ScriptLayoutTests {
    /// A 60×18 inbox whose only notification is `title` / `body` rendered in `language`.
    static func screen(_ title: String, _ body: String, language: String, width: Int = 60) -> Screen {
        var s = InboxState(appName: "Pushbox Sample", languages: [language], languageChoices: [language])
        s.width = width
        s.height = 18
        s.now = UIFixtures.now
        s.timeZone = TimeZone(identifier: "UTC")!
        s.card.open = true
        s.list.items = [InboxItem(id: 1, apnsID: "a", receivedAt: UIFixtures.now.addingTimeInterval(-60), source: "socket", status: 200)]
        s.renders = [1: UIFixtures.note(title, body, language: language)]
        return InboxView.screen(s)
    }

    /// The card's text rows: what is between its side borders.
    static func cardRows(_ screen: Screen) -> [String] {
        screen.lines.compactMap { line in
            guard let open = line.firstIndex(of: "│"), let close = line.lastIndex(of: "│"), open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    static let closing: Set<Character> = ["。", "、", "，", "．", "」", "』", "）", "！", "？", "ぁ", "ゃ", "ょ", "っ", "ー"]

    @Test("Japanese and Chinese: no line begins with closing punctuation or a small kana")
    func cjk() throws {
        for (body, language) in [
            ("今日は雨です。明日は晴れるでしょう。週末はきっと大丈夫です！ちょっと待ってね、すぐ行きます。", "ja"),
            ("今天下雨，明天会晴。周末一定没问题！请稍等，我马上就到。谢谢你的耐心。", "zh-Hans"),
        ] {
            let screen = Self.screen("お知らせ", body, language: language, width: 44)
            let rows = Self.cardRows(screen).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            #expect(rows.count >= 3, "\(screen.lines.joined(separator: "\n"))")
            for row in rows { #expect(!Self.closing.contains(row.first ?? " "), "\(language): \(row)") }
            try ViewSnapshotTests().check("script-\(language)-44x18", screen)
        }
    }

    @Test("Korean breaks between words, never inside one")
    func korean() throws {
        let body = "김민수 님이 새로운 사진을 공유했습니다 지금 바로 확인해 보세요 친구들이 기다리고 있어요"
        let words = Set(body.split(separator: " ").map(String.init))
        let screen = Self.screen("새 사진", body, language: "ko-KR", width: 44)
        let rows = Self.cardRows(screen).dropFirst(2).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.contains("·") }
        for row in rows { for word in row.split(separator: " ") { #expect(words.contains(String(word)), "split word: \(word)") } }
        try ViewSnapshotTests().check("script-ko-44x18", screen)
    }

    @Test("Thai breaks at word boundaries (ICU's dictionary), and every vowel mark stays with its consonant")
    func thai() throws {
        let body = "สวัสดีชาวโลกนี่คือการทดสอบการตัดคำภาษาไทยในการแจ้งเตือนของเรา"
        let screen = Self.screen("แจ้งเตือน", body, language: "th", width: 40)
        let rows = Self.cardRows(screen).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(rows.joined().contains("สวัสดีชาวโลก"))
        // A line never begins with a combining mark (a vowel sign cut from its consonant).
        for row in rows { #expect(row.unicodeScalars.first.map { $0.properties.generalCategory != .nonspacingMark } ?? true, "\(row)") }
        try ViewSnapshotTests().check("script-th-40x18", screen)
    }

    @Test("Arabic and Hebrew: the card mirrored (time left, app right), text right-aligned in visual order")
    func rightToLeft() throws {
        for (title, body, language) in [
            ("دعوة إلى لعبة", "دعاك Shelly وRick للعب مونوبولي الليلة في الساعة 8", "ar"),
            ("הזמנה למשחק", "שלי וריק הזמינו אותך לשחק מונופול הערב ב־8", "he"),
        ] {
            let screen = Self.screen(title, body, language: language, width: 50)
            let rows = Self.cardRows(screen)
            let header = try #require(rows.first { $0.contains("PUSHBOX SAMPLE") })
            #expect(header.trimmingCharacters(in: .whitespaces).hasPrefix("1m"), "\(header)")
            #expect(header.trimmingCharacters(in: .whitespaces).hasSuffix("PUSHBOX SAMPLE"))
            // Right-aligned: each text row ends one column before the border.
            let text = rows.filter { $0.unicodeScalars.contains { TextLayout.isRightToLeft(String($0)) } }
            #expect(!text.isEmpty)
            for row in text { #expect(row.hasSuffix(" ") && !row.dropLast().hasSuffix(" "), "\(language): [\(row)]") }
            // Visual order: the title's first letter is its rightmost.
            #expect(text.first?.trimmingCharacters(in: .whitespaces).last == title.first)
            try ViewSnapshotTests().check("script-\(language)-50x18", screen)
        }
    }

    @Test("a Latin line with an Arabic phrase keeps its direction and shows the phrase in visual order")
    func mixed() {
        let line = DisplayText.line("Order مرحبا بك shipped")
        #expect(line.hasPrefix("Order ") && line.hasSuffix(" shipped"))
        #expect(line.contains("كب ابحرم"))
        #expect(DisplayText.line("Order مرحبا بك shipped", bidi: false).contains("مرحبا بك"))
    }
}

/// Rough edges of the inbox found in daily use.
@Suite("Rough edges of the inbox")
struct InboxRoughEdgeTests {
    @Test("the Trace tab of a push refused at intake shows its refusal, not rendering… for ever")
    func refusedTrace() {
        var s = UIFixtures.state(width: 120, height: 40)
        s.list.selected = s.rows.firstIndex { if case .item(let i) = $0 { return s.list.items[i].id == 2 } else { return false } } ?? 0
        _ = s.update(.key(.tab))
        let text = InboxView.screen(s).lines.joined(separator: "\n")
        #expect(!text.contains("rendering…"))
        #expect(text.contains("400 BadPriority: apns-priority \"7\" is not 10, 5 or 1"), "\(text)")
    }

    @Test("the rejected filter also keeps what is marked × as not for this device")
    func rejectedFilter() {
        var s = UIFixtures.state(width: 120, height: 40)
        s.renders[3]?.delivered = .rejected
        s.list.filter = .rejected
        _ = s.update(.resize(width: 120, height: 40))
        let ids = s.rows.compactMap { if case .item(let i) = $0 { return s.list.items[i].id } else { return nil } }
        #expect(Set(ids) == [2, 3], "\(ids)")
    }
}

extension InboxRoughEdgeTests {
    @Test("choosing the language already in use in the picker keeps it as it is (en-US stays en-US)")
    func samePickerChoice() {
        var s = InboxState(appName: "x", languages: ["en-US"], languageChoices: ["en", "ko"])
        _ = s.update(.key(.char("L")))
        #expect(s.update(.key(.enter)).isEmpty)
        #expect(s.device.languages == ["en-US"])
        _ = s.update(.key(.char("L")))
        _ = s.update(.key(.down))
        #expect(s.update(.key(.enter)) == [.saveLanguages(["ko"])])
    }
}

extension InboxRoughEdgeTests {
    @Test("an arrival that is also in the first page read at start is listed once")
    func arrivalAlsoLoaded() {
        var s = UIFixtures.state(width: 120, height: 40)
        let count = s.list.items.count
        _ = s.update(.arrived([ArrivedItem(s.list.items[0])]))
        _ = s.update(
            .arrived(
                [s.list.items[1], InboxItem(id: 99, apnsID: "n", receivedAt: UIFixtures.now, source: "folder", status: 200)].map { ArrivedItem($0) }))
        #expect(s.list.items.count == count + 1)
        #expect(s.list.items.first?.id == 99)
    }
}

extension InboxRoughEdgeTests {
    @Test("overlays scroll: at 80×24 help says how much more there is and j reaches its last key; the footer offers no choosing")
    func helpScrolls() {
        var s = UIFixtures.state(width: 80, height: 24)
        _ = s.update(.key(.char("?")))
        var text = InboxView.screen(s).lines.joined(separator: "\n")
        #expect(text.contains("more (j, PgDn)"))
        #expect(!(InboxView.screen(s).lines.last ?? "").contains("choose"))
        for _ in 0..<40 { _ = s.update(.key(.char("j"))) }
        text = InboxView.screen(s).lines.joined(separator: "\n")
        #expect(text.contains("q          quit"), "\(text)")
        #expect(text.contains("↑"))
        _ = s.update(.key(.escape))
        #expect(s.overlay == nil && s.overlayScroll == 0)
    }

    @Test("at 40×12 the language picker's cursor stays inside the box")
    func pickerScrolls() {
        var s = InboxState(appName: "x", languages: ["en"], languageChoices: (0..<20).map { "l\($0)" })
        (s.width, s.height) = (40, 12)
        _ = s.update(.key(.char("L")))
        for _ in 0..<15 { _ = s.update(.key(.char("j"))) }
        #expect(InboxView.screen(s).lines.contains { $0.contains("▶") }, "\(InboxView.screen(s).lines.joined(separator: "\n"))")
    }
}

extension InboxRoughEdgeTests {
    static func visibleIDs(_ s: InboxState) -> [Int64] {
        s.rows.compactMap { if case .item(let i) = $0 { return s.list.items[i].id } else { return nil } }
    }

    @Test("search finds custom payload keys, the sound, the device token and the labels the rows show; Esc clears a kept search")
    func search() {
        var s = UIFixtures.state(width: 120, height: 40)
        s.list.items[0].deviceToken = "5e1ec7ed00ff"
        s.list.items[3].kind = .background
        s.renders[5]?.sound = "chime.caf"
        for (query, expected) in [("deepLink", [6]), ("chime", [5]), ("5e1ec7ed00ff", [6]), ("background event", [3])] as [(String, [Int64])] {
            _ = s.update(.key(.char("/")))
            for c in query { _ = s.update(.key(.char(c))) }
            _ = s.update(.key(.enter))
            #expect(Self.visibleIDs(s) == expected, "\(query)")
            _ = s.update(.key(.escape))
            #expect(s.list.search.isEmpty && Self.visibleIDs(s).count == 6, "\(query)")
        }
    }

    @Test("d deletes and says u brings it back; u does; d on a thread's header says why it does nothing")
    func deleteAndUndo() {
        var s = UIFixtures.state(width: 120, height: 40)
        #expect(s.update(.key(.char("d"))) == [.delete(id: 6)])
        #expect(!Self.visibleIDs(s).contains(6))
        #expect(InboxView.screen(s).lines.last?.contains("u brings it back") == true)
        #expect(s.update(.key(.char("u"))) == [.undelete(id: 6)])
        #expect(Self.visibleIDs(s).first == 6)
        #expect(s.update(.key(.char("u"))).isEmpty)
        s.list.selected = s.rows.firstIndex { if case .thread = $0 { return true } else { return false } } ?? 0
        #expect(s.update(.key(.char("d"))).isEmpty)
        #expect(s.status == .unavailable(.threadHeader))
    }
}

extension InboxRoughEdgeTests {
    @Test("a tap shows the userInfo the app receives: the whole payload, aps included, also after the Raw tab loaded the request's headers")
    func tapUserInfo() {
        var s = UIFixtures.state(width: 120, height: 40)
        _ = s.update(.key(.char("o")))
        guard case .response(let response)? = s.overlay else {
            Issue.record("no response overlay")
            return
        }
        #expect(response.userInfo.contains(#""aps":{"#) && response.userInfo.contains("pushboxsample://game/42"), "\(response.userInfo)")
        _ = s.update(.key(.escape))
        _ = s.update(.rawLoaded(id: 6, text: "POST /3/device/abcd\napns-push-type: alert\n\n" + s.list.items[0].rawText))
        _ = s.update(.key(.char("o")))
        if case .response(let again)? = s.overlay { #expect(again.userInfo == response.userInfo) } else { Issue.record("no response overlay") }
    }
}

extension InboxRoughEdgeTests {
    @Test("collapsing a thread leaves the header's count as it was")
    func collapsedCount() {
        var s = UIFixtures.state(width: 120, height: 40)
        #expect(InboxView.screen(s).lines[0].contains("6 notifications"))
        s.list.selected = s.rows.firstIndex { if case .thread = $0 { return true } else { return false } } ?? 0
        _ = s.update(.key(.char("z")))
        #expect(s.rows.contains { if case .thread(_, _, true) = $0 { return true } else { return false } })
        #expect(InboxView.screen(s).lines[0].contains("6 notifications"), "\(InboxView.screen(s).lines[0])")
    }
}

extension InboxRoughEdgeTests {
    @Test("p steps through the named presentations (banner, lock screen, expanded), says approximate, and a banner shows two actions")
    func previewProfiles() {
        var s = UIFixtures.state(width: 120, height: 40)
        s.renders[6]?.actions.append(RenderedAction(identifier: "LATER", title: "나중에", options: []))
        _ = s.update(.key(.char("p")))
        #expect(s.card.preview == .banner)
        let banner = InboxView.screen(s).lines.joined(separator: "\n")
        #expect(banner.contains("approximate") && banner.contains("수락") && banner.contains("거절") && !banner.contains("나중에"))
        _ = s.update(.key(.char("p")))
        #expect(s.card.preview == .lockScreen)
        _ = s.update(.key(.char("p")))
        #expect(s.card.preview == .expanded && InboxView.screen(s).lines.joined().contains("나중에"))
        _ = s.update(.key(.char("p")))
        #expect(s.card.preview == nil)
    }
}

extension ScriptLayoutTests {
    @Test(
        "Devanagari, Bengali, Tamil, Thai, Hangul jamo, Arabic with harakat, Hebrew with niqqud and mixed Latin/Arabic at 40 columns",
        arguments: [
            ("hi", "नमस्ते", "नमस्ते दुनिया, क्षत्रिय और श्रीमान आज शाम आठ बजे मिलेंगे"),
            ("bn", "নমস্কার", "নমস্কার পৃথিবী, আজ সন্ধ্যা আটটায় দেখা হবে বন্ধুদের সাথে"),
            ("ta", "வணக்கம்", "வணக்கம் உலகம், இன்று மாலை எட்டு மணிக்கு சந்திப்போம்"),
            ("th", "สวัสดี", "สวัสดีชาวโลก วันนี้เราจะพบกันตอนสองทุ่มน้ำใจดีมาก"),
            ("ko", "\u{1100}\u{1161}\u{11A8}", "\u{1100}\u{1161}\u{11A8} \u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} 조합형 자모로 쓴 글자입니다"),
            ("ar", "مَرْحَبًا", "مَرْحَبًا بِالْعَالَمِ، نَلْتَقِي اللَّيْلَةَ فِي السَّاعَةِ الثَّامِنَةِ"),
            ("he", "שָׁלוֹם", "שָׁלוֹם עוֹלָם, נִפָּגֵשׁ הָעֶרֶב בִּשְׁמוֹנֶה"),
            ("en", "Order", "Your order مرحبا بك has shipped (#42) and arrives Friday"),
        ])
    func narrowScripts(_ language: String, _ title: String, _ body: String) throws {
        let screen = Self.screen(title, body, language: language, width: 40)
        let rows = Self.cardRows(screen)
        // Every row of the card has both borders at the same columns (the screen's own accounting).
        let widths = screen.lines.filter { $0.contains("│") }.map { line in
            line.reduce(0) { $0 + DisplayWidth.of($1) }
        }
        #expect(Set(widths).count == 1, "\(screen.lines.joined(separator: "\n"))")
        #expect(rows.count >= 3)
        // Every combining mark still follows a letter of its own script (none stranded by reordering).
        for row in rows {
            let scalars = Array(row.unicodeScalars)
            for (i, s) in scalars.enumerated() where s.properties.generalCategory == .nonspacingMark {
                #expect(i > 0 && scalars[i - 1] != " ", "a mark without its letter in \(row)")
            }
        }
        try ViewSnapshotTests().check("script-narrow-\(language)-40x18", screen)
    }
}

extension InboxRoughEdgeTests {
    @Test("the background card breaks lines between words, never inside an identifier that fits a line")
    func backgroundIdentifier() {
        let detail =
            "content-available 1 and no alert: nothing is shown; iOS wakes the app in the background to run application(_:didReceiveRemoteNotification:fetchCompletionHandler:) with userInfo {\"sync\":\"inbox\"}"
        let lines = DisplayText.wrap(detail, width: 72)
        let identifier = "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"
        #expect(lines.contains { $0.contains(identifier) }, "\(lines)")
    }
}

extension InboxRoughEdgeTests {
    @Test("an overlay line wider than the screen wraps instead of being cut")
    func overlayWraps() {
        var s = UIFixtures.state(width: 50, height: 30)
        _ = s.update(.key(.char("?")))
        for _ in 0..<60 { _ = s.update(.key(.char("j"))) }
        let text = InboxView.screen(s).lines.joined(separator: "\n")
        // The markers line, 100-odd columns long, reaches its last words.
        #expect(text.contains("L local"), "\(text)")
    }
}
