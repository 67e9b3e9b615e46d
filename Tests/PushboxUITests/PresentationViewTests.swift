import Foundation
import PushboxDevice
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import Testing

@testable import PushboxUI

/// How iOS 15–18 places a chat app's notifications: the communication card, a thread's stack
/// collapsed to its newest card with the category's "N more …" line, and the Scheduled Summary
/// holding what the app's place in the summary kept back, the most relevant first.
@Suite("Stacks, the scheduled summary and the communication card")
struct PresentationViewTests {
    /// The texts of each language: the message bodies, and the alarm held for the summary.
    static let texts: [String: (messages: [String], group: String, held: [String])] = [
        "en": (["Dinner at 7?", "I booked the place by the harbour", "Bring a jacket 🧥"], "Family", ["Wake up", "Your 6:10 alarm is ringing"]),
        "ja": (["7時に夕食はどう？", "港のそばの店を予約したよ", "上着を持ってきてね 🧥"], "家族", ["起きて", "6:10のアラームが鳴っています"]),
        "ar": (["العشاء في السابعة؟", "حجزت المكان قرب الميناء", "أحضر سترة 🧥"], "العائلة", ["استيقظ", "منبه 6:10 يرن"]),
    ]

    /// The bundled sample app, whose categories and strings word the stack.
    static let sampleApp = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../sample-payloads/SampleApp")
        .standardized.path

