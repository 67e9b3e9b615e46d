import Foundation
import PushboxLocalization
import Testing

@testable import PushboxUI

/// The pure view at fixed sizes, compared with snapshots stored beside this test.
/// `PUSHBOX_RECORD_SNAPSHOTS=1 swift test` rewrites them (and fails, so a recording never passes).
@Suite("View snapshots")
struct ViewSnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots").path

    func check(_ name: String, _ screen: Screen) throws {
        let text = screen.lines.joined(separator: "\n") + "\n"
        let path = Self.directory + "/\(name).txt"
        if ProcessInfo.processInfo.environment["PUSHBOX_RECORD_SNAPSHOTS"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record("recorded \(name); run again without PUSHBOX_RECORD_SNAPSHOTS")
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        if text != expected {
            let a = text.split(separator: "\n", omittingEmptySubsequences: false)
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            for (i, (x, y)) in zip(a, e).enumerated() where x != y { Issue.record("\(name) line \(i):\n got      |\(x)|\n expected |\(y)|") }
            if a.count != e.count { Issue.record("\(name): \(a.count) lines, expected \(e.count)") }
        }
        // Every line fills the screen's width exactly: wide graphemes never spill.
        for (i, line) in screen.lines.enumerated() {
            #expect(DisplayWidthCheck.columns(line) == screen.width, "line \(i) of \(name) is \(DisplayWidthCheck.columns(line)) columns")
        }
    }

    @Test("the header names the TCP port before the socket's path")
    func headerPort() throws {
        var state = UIFixtures.state(width: 160, height: 24)
        #expect(!InboxView.screen(state).lines[0].contains("port "))
        state.intake.port = "127.0.0.1:2197"
        let header = InboxView.screen(state).lines[0]
        #expect(header.contains("· port 127.0.0.1:2197 · socket /run/user/1000/pushbox/pushbox.sock ·"), "\(header)")
    }

    @Test("80×24: list of Korean, Japanese, Arabic and emoji notifications")
    func list80() throws {
        try check("inbox-80x24", InboxView.screen(UIFixtures.state(width: 80, height: 24)))
    }

    @Test("120×40: list and card side by side, with action buttons")
    func split120() throws {
        try check("inbox-120x40", InboxView.screen(UIFixtures.state(width: 120, height: 40)))
    }

    @Test("40×15: the card alone on a narrow screen, lock-screen truncation on")
    func narrow40() throws {
        var s = UIFixtures.state(width: 40, height: 15)
        _ = s.update(.key(.down))  // the thread's header
        _ = s.update(.key(.down))  // its newest notification
        _ = s.update(.key(.enter))
        s.card.lockScreen = true
        try check("card-40x15", InboxView.screen(s))
    }

    @Test("120×40: the trace, the help overlay, and a payload with escape sequences")
    func traceAndHelp() throws {
        var s = UIFixtures.state(width: 120, height: 40)
        _ = s.update(.key(.char("G")))
        _ = s.update(.key(.tab))
        try check("trace-escapes-120x40", InboxView.screen(s))
        _ = s.update(.key(.char("?")))
        try check("help-120x40", InboxView.screen(s))
    }
}

enum DisplayWidthCheck {
    static func columns(_ s: String) -> Int { DisplayWidth.of(s) }
}
