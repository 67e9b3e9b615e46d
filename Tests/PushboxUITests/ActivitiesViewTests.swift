import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import Testing

@testable import PushboxUI

/// The Live Activities view: each activity's phase, rank, line, content and pushes.
@Suite("The Live Activities view")
struct ActivitiesViewTests {
    static let t0 = 1_796_119_200.0

    /// A book with two activities (the second more relevant, one update dropped as older, one
    /// undecodable) and a push that reached none.
    static func state(width: Int = 120, height: Int = 40) throws -> InboxState {
        var profile = LiveActivityProfile()
        var schema = ActivityTypeSchema(name: "Match")
        schema.contentState = .structure([SchemaField(name: "home", type: .int), SchemaField(name: "away", type: .int)])
        profile.types["Match"] = schema
        var book = ActivityBook()
        func aps(_ json: String) throws -> LiveActivityPush {
            LiveActivityPush(aps: try #require(try JSONParser.parse(Array(json.utf8)).objectValue))
        }
        func start(_ at: Double, _ team: String, relevance: Int) throws -> String? {
            let push = try aps(
                #"{"event": "start", "timestamp": \#(Int(at)), "attributes-type": "Match", "attributes": {"team": "\#(team)"}, "content-state": {"home": 0, "away": 0}, "input-push-token": 1, "relevance-score": \#(relevance), "alert": {"title": "Kick-off", "body": "\#(team)"}}"#
            )
            return book.apply(ActivityDelivery(push: push, token: ActivityBook.pushToStartToken, apnsID: "a", now: at), profile: profile).pushToken
        }
        let first = try #require(try start(t0, "Seoul", relevance: 10))
        _ = try start(t0 + 60, "Busan", relevance: 80)
        for (ts, state) in [(120, #"{"home": 1, "away": 0}"#), (90, #"{"home": 0, "away": 0}"#), (150, #"{"home": "2", "away": 0}"#)] {
            let push = try aps(#"{"event": "update", "timestamp": \#(Int(t0) + ts), "content-state": \#(state), "stale-date": \#(Int(t0) + 600)}"#)
            _ = book.apply(ActivityDelivery(push: push, token: first, priority: 10, now: t0 + Double(ts)), profile: profile)
        }
        _ = book.apply(ActivityDelivery(push: try aps(#"{"event": "update", "timestamp": 1}"#), token: "ff", now: t0 + 200), profile: profile)
        var s = UIFixtures.state(width: width, height: height)
        s.scheduled = ScheduledInfo(clock: "Tue 2026-12-01 10:11:40", simulated: true, pending: [], limit: 64, dropped: [], delivered: 0)
        s.activities = ActivitiesInfo(
            book: book, now: t0 + 700, clock: "Tue 2026-12-01 10:11:40", templates: ["Match": "{attributes.team} {state.home}–{state.away}"],
            timeZone: TimeZone(identifier: "UTC")!)
        return s
    }

    @Test("A opens it and asks for the activities; the Dynamic Island is the most relevant; drops say why; Esc closes it")
    func open() throws {
        var s = try Self.state()
        #expect(s.update(.key(.char("A"))) == [.loadActivities])
        #expect(s.overlay == .activities)
        let lines = InboxView.screen(s).lines
        #expect(lines.contains { $0.contains("Dynamic Island: Busan 0–0") })
        #expect(lines.contains { $0.contains("Match — active · island #1 · relevance 80") })
        #expect(lines.contains { $0.contains("Match — stale · island #2 · relevance 0") })
        #expect(lines.contains { $0.contains("× update p10 dropped: not-newer") })
        #expect(lines.contains { $0.contains("banner: Kick-off — Busan") })
        // The clock keys work here too; A closes it.
        #expect(s.update(.key(.char("+"))) == [.advanceClock(seconds: 60)])
        _ = s.update(.key(.char("A")))
        #expect(s.overlay == nil)
    }

    @Test("the content state as a tree, the undecodable update's path, what reached no activity (scrolled)")
    func scrolled() throws {
        var s = try Self.state()
        _ = s.update(.key(.char("A")))
        let all = InboxView.activityLines(s, width: 114).map(\.0)
        #expect(all.contains("    home: 1") && all.contains("    away: 0"))
        #expect(all.contains { $0.contains("decoding fails at `state.home`: expected Int, found String") })
        #expect(all.contains("reached no activity"))
        #expect(all.contains { $0.contains("dropped: no-activity") })
    }

    @Test("a dropped Live Activity push: the list says why, the card names the reason and what it would have shown")
    func droppedCard() throws {
        var s = UIFixtures.state(width: 120, height: 40)
        var r = try #require(s.renders[6])
        r.liveActivity = LiveActivityOutcome(
            event: "update", applied: false, drop: .notNewer, detail: "the activity ignores this update: its timestamp is not newer")
        r.delivered = .discarded
        r.detail = "the activity ignores this update: its timestamp is not newer"
        r.intended = AlertContent(title: "Seoul 1 – 0 Busan", subtitle: nil, body: "Goal!")
        _ = s.update(.rendered([6: r], languageKey: s.device.key))
        s.list.selected = 0
        let lines = InboxView.screen(s).lines
        // The list's column is narrow: the row begins with why.
        #expect(lines.contains { $0.contains("×  (Live Activity update dropped: not-n") })
        #expect(InboxView.summary(s.list.items[0], r, now: s.now ?? Date()) == "(Live Activity update dropped: not-newer) Seoul 1 – 0 Busan — Goal!")
        #expect(lines.contains { $0.contains("The Live Activity ignores this update: not-newer") })
        #expect(lines.contains { $0.contains("Would show: Seoul 1 – 0 Busan — Goal!") })
    }

    @Test("80×24 and 120×40: the Live Activities view")
    func snapshots() throws {
        for (w, h) in [(80, 24), (120, 40)] {
            var s = try Self.state(width: w, height: h)
            _ = s.update(.key(.char("A")))
            try ViewSnapshotTests().check("activities-\(w)x\(h)", InboxView.screen(s))
        }
    }
}
