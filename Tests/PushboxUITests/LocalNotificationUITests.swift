import Foundation
import PushboxPayload
import Testing

@testable import PushboxUI

/// The Scheduled view, the clock keys, taps on local notifications and background events.
@Suite("Local notifications and background events in the UI")
struct LocalNotificationUITests {
    static let alarmRaw = """
        {"aps":{"alert":{"title-loc-key":"ALARM_TITLE","loc-key":"ALARM_BODY","loc-args":["06:10"]},"category":"ALARM"},\
        "deepLink":"pushboxsample://alarm/2/0610","weekday":2,\
        "pushbox-local":{"identifier":"alarm-2-0","firedAt":"2026-12-07T06:10:00Z"}}
        """

    static func state() -> InboxState {
        var s = UIFixtures.state(width: 120, height: 40)
        var alarm = InboxItem(
            id: 7, apnsID: "g", receivedAt: UIFixtures.now, source: "local", status: 200, threadID: "alarm",
            sentTitle: "[ALARM_TITLE]", sentBody: "[ALARM_BODY]", rawText: alarmRaw)
        alarm.kind = .local
        var silent = InboxItem(
            id: 8, apnsID: "h", receivedAt: UIFixtures.now.addingTimeInterval(-5), source: "socket", status: 200,
            rawText: #"{"aps":{"content-available":1},"sync":"inbox"}"#)
        silent.kind = .background
        s.list.items.insert(contentsOf: [alarm, silent], at: 0)
        s.renders[7] = UIFixtures.note(
            "Time to wake up", "Your 06:10 alarm is ringing", language: "en",
            actions: [RenderedAction(identifier: "STOP", title: "Stop", options: [.destructive, .foreground])])
        var background = UIFixtures.note(nil, nil, language: "en")
        background.trace.append(
            TraceEntry(
                step: .background, ms: 0, outcome: .woken,
                detail:
                    "content-available 1 and no alert: nothing is shown; iOS wakes the app in the background; iOS's background budget is not modelled"
            ))
        s.renders[8] = background
        s.scheduled = ScheduledInfo(
            clock: "Mon 2026-12-07 06:09:50 ×60", simulated: true,
            pending: [
                .init(fire: "Mon 12-07 06:10:05", identifier: "alarm-2-5", trigger: "every Monday 06:10:05"),
                .init(fire: "Mon 12-07 06:10:10", identifier: "alarm-2-10", trigger: "every Monday 06:10:10"),
            ],
            limit: 64, dropped: ["alarm-9-0: more than 64 pending requests: iOS keeps the 64 that fire soonest"], delivered: 1)
        return s
    }

    @Test("s opens the Scheduled view: clock, n/64, pending soonest first, what was dropped")
    func scheduledView() throws {
        var s = Self.state()
        _ = s.update(.key(.char("s")))
        #expect(s.overlay == .scheduled)
        let text = InboxView.screen(s).lines.joined(separator: "\n")
        #expect(text.contains("device clock Mon 2026-12-07 06:09:50 ×60 · 2/64 pending · 1 delivered"))
        #expect(text.contains("Mon 12-07 06:10:05  alarm-2-5   every Monday 06:10:05"))
        #expect(text.contains("alarm-9-0: more than 64 pending requests"))
        #expect(text.contains("clock Mon 2026-12-07 06:09:50 ×60 · 2/64 scheduled"))  // the header
        // + and > reach the clock from inside the view, Esc closes it.
        #expect(s.update(.key(.char("+"))).contains(.advanceClock(seconds: 60)))
        #expect(s.update(.key(.char(">"))).contains(.jumpClock))
        _ = s.update(.key(.escape))
        #expect(s.overlay == nil)
        #expect(s.update(.key(.char("+"))).contains(.advanceClock(seconds: 60)))
    }

    @Test("twenty requests dropped: the latest five are listed after a line that counts the fifteen before them")
    func manyDropped() {
        var s = Self.state()
        s.scheduled?.dropped = (1...20).map { "alarm-\($0): more than 64 pending requests" }
        let lines = InboxView.scheduledLines(s, height: 40).map(\.0)
        #expect(lines.contains("dropped or refused (20):"))
        let earlier = lines.firstIndex(of: "  … and 15 earlier")
        #expect(earlier != nil, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("  alarm-") } == (16...20).map { "  alarm-\($0): more than 64 pending requests" })
    }

    @Test("without a scheduler, s and + say so and ask for nothing")
    func noScheduler() {
        var s = UIFixtures.state(width: 120, height: 40)
        #expect(!s.update(.key(.char("+"))).contains(.advanceClock(seconds: 60)))
        #expect(s.status == .unavailable(.noLocalNotifications))
        _ = s.update(.key(.char("s")))
        #expect(s.overlay == nil)
    }

    @Test("a tap answers from the payload an arrival keeps before its Raw tab is read, and says so when it has neither")
    func tapBeforeTheRawTabIsRead() throws {
        var s = Self.state()
        s.list.items[0].rawText = ""
        s.list.items[0].payloadText = Self.alarmRaw
        s.list.selected = 0
        _ = s.update(.key(.char("o")))
        guard case .response(let tap)? = s.overlay else {
            Issue.record("no tap result")
            return
        }
        #expect(tap.localRequest == "alarm-2-0" && tap.deepLink == "pushboxsample://alarm/2/0610")
        _ = s.update(.key(.escape))
        s.list.items[0].payloadText = ""
        _ = s.update(.key(.char("o")))
        #expect(s.overlay == nil && s.status == .unavailable(.payloadNotRead))
        // Once the Raw tab's text is read, the tap answers from it.
        _ = s.update(.rawLoaded(id: 7, text: Self.alarmRaw))
        _ = s.update(.key(.char("o")))
        guard case .response(let later)? = s.overlay else {
            Issue.record("no tap result once read")
            return
        }
        #expect(later.localRequest == "alarm-2-0")
    }

    @Test("tapping and choosing Stop on a fired alarm show what the app receives and log it in the trace")
    func tapAndStop() throws {
        var s = Self.state()
        s.list.selected = 0
        _ = s.update(.key(.char("o")))
        guard case .response(let tap)? = s.overlay else {
            Issue.record("no tap result")
            return
        }
        #expect(tap.identifier == "com.apple.UNNotificationDefaultActionIdentifier")
        #expect(tap.localRequest == "alarm-2-0")
        #expect(tap.userInfo == #"{"deepLink":"pushboxsample://alarm/2/0610","weekday":2}"#)  // pushbox's block is not the app's
        #expect(tap.deepLink == "pushboxsample://alarm/2/0610")
        _ = s.update(.key(.escape))
        _ = s.update(.key(.char("a")))
        guard case .response(let stop)? = s.overlay else {
            Issue.record("no action result")
            return
        }
        #expect(stop.identifier == "STOP" && stop.options == [.destructive, .foreground])
        _ = s.update(.key(.escape))
        #expect(s.card.responses[7]?.map(\.outcome) == [.tap, .action])
        s.card.tab = .trace
        let trace = InboxView.screen(s).lines.joined(separator: "\n")
        #expect(trace.contains("response"))
        #expect(trace.contains("actionIdentifier STOP"))
    }

    @Test("a silent push is a background event: no banner, a marker, nothing to tap")
    func backgroundEvent() throws {
        var s = Self.state()
        s.list.selected = 1
        _ = s.update(.resize(width: 120, height: 40))
        let lines = InboxView.screen(s).lines
        #expect(lines.contains { $0.contains("⌁") && $0.contains("background event") })
        #expect(lines.joined().contains("Background event — no banner, no sound"))
        #expect(lines.joined().contains("background budget is not modelled"))
        _ = s.update(.key(.char("o")))
        #expect(s.overlay == nil)
        #expect(s.status == .unavailable(.nothingToTap))
    }

    @Test("120×40: the Scheduled view")
    func snapshot() throws {
        var s = Self.state()
        _ = s.update(.key(.char("s")))
        try ViewSnapshotTests().check("scheduled-120x40", InboxView.screen(s))
    }
}
