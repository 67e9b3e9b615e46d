import Foundation
import Testing

@testable import PushboxUI

/// The chaos view: the rules with how often each fired, switched on and off, added by typing,
/// removed; the header says "chaos on" while any rule is, and an injected answer is marked in
/// the Requests view.
@Suite("The chaos view")
struct ChaosViewTests {
    static func state() -> InboxState {
        var s = UIFixtures.state(width: 120, height: 40)
        _ = s.update(
            .chaos(
                ChaosPanel(
                    rules: [
                        .init(id: 1, text: "fcm 503 UNAVAILABLE retry-after=5 next=2", active: true, spent: false, matched: 3, fired: 1),
                        .init(id: 2, text: "goaway debug={\"reason\":\"Shutdown\"}", active: false, spent: false, matched: 0, fired: 0),
                    ], armed: true)))
        return s
    }

    @Test("C opens it and asks for the rules; the header says chaos on; space switches, d removes, X clears")
    func keys() throws {
        var s = Self.state()
        #expect(InboxView.screen(s).lines[0].contains("chaos on"))
        #expect(s.update(.key(.char("C"))) == [.loadChaos])
        #expect(s.overlay == .chaos)
        #expect(s.update(.key(.char(" "))) == [.setChaosRule(id: 1, active: false)])
        #expect(s.update(.key(.down)) == [])
        #expect(s.update(.key(.char(" "))) == [.setChaosRule(id: 2, active: true)])
        #expect(s.update(.key(.char("d"))) == [.removeChaosRule(id: 2)])
        #expect(s.update(.key(.char("X"))) == [.clearChaos])
        _ = s.update(.chaos(ChaosPanel()))
        #expect(!InboxView.screen(s).lines[0].contains("chaos on"))
        _ = s.update(.key(.escape))
        #expect(s.overlay == nil)
    }

    @Test("a adds a rule as typed: Enter asks for it, Esc forgets it; keys go to the rule while it is typed")
    func typing() {
        var s = Self.state()
        _ = s.update(.key(.char("C")))
        _ = s.update(.key(.char("a")))
        for c in "reset d" { _ = s.update(.key(.char(c))) }
        _ = s.update(.key(.backspace))
        _ = s.update(.key(.backspace))
        #expect(InboxView.screen(s).lines.contains { $0.contains("add: reset▏") })
        #expect(s.update(.key(.enter)) == [.addChaosRule("reset")])
        _ = s.update(.key(.char("a")))
        _ = s.update(.key(.char("x")))
        #expect(s.update(.key(.escape)) == [])
        #expect(s.chaos.typed == nil && s.overlay == .chaos)
    }

    @Test("an answer chaos made is marked in the Requests view with its rule")
    func requestsMarked() {
        var s = Self.state()
        s.requests = [
            RequestLine(
                time: "12:40:03", status: 503, reason: "UNAVAILABLE", request: "POST /v1/projects/shop/messages:send", via: "h2 tcp 127.0.0.1:2197",
                cause: nil, chaos: "#1 fcm 503 UNAVAILABLE retry-after=5 next=2")
        ]
        _ = s.update(.key(.char("R")))
        #expect(InboxView.screen(s).lines.contains { $0.contains("chaos 12:40:03 503 UNAVAILABLE") && $0.contains("[#1 fcm 503") })
    }

    @Test("120×40: the chaos view")
    func snapshot() throws {
        var s = Self.state()
        _ = s.update(.key(.char("C")))
        try ViewSnapshotTests().check("chaos-120x40", InboxView.screen(s))
    }
}
