import Foundation
import PushboxJSON
import Testing

@testable import PushboxDevice
@testable import PushboxPayload

/// The device's Live Activities on a test clock: each push applied or dropped by the rules
/// ActivityKit applies, with the typed reason.
@Suite("Live Activities on the simulated device")
struct LiveActivityTests {
    static let t0 = 1_796_119_200.0  // 2026-12-01T10:00:00Z

    /// A profile with one type, `Match`, and these budgets.
    static func profile(priority10: Int = 20, pushToStart: Int = 10, maxRunning: Int = 5) throws -> LiveActivityProfile {
        var p = LiveActivityProfile()
        var schema = ActivityTypeSchema(name: "Match")
        schema.attributes = try SchemaType.parse(try JSONParser.parse(Array(#"{"home": "String", "away": "String"}"#.utf8))).get()
        schema.contentState = try SchemaType.parse(
            try JSONParser.parse(Array(#"{"score": "Int", "period": {"enum": ["first", "second"]}, "note": "String?"}"#.utf8))
        ).get()
        p.types["Match"] = schema
        p.budget.priority10PerHour = priority10
        p.budget.pushToStartPerHour = pushToStart
        p.budget.maxRunning = maxRunning
        return p
    }

    static func aps(_ json: String) throws -> LiveActivityPush {
        LiveActivityPush(aps: try #require(try JSONParser.parse(Array(json.utf8)).objectValue))
    }

    /// A start at `at` (its timestamp `at` too) to the push-to-start token; the outcome.
    static func start(_ book: inout ActivityBook, at: Double, profile: LiveActivityProfile, relevance: Double = 0) throws -> LiveActivityOutcome {
        let push = try aps(
            #"{"event": "start", "timestamp": \#(Int(at)), "attributes-type": "Match", "attributes": {"home": "Seoul", "away": "Busan"}, "content-state": {"score": 0, "period": "first"}, "input-push-token": 1, "relevance-score": \#(relevance)}"#
        )
        return book.apply(ActivityDelivery(push: push, token: ActivityBook.pushToStartToken, now: at), profile: profile)
    }

    static func update(
        _ book: inout ActivityBook, token: String, timestamp: Double, now: Double, state: String = #"{"score": 1, "period": "first"}"#,
        priority: Int = 10, extra: String = ""
    ) throws -> LiveActivityOutcome {
        let push = try aps(#"{"event": "update", "timestamp": \#(Int(timestamp)), "content-state": \#(state)\#(extra)}"#)
        return book.apply(ActivityDelivery(push: push, token: token, priority: priority, now: now), profile: try profile())
    }

    @Test("push-to-start gives an update token; updates to it apply, a wrong token reaches nothing")
    func pushToStartThenUpdate() throws {
        var book = ActivityBook()
        let started = try Self.start(&book, at: Self.t0, profile: try Self.profile())
        #expect(started.applied)
        let token = try #require(started.pushToken)
        #expect(book.activities.count == 1 && book.activities[0].pushToken == token && book.activities[0].startedBy == "push-to-start")
        let updated = try Self.update(&book, token: token, timestamp: Self.t0 + 60, now: Self.t0 + 60)
        #expect(updated.applied && book.activities[0].state.objectValue?["score"] == 1)
        let stray = try Self.update(&book, token: "ab" + String(repeating: "0", count: 62), timestamp: Self.t0 + 120, now: Self.t0 + 120)
        #expect(stray.drop == .noActivity && book.unmatched.count == 1)
        // A start must go to the push-to-start token; an update cannot use it.
        let misplaced = try Self.update(&book, token: ActivityBook.pushToStartToken, timestamp: Self.t0 + 130, now: Self.t0 + 130)
        #expect(misplaced.drop == .noActivity)
        let push = try Self.aps(
            #"{"event": "start", "timestamp": 1, "attributes-type": "Match", "attributes": {"home": "a", "away": "b"}, "content-state": {"score": 0, "period": "first"}}"#
        )
        #expect(book.apply(ActivityDelivery(push: push, token: token, now: Self.t0), profile: try Self.profile()).drop == .notPushToStartToken)
    }

    @Test("ordering: an update not newer than the last (older or equal) is dropped, more than 8 h ahead too; an end does not care")
    func ordering() throws {
        var book = ActivityBook()
        let token = try #require(try Self.start(&book, at: Self.t0, profile: try Self.profile()).pushToken)
        #expect(try Self.update(&book, token: token, timestamp: Self.t0 + 600, now: Self.t0 + 10).applied)
        #expect(try Self.update(&book, token: token, timestamp: Self.t0 + 300, now: Self.t0 + 20).drop == .notNewer)
        #expect(try Self.update(&book, token: token, timestamp: Self.t0 + 600, now: Self.t0 + 30).drop == .notNewer)
        #expect(try Self.update(&book, token: token, timestamp: Self.t0 + 8 * 3600 + 100, now: Self.t0 + 40).drop == .tooFarAhead)
        #expect(try Self.update(&book, token: token, timestamp: Self.t0 + 8 * 3600, now: Self.t0 + 50).applied)
        let noTimestamp = try Self.aps(#"{"event": "update", "content-state": {"score": 1, "period": "first"}}"#)
        #expect(
            book.apply(ActivityDelivery(push: noTimestamp, token: token, now: Self.t0 + 60), profile: try Self.profile()).drop == .missingTimestamp)
        let end = try Self.aps(#"{"event": "end", "timestamp": \#(Int(Self.t0)), "content-state": {"score": 3, "period": "second"}}"#)
        #expect(book.apply(ActivityDelivery(push: end, token: token, now: Self.t0 + 70), profile: try Self.profile()).applied)
        #expect(try Self.update(&book, token: token, timestamp: Self.t0 + 9 * 3600, now: Self.t0 + 80).drop == .ended)
        // Every push is on the activity's timeline, each with its verdict.
        let drops = book.activities[0].timeline.map { $0.drop?.rawValue ?? "applied" }
        #expect(
            drops == ["applied", "applied", "not-newer", "not-newer", "too-far-ahead", "applied", "missing-timestamp", "applied", "activity-ended"])
    }

    @Test("stale-date, dismissal-date and the 8-hour life, on the device clock")
    func staleAndDismissal() throws {
        var book = ActivityBook()
        let token = try #require(try Self.start(&book, at: Self.t0, profile: try Self.profile()).pushToken)
        #expect(
            try Self.update(&book, token: token, timestamp: Self.t0 + 1, now: Self.t0 + 1, extra: #", "stale-date": \#(Int(Self.t0) + 600)"#)
                .applied)
        #expect(book.activities[0].phase(at: Self.t0 + 599) == .active)
        #expect(book.activities[0].phase(at: Self.t0 + 600) == .stale)
        let end = try Self.aps(#"{"event": "end", "timestamp": \#(Int(Self.t0) + 700), "dismissal-date": \#(Int(Self.t0) + 700 + 3600)}"#)
        #expect(book.apply(ActivityDelivery(push: end, token: token, now: Self.t0 + 700), profile: try Self.profile()).applied)
        #expect(book.activities[0].phase(at: Self.t0 + 700 + 3599) == .ended)
        #expect(book.activities[0].phase(at: Self.t0 + 700 + 3600) == .dismissed)

        // No dismissal-date: about 4 hours; one in the past: at once.
        var second = ActivityBook()
        let t2 = try #require(try Self.start(&second, at: Self.t0, profile: try Self.profile()).pushToken)
        _ = second.apply(ActivityDelivery(push: try Self.aps(#"{"event": "end"}"#), token: t2, now: Self.t0 + 10), profile: try Self.profile())
        #expect(second.activities[0].dismissAt == Self.t0 + 10 + 4 * 3600)
        var third = ActivityBook()
        let t3 = try #require(try Self.start(&third, at: Self.t0, profile: try Self.profile()).pushToken)
        let past = try Self.aps(#"{"event": "end", "dismissal-date": \#(Int(Self.t0) - 60)}"#)
        _ = third.apply(ActivityDelivery(push: past, token: t3, now: Self.t0 + 10), profile: try Self.profile())
        #expect(third.activities[0].phase(at: Self.t0 + 10) == .dismissed)

        // Unended, it ends by itself 8 hours after it started and leaves 4 hours later.
        var fourth = ActivityBook()
        let t4 = try #require(try Self.start(&fourth, at: Self.t0, profile: try Self.profile()).pushToken)
        #expect(fourth.activities[0].phase(at: Self.t0 + 8 * 3600 - 1) == .active)
        #expect(fourth.activities[0].phase(at: Self.t0 + 8 * 3600) == .ended)
        #expect(fourth.activities[0].phase(at: Self.t0 + 12 * 3600) == .dismissed)
        #expect(try Self.update(&fourth, token: t4, timestamp: Self.t0 + 8 * 3600 + 5, now: Self.t0 + 8 * 3600 + 5).drop == .ended)
    }

    @Test("the priority-10 budget per hour (priority 5 is not counted), the push-to-start budget, and the running limit")
    func budgets() throws {
        var book = ActivityBook()
        let profile = try Self.profile(priority10: 2, pushToStart: 3, maxRunning: 2)
        let token = try #require(try Self.start(&book, at: Self.t0, profile: profile).pushToken)
        func update(_ i: Double, priority: Int = 10) -> ActivityDrop? {
            let push = try! Self.aps(#"{"event": "update", "timestamp": \#(Int(Self.t0 + i)), "content-state": {"score": 1, "period": "first"}}"#)
            let o = book.apply(ActivityDelivery(push: push, token: token, priority: priority, now: Self.t0 + i), profile: profile)
            return o.applied ? nil : o.drop
        }
        #expect(update(1) == nil)
        #expect(update(2) == nil)
        #expect(update(3) == .priorityBudget)
        #expect(update(4, priority: 5) == nil)
        // An hour after the first, its slot is free again; an hour after the second, its too.
        #expect(update(3601) == nil)
        #expect(update(3602) == nil)
        #expect(update(3603) == .priorityBudget)
        // Push-to-start: the third start is the budget's last; the running limit is 2.
        #expect(try Self.start(&book, at: Self.t0 + 10, profile: profile).applied)
        #expect(try Self.start(&book, at: Self.t0 + 20, profile: profile).drop == .tooManyActivities)
        var starts = ActivityBook()
        let many = try Self.profile(pushToStart: 2)
        #expect(try Self.start(&starts, at: Self.t0, profile: many).applied)
        #expect(try Self.start(&starts, at: Self.t0 + 1, profile: many).applied)
        #expect(try Self.start(&starts, at: Self.t0 + 2, profile: many).drop == .pushToStartBudget)
    }

    @Test("relevance orders the activities; the highest running one is the Dynamic Island's, ties to the one started first")
    func relevanceOrder() throws {
        var book = ActivityBook()
        _ = try Self.start(&book, at: Self.t0, profile: try Self.profile(), relevance: 10)
        _ = try Self.start(&book, at: Self.t0 + 1, profile: try Self.profile(), relevance: 50)
        _ = try Self.start(&book, at: Self.t0 + 2, profile: try Self.profile(), relevance: 50)
        let ids = book.activities.map(\.id)
        #expect(book.island(at: Self.t0 + 3).map(\.id) == [ids[1], ids[2], ids[0]])
        // An update lowers the second's relevance: the third leads.
        let token = try #require(book.activities[1].pushToken)
        #expect(try Self.update(&book, token: token, timestamp: Self.t0 + 5, now: Self.t0 + 5, extra: #", "relevance-score": 5"#).applied)
        #expect(book.island(at: Self.t0 + 6).map(\.id) == [ids[2], ids[0], ids[1]])
    }

    @Test("a content-state that does not decode is dropped with the path and the DecodingError's kind")
    func decodingFailures() throws {
        var book = ActivityBook()
        let token = try #require(try Self.start(&book, at: Self.t0, profile: try Self.profile()).pushToken)
        let cases: [(String, DecodingFailure.Kind, String)] = [
            (#"{"period": "first"}"#, .keyNotFound, "state.score"),
            (#"{"score": null, "period": "first"}"#, .valueNotFound, "state.score"),
            (#"{"score": "1", "period": "first"}"#, .typeMismatch, "state.score"),
            (#"{"score": 1.5, "period": "first"}"#, .numberDoesNotFit, "state.score"),
            (#"{"score": 9223372036854775808, "period": "first"}"#, .numberDoesNotFit, "state.score"),
            (#"{"score": 1, "period": "third"}"#, .invalidEnumValue, "state.period"),
            (#"{"score": 1, "period": "first", "note": 7}"#, .typeMismatch, "state.note"),
        ]
        for (i, (state, kind, path)) in cases.enumerated() {
            let o = try Self.update(&book, token: token, timestamp: Self.t0 + Double(i + 1), now: Self.t0 + Double(i + 1), state: state)
            #expect(o.drop == .stateDoesNotDecode, "\(state)")
            #expect(o.notes.contains("decoding: \(kind.rawValue)"), "\(state): \(o.notes)")
            #expect(o.detail.contains("`\(path)`"), "\(state): \(o.detail)")
        }
        // Extra fields are ignored, an optional may be missing, 1.0 and 1e1 decode as Int.
        let fine = try Self.update(
            &book, token: token, timestamp: Self.t0 + 100, now: Self.t0 + 100, state: #"{"score": 1e1, "period": "second", "extra": true}"#)
        #expect(fine.applied && fine.state == .object(JSONObject([("score", 10), ("period", .string("second"))])))
        // A start whose attributes do not decode does not start.
        let bad = try Self.aps(
            #"{"event": "start", "timestamp": 1, "attributes-type": "Match", "attributes": {"home": 1, "away": "b"}, "content-state": {"score": 0, "period": "first"}}"#
        )
        #expect(
            book.apply(ActivityDelivery(push: bad, token: ActivityBook.pushToStartToken, now: Self.t0), profile: try Self.profile()).drop
                == .attributesDoNotDecode)
        let unknown = try Self.aps(#"{"event": "start", "timestamp": 1, "attributes-type": "Other", "attributes": {}, "content-state": {}}"#)
        #expect(
            book.apply(ActivityDelivery(push: unknown, token: ActivityBook.pushToStartToken, now: Self.t0), profile: try Self.profile()).drop
                == .unknownType)
    }

    @Test("dates decode with the app's strategy; deferredToDate counts from 2001, so a UNIX time lands in 2057")
    func dates() throws {
        let type = SchemaType.structure([SchemaField(name: "eta", type: .date)])
        func decode(_ json: String, _ dates: DateDecoding) throws -> Result<DecodedContent, DecodingFailure> {
            ContentDecoder.decode(try JSONParser.parse(Array(json.utf8)), as: type, root: "state", dates: dates)
        }
        let deferred = try decode(#"{"eta": 1796119200}"#, .deferredToDate).get()
        #expect(Calendar(identifier: .gregorian).component(.year, from: deferred.dates[0].date) == 2057)
        #expect(try decode(#"{"eta": 1796119200}"#, .secondsSince1970).get().dates[0].date == Date(timeIntervalSince1970: 1_796_119_200))
        #expect(try decode(#"{"eta": 1796119200000}"#, .millisecondsSince1970).get().dates[0].date == Date(timeIntervalSince1970: 1_796_119_200))
        #expect(try decode(#"{"eta": "2026-12-01T10:00:00Z"}"#, .iso8601).get().dates[0].date == Date(timeIntervalSince1970: 1_796_119_200))
        guard case .failure(let f) = try decode(#"{"eta": "tomorrow"}"#, .iso8601) else {
            Issue.record("decoded")
            return
        }
        #expect(f.kind == .badDate && f.path == "state.eta")
        guard case .failure(let g) = try decode(#"{"eta": "2026-12-01T10:00:00Z"}"#, .deferredToDate) else {
            Issue.record("decoded")
            return
        }
        #expect(g.kind == .typeMismatch && g.message == "decoding fails at `state.eta`: expected Double (deferredToDate dates), found String")
    }

    @Test("the 4 KB boundary: a content state of 4,096 bytes once encoded applies, 4,097 is refused; attributes the same")
    func sizeBoundary() throws {
        var book = ActivityBook()
        var p = try Self.profile()
        p.types["Match"]?.contentState = nil  // taken as sent: its encoded size is its compact JSON
        p.types["Match"]?.attributes = nil
        let started = book.startLocally(type: "Match", attributes: .object(JSONObject()), state: .object(JSONObject()), now: Self.t0, profile: p)
        let token = try #require(started.pushToken)
        // {"s":"…"} is 8 bytes around the string.
        func state(_ bytes: Int) -> String { #"{"s":""# + String(repeating: "x", count: bytes - 8) + #""}"# }
        #expect(LiveActivityPush.encodedSize(try JSONParser.parse(Array(state(4096).utf8))) == 4096)
        let push = { (i: Int, s: String) in
            try Self.aps(#"{"event": "update", "timestamp": \#(Int(Self.t0) + i), "content-state": \#(s)}"#)
        }
        #expect(book.apply(ActivityDelivery(push: try push(1, state(4096)), token: token, now: Self.t0 + 1), profile: p).applied)
        #expect(book.apply(ActivityDelivery(push: try push(2, state(4097)), token: token, now: Self.t0 + 2), profile: p).drop == .stateTooLarge)
        let big = try JSONParser.parse(Array(state(4097).utf8))
        #expect(book.startLocally(type: "Match", attributes: big, state: .object(JSONObject()), now: Self.t0, profile: p).drop == .attributesTooLarge)
        let fits = try JSONParser.parse(Array(state(4096).utf8))
        #expect(book.startLocally(type: "Match", attributes: fits, state: .object(JSONObject()), now: Self.t0, profile: p).applied)
        // Fractional numbers that 17-digit re-encoding inflates past 4 KB are applied, with a note.
        let numbers = "{\"v\":[" + Array(repeating: "1.91", count: 800).joined(separator: ",") + "]}"
        let inflated = book.apply(ActivityDelivery(push: try push(3, numbers), token: token, now: Self.t0 + 3), profile: p)
        #expect(inflated.applied && inflated.notes.contains { $0.contains("1.9099999999999999") })
    }

    @Test("the profile's liveActivities section: types, schemas, templates and budgets; a bad type names its path")
    func profileSection() throws {
        let good =
            #"{"bundleId": "a.b", "liveActivities": {"types": {"Match": {"contentState": {"score": "Int", "stops": ["String"], "eta": "Date?"}, "dateDecoding": "iso8601", "template": "{state.score}"}}, "budget": {"priority10PerHour": 3}}}"#
        let profile = try AppProfile.parse(Array(good.utf8), directory: "/tmp")
        let match = try #require(profile.liveActivities.types["Match"])
        #expect(match.dates == .iso8601 && match.template == "{state.score}" && profile.liveActivities.budget.priority10PerHour == 3)
        #expect(
            match.contentState
                == .structure([
                    SchemaField(name: "score", type: .int), SchemaField(name: "stops", type: .array(.string)),
                    SchemaField(name: "eta", type: .optional(.date)),
                ]))
        let bad = #"{"liveActivities": {"types": {"Match": {"contentState": {"courier": {"name": "Strin"}}}}}}"#
        #expect(throws: AppProfile.LoadError.self) { try AppProfile.parse(Array(bad.utf8), directory: "/tmp") }
        do { _ = try AppProfile.parse(Array(bad.utf8), directory: "/tmp") } catch {
            #expect(error.path == "liveActivities.types.Match.contentState.courier.name")
        }
    }

    @Test("the lock-screen line fills the template from the attributes and the state")
    func template() throws {
        var book = ActivityBook()
        _ = try Self.start(&book, at: Self.t0, profile: try Self.profile())
        #expect(
            book.activities[0].line("{attributes.home} {state.score}–? {attributes.away} · {state.period} {state.missing}")
                == "Seoul 0–? Busan · first ?")
    }

    @Test("the book survives its file: every activity, event and budget read back as written")
    func roundTrip() throws {
        var book = ActivityBook()
        let token = try #require(try Self.start(&book, at: Self.t0, profile: try Self.profile()).pushToken)
        _ = try Self.update(&book, token: token, timestamp: Self.t0 + 5, now: Self.t0 + 5, extra: #", "stale-date": \#(Int(Self.t0) + 900)"#)
        _ = try Self.update(&book, token: token, timestamp: Self.t0 + 1, now: Self.t0 + 6)
        _ = try Self.update(&book, token: "ff", timestamp: Self.t0 + 7, now: Self.t0 + 7)
        let again = ActivityBook(json: try JSONParser.parse(Array(JSONWriter.compact(book.json).utf8)))
        #expect(again == book)
        let outcome = try Self.update(&book, token: token, timestamp: Self.t0, now: Self.t0 + 8)
        #expect(LiveActivityOutcome(json: outcome.json) == outcome)
    }
}