    /// The inbox of a device in `language` with the sample app's categories and strings.
    static func state(width: Int, height: Int, language: String) throws -> InboxState {
        let t = try #require(texts[language])
        let now = UIFixtures.now
        var s = InboxState(appName: "Pushbox Sample", languages: [language], languageChoices: ["en", "ja", "ar"])
        (s.width, s.height, s.now) = (width, height, now)
        s.timeZone = TimeZone(identifier: "UTC")!
        s.intake = IntakeStatus(socket: "/run/user/1000/pushbox/pushbox.sock", watched: [])
        let profile = try AppProfile.load(directory: Self.sampleApp)
        let app = AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)
        s.stackWording = StackWording(appName: profile.name, categories: profile.categories, localizer: Localizer(app: app))
        // Three messages from Mina in the family chat, newest first; the newest is a communication card.
        for (n, body) in t.messages.enumerated() {
            let id = Int64(10 - n)
            s.list.items.append(
                InboxItem(
                    id: id, apnsID: "m\(n)", receivedAt: now.addingTimeInterval(Double(-60 - n * 300)), source: "tls", status: 200,
                    threadID: "chat-family", sentTitle: "New message", sentBody: body))
            var r = UIFixtures.note("Mina", body, subtitle: t.group, language: language)
            r.category = "MESSAGE"
            r.threadId = "chat-family"
            r.communication = Communication(sender: "Mina", handle: "mina@example.com", group: t.group, conversation: "chat-family")
            s.renders[id] = r
        }
        // Two alarms held for the 18:00 summary, which has come: relevance 0.2, then 0.9.
        for (n, relevance) in [0.2, 0.9].enumerated() {
            let id = Int64(3 - n)
            var item = InboxItem(
                id: id, apnsID: "h\(n)", receivedAt: now.addingTimeInterval(Double(-7200 - n * 600)), source: "socket", status: 200,
                sentTitle: "ALARM_TITLE", sentBody: "ALARM_BODY")
            var held = Presentation(
                outcome: .summary, summaryAt: "18:00", sound: "none", screenLit: false,
                rule: "the app is in the scheduled summary: delivered quietly, shown in the summary at 18:00")
            (held.summaryDue, held.relevance) = (now.addingTimeInterval(-1800), relevance)
            item.verdict.presentation = held
            s.list.items.append(item)
            s.renders[id] = UIFixtures.note(t.held[0], t.held[1] + (n == 1 ? " ⏰" : ""), language: language)
        }
        s.list.items.sort { $0.receivedAt > $1.receivedAt }
        return s
    }

    /// The same inbox with the chat's stack collapsed and the communication card selected.
    static func collapsed(width: Int, height: Int, language: String) throws -> InboxState {
        var s = try state(width: width, height: height, language: language)
        s.list.collapsedThreads = ["chat-family"]
        s.list.selected = s.rows.firstIndex { if case .item(let i) = $0 { return s.list.items[i].id == 10 } else { return false } } ?? 0
        return s
    }

    @Test(
        "screens at 80×24 and 120×40 in English, Japanese and Arabic: the Scheduled Summary first, the stack's newest card with its summary line, the communication card",
        arguments: ["en", "ja", "ar"], [(80, 24), (120, 40)])
    func snapshots(language: String, size: (Int, Int)) throws {
        try ViewSnapshotTests().check(
            "presentation-\(language)-\(size.0)x\(size.1)", InboxView.screen(try Self.collapsed(width: size.0, height: size.1, language: language)))
    }

    @Test("the summary lists its notifications by relevance-score, the highest featured first (Apple, relevanceScore)")
    func summaryOrder() throws {
        let s = try Self.state(width: 120, height: 40, language: "en")
        guard case .summary(let at, _, let count, false) = s.rows[0] else {
            Issue.record("the first row is \(s.rows[0])")
            return
        }
        #expect(at == "18:00" && count == 2)
        let ids = s.rows[1...2].compactMap { row -> Int64? in if case .item(let i) = row { s.list.items[i].id } else { nil } }
        #expect(ids == [2, 3])  // relevance 0.9 before 0.2, though 0.2 arrived later
        #expect(InboxView.screen(s).lines.contains { $0.contains("▾ Scheduled Summary · 18:00 (2)") })
    }

    @Test("before its time the held notifications wait under Upcoming Summary; z collapses it")
    func upcoming() throws {
        var s = try Self.state(width: 120, height: 40, language: "en")
        s.now = UIFixtures.now.addingTimeInterval(-3600)
        #expect(InboxView.screen(s).lines.contains { $0.contains("▾ Upcoming Summary · 18:00 (2)") })
        s.list.selected = 0
        _ = s.update(.key(.char("z")))
        #expect(s.rows.count == 5 && s.rows[0] == .summary(at: "18:00", due: UIFixtures.now.addingTimeInterval(-1800), count: 2, collapsed: true))
    }

    @Test("a collapsed stack keeps its newest card and says how many more in the category's format, in the device language")
    func collapsedStack() throws {
        var s = try Self.state(width: 120, height: 40, language: "ar")
        let header = try #require(s.rows.firstIndex { $0.groupKey == "chat-family" })
        s.list.selected = header
        _ = s.update(.key(.char("z")))
        #expect(s.rows.count == 5)
        if case .item(let i) = s.rows[header + 1] { #expect(s.list.items[i].id == 10) } else { Issue.record("no newest card under the stack") }
        // As the terminal shows it: in visual order.
        let line = DisplayText.fitted("▸ chat-family · رسالتان أخريان من", width: 200, bidi: s.bidi)
        #expect(InboxView.screen(s).lines.contains { $0.contains(line) })
    }

    @Test("with previews never, the card shows the category's placeholder counted over the thread, not the message")
    func hiddenPreviews() throws {
        var s = try Self.collapsed(width: 120, height: 40, language: "en")
        let hidden = Presentation(outcome: .shown, sound: "plays", screenLit: true, preview: "hidden", rule: "active")
        for i in s.list.items.indices where s.list.items[i].threadID == "chat-family" { s.list.items[i].verdict.presentation = hidden }
        let lines = InboxView.screen(s).lines
        #expect(lines.contains { $0.contains("3 new messages") })
        #expect(!lines.contains { $0.contains("Dinner at 7?") })
        // The same count once the list's rows (and the threads' sizes counted with them) are cached.
        _ = s.update(.resize(width: 120, height: 40))
        #expect(s.list.rowsCache?.threadSizes.isEmpty == false)
        #expect(InboxView.screen(s).lines.contains { $0.contains("3 new messages") })
    }
}
