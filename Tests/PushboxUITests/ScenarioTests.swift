import Foundation
import PushboxPayload
import Testing

@testable import PushboxUI

@Suite("Scenarios: messages in, state and commands out")
struct ScenarioTests {
    var s = UIFixtures.state(width: 120, height: 40)

    @Test("a payload loaded for the raw view keeps the list's rows; an arrival computes them again")
    mutating func rowsCacheKept() {
        _ = s.update(.resize(width: 120, height: 40))
        let computed = s.list.rowComputations
        _ = s.update(.rawLoaded(id: s.list.items[0].id, text: "{}"))
        #expect(s.list.rawText(of: s.list.items[0]) == "{}")
        #expect(s.list.rowComputations == computed)
        var newer = s.list.items[0]
        newer.id = 999
        _ = s.update(.arrived([ArrivedItem(newer)]))
        #expect(s.list.rowComputations == computed + 1)
    }

    @Test("the rows' key: a rendering changes them only while the filter or the search reads renderings")
    mutating func rowsKey() {
        _ = s.update(.resize(width: 120, height: 40))
        let computed = s.list.rowComputations
        _ = s.update(.rendered([6: UIFixtures.note("T", "B")], languageKey: s.device.key))
        #expect(s.list.rowComputations == computed)
        _ = s.update(.key(.char("f")))
        _ = s.update(.key(.char("f")))
        #expect(s.list.filter == .withWarnings)
        let filtered = s.list.rowComputations
        _ = s.update(.rendered([6: UIFixtures.note("T", "B", warnings: ["w"])], languageKey: s.device.key))
        #expect(s.list.rowComputations == filtered + 1)
    }

    @Test("a palette change is a message of its own, not a resize")
    mutating func palette() {
        #expect(s.palette == 0)
        _ = s.update(.palette(16))
        #expect(s.palette == 16)
    }

    @Test("moving: keys, pages, ends, clicks and the wheel keep the selection on a row")
    mutating func moving() {
        #expect(s.rows.count == 7)
        _ = s.update(.key(.char("j")))
        _ = s.update(.key(.down))
        #expect(s.selectedItem?.id == 5)
        _ = s.update(.key(.end))
        #expect(s.selectedItem?.id == 1)
        _ = s.update(.key(.down))
        #expect(s.list.selected == 6)
        _ = s.update(.key(.home))
        #expect(s.list.selected == 0)
        _ = s.update(.key(.up))
        #expect(s.list.selected == 0)
        _ = s.update(.click(x: 5, y: 5))
        #expect(s.list.selected == 4)
        _ = s.update(.wheel(up: true))
        #expect(s.list.selected == 1)
    }

    @Test("a new notification appears at the top; a selection further down stays on its notification")
    mutating func arrivals() {
        _ = s.update(.key(.char("G")))
        let before = s.selectedItem?.id
        let commands = s.update(.arrived([ArrivedItem(InboxItem(id: 7, apnsID: "g", receivedAt: UIFixtures.now, source: "socket", status: 200))]))
        #expect(s.list.items.first?.id == 7)
        #expect(s.selectedItem?.id == before)
        #expect(commands.contains(.render(ids: [7], languages: ["ko-KR"])))
    }

    @Test("an arrival rendered for the device's languages is shown as it came: no rendering is asked for it; one for others is")
    mutating func arrivalsComeWhole() {
        _ = s.update(.key(.char("G")))
        let item = InboxItem(id: 8, apnsID: "h", receivedAt: UIFixtures.now, source: "socket", status: 200)
        let commands = s.update(.arrived([ArrivedItem(item, rendering: UIFixtures.note("Arrived", "whole"), languageKey: s.device.key)]))
        #expect(s.renders[8]?.title == "Arrived")
        #expect(!commands.contains { if case .render(let ids, _) = $0 { ids.contains(8) } else { false } })
        // Rendered for a language list the device no longer has: asked for again.
        let other = InboxItem(id: 9, apnsID: "i", receivedAt: UIFixtures.now, source: "socket", status: 200)
        let again = s.update(.arrived([ArrivedItem(other, rendering: UIFixtures.note("old", "list"), languageKey: "xx")]))
        #expect(s.renders[9] == nil && again.contains(.render(ids: [9], languages: ["ko-KR"])))
    }

    @Test("] switches to the next language: renders are dropped, visible ones requested again, the choice saved")
    mutating func nextLanguage() {
        let commands = s.update(.key(.char("]")))
        #expect(s.device.languages == ["ja"])  // after ko in the app's list
        #expect(s.renders.isEmpty)
        #expect(commands.contains(.saveLanguages(["ja"])))
        #expect(commands.contains { if case .render(let ids, ["ja"]) = $0 { return ids.count == 5 } else { return false } })
        _ = s.update(.key(.char("[")))
        #expect(s.device.languages == ["ko"])
        _ = s.update(.rendered([6: UIFixtures.note("Game invite", "x", language: "en")], languageKey: "en"))
        #expect(s.renders.isEmpty)  // a late answer for another language is ignored
    }

    @Test("L opens the picker; choosing a language switches to it")
    mutating func picker() {
        _ = s.update(.key(.char("L")))
        #expect(s.overlay == .languagePicker(selection: 1))  // the current one, ko
        _ = s.update(.key(.down))
        _ = s.update(.key(.down))
        let commands = s.update(.key(.enter))
        #expect(s.overlay == nil)
        #expect(s.device.languages == ["ar"])
        #expect(commands.contains(.saveLanguages(["ar"])))
        let screen = InboxView.screen(s)
        #expect(screen.lines[0].contains("العربية (ar)"))
    }

    @Test("search, filters and threads change what the list shows")
    mutating func narrowing() {
        _ = s.update(.key(.char("/")))
        for c in "게임" { _ = s.update(.key(.char(c))) }
        _ = s.update(.key(.enter))
        #expect(s.rows == [.item(0)])
        _ = s.update(.key(.char("/")))
        _ = s.update(.key(.escape))
        #expect(s.list.search.isEmpty && s.rows.count == 7)
        _ = s.update(.key(.char("f")))
        #expect(s.rows.map { row -> Int64 in if case .item(let i) = row { return s.list.items[i].id } else { return -1 } } == [2])
        _ = s.update(.key(.char("f")))
        #expect(s.list.filter == .withWarnings)
        #expect(s.rows.count == 1)
        _ = s.update(.key(.char("f")))
        _ = s.update(.key(.down))
        _ = s.update(.key(.char("z")))
        // Collapsed, the stack keeps its newest card under the header, as iOS's stack does.
        #expect(s.rows.count == 6)
        #expect(s.rows[1] == .thread(id: "family", count: 2, collapsed: true) && s.rows[2] == .item(1))
    }

    @Test("choosing an action shows what the app receives: identifier and deep link")
    mutating func action() throws {
        _ = s.update(.key(.char("a")))
        guard case .response(let first)? = s.overlay else {
            Issue.record("no result")
            return
        }
        #expect(first.identifier == "ACCEPT" && first.options == [.foreground] && first.opensApp)
        #expect(first.deepLink == "pushboxsample://game/42")
        _ = s.update(.key(.escape))
        _ = s.update(.key(.char("a")))
        guard case .response(let second)? = s.overlay else {
            Issue.record("the second action showed no result")
            return
        }
        #expect(second.identifier == "DECLINE" && second.options == [.destructive])
    }

    @Test("the matrix asks for every language and flags missing keys and overflow")
    mutating func matrix() {
        let commands = s.update(.key(.char("m")))
        #expect(commands.contains(.matrix(id: 6, languages: ["en", "ko", "ja", "ar", "accented"])))
        var missing = UIFixtures.note(
            "GAME_PLAY_REQUEST_TITLE", String(repeating: "とても長い文章です。", count: 20), language: "ja",
            warnings: ["key \"GAME_PLAY_REQUEST_TITLE\" is missing from Localizable in ja"])
        missing.trace.append(TraceEntry(step: .localize, ms: 0.1, outcome: .missingKeys, detail: "1 localized, 1 missing"))
        _ = s.update(
            .matrixReady([
                (language: "en", note: UIFixtures.note("Game invite", "Shelly and Rick have invited you to play Monopoly", language: "en")),
                (language: "ja", note: missing),
            ]))
        let lines = InboxView.matrixLines(s)
        #expect(lines[0].1 == .overlay)
        #expect(lines[1].0.contains("[missing key, body over 4 lines]"))
        #expect(InboxView.screen(s).lines.joined().contains("Every language"))
    }

    @Test("replay, delete, export and quit become commands")
    mutating func commands() {
        #expect(s.update(.key(.char("r"))) == [.replay(id: 6)])
        #expect(s.update(.key(.char("e"))) == [.export(id: 6)])
        let deleted = s.update(.key(.char("d")))
        #expect(deleted.first == .delete(id: 6))
        #expect(!s.list.items.contains { $0.id == 6 })
        #expect(s.update(.key(.char("q"))) == [.quit])
    }

    @Test("help is generated from the keymap: every binding appears (scrolled through)")
    mutating func help() {
        _ = s.update(.key(.char("?")))
        var text = InboxView.screen(s).lines.joined(separator: "\n")
        for _ in 0..<10 {
            _ = s.update(.key(.char("j")))
            text += InboxView.screen(s).lines.joined(separator: "\n")
        }
        for binding in Keymap.inbox { #expect(text.contains(binding.description.prefix(30))) }
    }

    @Test("a resize re-lays the screen, and a tiny terminal gets a message instead of a broken layout")
    mutating func resize() {
        _ = s.update(.resize(width: 60, height: 20))
        #expect(InboxView.screen(s).width == 60)
        _ = s.update(.resize(width: 10, height: 3))
        #expect(InboxView.screen(s).lines[0].hasPrefix("too small"))
    }

    @Test("text from payloads never carries a control character to the screen")
    func sanitized() {
        let text = DisplayText.clean("a\u{1B}[2J\u{9B}\u{7F}\u{202E}b\n")
        #expect(text == "a␛[2J⍰␡⸿b ")
        #expect(
            !InboxView.screen(s).cells.contains {
                $0.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) }
            })
    }

    @Test("wrapping respects widths: CJK breaks anywhere, words where they can")
    func wrapping() {
        #expect(DisplayText.wrap("Shelly and Rick have invited you", width: 12) == ["Shelly and", "Rick have", "invited you"])
        let wrapped = DisplayText.wrap("가나다라마바사아자차카타파하", width: 10)
        #expect(wrapped.allSatisfy { DisplayWidthCheck.columns($0) <= 10 })
        #expect(wrapped.joined() == "가나다라마바사아자차카타파하")
    }

    @Test("text cut to a number of lines ends in … (a trace step's JSON, a long reason), and text that fits does not")
    func cutLinesSaySo() {
        let json = #"FCM sends APNs: {"aps":{"alert":{"title":"Breaking","body":"A long story about many things"}},"story_id":"12345"}"#
        let lines = DisplayText.wrap(json, width: 30, maxLines: 3)
        #expect(lines.count == 3)
        #expect(lines[2].hasSuffix("…") && DisplayWidthCheck.columns(lines[2]) <= 30, "\(lines)")
        #expect(DisplayText.wrap("Shelly and Rick", width: 12, maxLines: 3) == ["Shelly and", "Rick"])
    }
}

@Suite("ThumbnailMaker in the card")
struct ThumbnailScenarioTests {
    @Test("selecting a card with an image asks for its thumbnail once the palette is known, and draws it")
    func thumbnail() {
        var s = UIFixtures.state(width: 120, height: 40)
        s.palette = 256
        var commands: [Command] = []
        for _ in 0..<3 { commands = s.update(.key(.down)) }
        #expect(s.selectedItem?.id == 4)
        guard case .thumbnail(let request)? = commands.first(where: { if case .thumbnail = $0 { return true } else { return false } }) else {
            Issue.record("no thumbnail asked for: \(commands)")
            return
        }
        #expect(request == ThumbnailRequest(path: "/cache/f620d3123f29.png", columns: 32, rows: 10, palette: 256))
        let (columns, rows) = (request.columns, request.rows)
        let cells = (0..<(columns * rows)).map { i in Thumbnail.Cell(text: "▀", foreground: 16 + i % 200, background: 17) }
        _ = s.update(.thumbnailReady(request, Thumbnail(columns: columns, rows: rows, cells: cells)))
        let screen = InboxView.screen(s)
        #expect(screen.cells.filter { $0.palette != nil }.count == columns * rows)
    }
}

@Suite("Filtering by app")
struct AppFilterTests {
    @Test("with notifications for several apps, f steps through each app after rejected and warnings")
    func apps() {
        var s = UIFixtures.state(width: 120, height: 40)
        for i in s.list.items.indices { s.list.items[i].verdict.topic = i % 2 == 0 ? "com.example.chat" : "dev.pushbox.sample" }
        for _ in 0..<3 { _ = s.update(.key(.char("f"))) }
        #expect(s.list.filter == .app("com.example.chat"))
        #expect(s.rows.allSatisfy { if case .item(let i) = $0 { return s.list.items[i].app == "com.example.chat" } else { return true } })
        #expect(InboxView.screen(s).lines[0].contains("filter: app com.example.chat"))
        _ = s.update(.key(.char("f")))
        #expect(s.list.filter == .app("dev.pushbox.sample"))
        _ = s.update(.key(.char("f")))
        #expect(s.list.filter == .all)
    }

    @Test("with one app, f cycles all, rejected and with warnings only")
    func oneApp() {
        var s = UIFixtures.state(width: 120, height: 40)
        for _ in 0..<3 { _ = s.update(.key(.char("f"))) }
        #expect(s.list.filter == .all)
    }
}
