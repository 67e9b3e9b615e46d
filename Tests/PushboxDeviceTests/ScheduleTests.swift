import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxDevice
@testable import PushboxPayload

@Suite("Local notifications: the pending set")
struct ScheduleTests {
    static func calendar(_ zone: String = "UTC") -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: zone)!
        return c
    }

    static func date(_ text: String, zone: String = "UTC") -> Date {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: zone)!
        f.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        return f.date(from: text)!
    }

    /// The seed's alarm time: every Monday (weekday 2) at 06:10.
    static let monday0610 = DateComponents(hour: 6, minute: 10, weekday: 2)

    func request(_ id: String, _ trigger: Trigger?, content: JSONObject = JSONObject([("body", "x")])) -> LocalRequest {
        LocalRequest(identifier: id, content: content, trigger: trigger)
    }

    @Test("70 requests: the 64 soonest stay pending, the rest are dropped with the reason")
    func limit() {
        var set = PendingSet(calendar: Self.calendar())
        let now = Self.date("2026-12-07T06:00:00")
        set.add((1...70).reversed().map { request("r\($0)", .timeInterval(seconds: Double($0 * 10), repeats: false)) }, now: now)
        #expect(set.pending.count == 64)
        #expect(set.pending.first?.request.identifier == "r1")
        #expect(set.pending.last?.request.identifier == "r64")
        #expect(Set(set.dropped.map(\.identifier)) == ["r65", "r66", "r67", "r68", "r69", "r70"])
        #expect(set.dropped.allSatisfy { $0.reason.contains("keeps the 64 that fire soonest") })
    }

    @Test("only the latest 500 drops are remembered")
    func dropsBounded() {
        var set = PendingSet(calendar: Self.calendar())
        let now = Self.date("2026-12-07T06:00:00")
        set.add((0..<(PendingSet.limit + 600)).map { request("r\($0)", .timeInterval(seconds: Double($0 + 1), repeats: false)) }, now: now)
        #expect(set.pending.count == PendingSet.limit)
        #expect(set.dropped.count == PendingSet.droppedKept)
        #expect(set.dropped.last?.identifier == "r\(PendingSet.limit + 599)")
    }

    @Test("a pending identifier is replaced; cancel works by identifier and by prefix")
    func replaceAndCancel() {
        var set = PendingSet(calendar: Self.calendar())
        let now = Self.date("2026-12-07T06:00:00")
        set.add([request("a", .timeInterval(seconds: 100, repeats: false))], now: now)
        set.add([request("a", .timeInterval(seconds: 5, repeats: false))], now: now)
        #expect(set.pending.count == 1 && set.pending[0].nextFire == now.addingTimeInterval(5))
        set.add(
            (0..<12).map { request("alarm-2-\($0 * 5)", .timeInterval(seconds: 60 + Double($0), repeats: false)) }
                + [request("alarm-3-0", .timeInterval(seconds: 70, repeats: false))], now: now)
        #expect(set.cancel("alarm-2-*").count == 12)
        #expect(set.pending.map(\.request.identifier) == ["a", "alarm-3-0"])
        #expect(set.cancel("a") == ["a"])
    }

    @Test("a repeating interval under 60 seconds is refused with iOS's message")
    func underSixty() {
        var set = PendingSet(calendar: Self.calendar())
        let refused = set.add(
            [request("fast", .timeInterval(seconds: 5, repeats: true)), request("zero", .timeInterval(seconds: 0, repeats: false))], now: Date())
        #expect(refused.map(\.reason) == ["time interval must be at least 60 if repeating", "time interval must be greater than 0"])
        #expect(set.pending.isEmpty)
    }

    @Test("calendar triggers: Monday 06:10 across a month end and a daylight-saving change")
    func calendarTriggers() {
        let monday = Self.monday0610
        // A month end: from Saturday 31 October 2026 in Berlin to Monday 2 November.
        var set = PendingSet(calendar: Self.calendar("Europe/Berlin"))
        set.add([request("alarm", .dateMatching(monday, repeats: true))], now: Self.date("2026-10-31T12:00:00", zone: "Europe/Berlin"))
        #expect(set.pending.first?.nextFire == Self.date("2026-11-02T06:10:00", zone: "Europe/Berlin"))
        // Across the autumn change (25 October 2026): Saturday 24 October (CEST) → Monday 26
        // October, 06:10 local (CET) = 05:10 UTC.
        var autumn = PendingSet(calendar: Self.calendar("Europe/Berlin"))
        autumn.add([request("alarm", .dateMatching(monday, repeats: true))], now: Self.date("2026-10-24T09:00:00", zone: "Europe/Berlin"))
        #expect(autumn.pending.first?.nextFire == Self.date("2026-10-26T05:10:00"))
        // Across the spring change (29 March 2026): Saturday 28 March → Monday 30 March, 06:10 local (CEST).
        var spring = PendingSet(calendar: Self.calendar("Europe/Berlin"))
        spring.add([request("alarm", .dateMatching(monday, repeats: true))], now: Self.date("2026-03-28T09:00:00", zone: "Europe/Berlin"))
        #expect(spring.pending.first?.nextFire == Self.date("2026-03-30T04:10:00"))  // 06:10 CEST is 04:10 UTC
    }

    @Test("a day a month does not have fires the next day at the requested time, as UNCalendarNotificationTrigger does")
    func missingDay() {
        var set = PendingSet(calendar: Self.calendar())
        set.add([request("leap", .dateMatching(DateComponents(month: 2, day: 29, hour: 9), repeats: false))], now: Self.date("2026-12-07T06:00:00"))
        #expect(set.pending.first?.nextFire == Self.date("2027-03-01T09:00:00"))
        var april = PendingSet(calendar: Self.calendar())
        april.add(
            [request("31st", .dateMatching(DateComponents(day: 31, hour: 7, minute: 30), repeats: false))], now: Self.date("2027-04-02T06:00:00"))
        #expect(april.pending.first?.nextFire == Self.date("2027-05-01T07:30:00"), "\(String(describing: april.pending.first?.nextFire))")
    }

    @Test("the device travels: a calendar trigger keeps its wall-clock time in the new zone; an interval keeps its instant")
    func deviceTimeZoneChange() {
        let monday = Self.monday0610
        var set = PendingSet(calendar: Self.calendar("Europe/Berlin"))
        let now = Self.date("2026-12-05T12:00:00", zone: "Europe/Berlin")
        set.add([request("alarm", .dateMatching(monday, repeats: true)), request("later", .timeInterval(seconds: 7200, repeats: false))], now: now)
        #expect(set.pending.first { $0.request.identifier == "alarm" }?.nextFire == Self.date("2026-12-07T06:10:00", zone: "Europe/Berlin"))
        set.changeTimeZone(to: TimeZone(identifier: "Asia/Seoul")!, now: now)
        #expect(set.pending.first { $0.request.identifier == "alarm" }?.nextFire == Self.date("2026-12-07T06:10:00", zone: "Asia/Seoul"))
        #expect(set.pending.first { $0.request.identifier == "later" }?.nextFire == now.addingTimeInterval(7200))
        #expect(set.pending.map(\.request.identifier) == ["later", "alarm"])  // still soonest first
    }

    @Test("a repeating trigger is rescheduled after delivery; a one-shot is not")
    func rescheduled() {
        var everyMinute = DateComponents()
        everyMinute.second = 30
        var set = PendingSet(calendar: Self.calendar())
        let now = Self.date("2026-12-07T06:00:00")
        set.add(
            [
                request("tick", .dateMatching(everyMinute, repeats: true)), request("once", .timeInterval(seconds: 10, repeats: false)),
                request("hourly", .timeInterval(seconds: 3600, repeats: true)),
            ], now: now)
        let fired = set.deliverDue(now: now.addingTimeInterval(40))
        #expect(fired.map(\.request.identifier) == ["once", "tick"])
        #expect(set.pending.map(\.request.identifier) == ["tick", "hourly"])
        #expect(set.pending[0].nextFire == Self.date("2026-12-07T06:01:30"))
        _ = set.deliverDue(now: now.addingTimeInterval(3600))
        #expect(set.pending.first { $0.request.identifier == "hourly" }?.nextFire == now.addingTimeInterval(7200))
    }

    @Test("an invalid attachment means the request is not scheduled")
    func invalidAttachment() {
        var set = PendingSet(calendar: Self.calendar())
        let good = JSONObject([("body", "x"), ("attachments", .array([.object(JSONObject([("file", .string("media/lighthouse.png"))]))]))])
        let missing = JSONObject([("body", "x"), ("attachments", .array([.object(JSONObject([("file", "media/none.png")]))]))])
        let text = JSONObject([("body", "x"), ("attachments", .array([.object(JSONObject([("file", "index.json")]))]))])
        let refused = set.add(
            [request("good", nil, content: good), request("missing", nil, content: missing), request("text", nil, content: text)],
            now: Date(), baseDirectory: ProjectPaths.samples)
        #expect(set.pending.map(\.request.identifier) == ["good"])
        #expect(refused.map(\.identifier) == ["missing", "text"])
        #expect(refused[0].reason.hasPrefix("invalid attachment file URL"))
        #expect(refused[1].reason.hasPrefix("unrecognized attachment file type"))
    }

    @Test("schedule files name every wrong field by its path")
    func parseErrors() throws {
        #expect(throws: ScheduleFile.ParseError.self) { try ScheduleFile.parse(Array("{}".utf8)) }
        #expect {
            try ScheduleFile.parse(Array(#"{"requests":[{"identifier":"a","content":{},"trigger":{"dateMatching":{"weekday":9}}}]}"#.utf8))
        } throws: { "\($0)".contains("requests[0].trigger.dateMatching.weekday") }
        #expect { try ScheduleFile.parse(Array(#"{"requests":[{"identifier":"a","content":{},"trigger":{"every":5}}]}"#.utf8)) } throws: {
            "\($0)".contains("requests[0].trigger: give timeInterval or dateMatching")
        }
        #expect { try ScheduleFile.parse(Array(#"{"requests":[{"identifier":"a","content":{"titleLockey":"K"}}]}"#.utf8)) } throws: {
            "\($0)" == "requests[0].content.titleLockey: unknown content field; did you mean titleLocKey?"
        }
        #expect { try ScheduleFile.parse(Array(#"{"requests":[{"identifier":"a","content":{"bodyLocArgs":"06:10"}}]}"#.utf8)) } throws: {
            "\($0)" == "requests[0].content.bodyLocArgs: must be an array of strings, not a string"
        }
        #expect { try ScheduleFile.parse(Array(#"{"requests":[{"identifier":"a","content":{"badge":"1"}}]}"#.utf8)) } throws: {
            "\($0)" == "requests[0].content.badge: must be a whole number, not a string"
        }
        #expect { try ScheduleFile.parse(Array(#"{"requests":[{"identifier":"a","content":{"userInfo":[]}}]}"#.utf8)) } throws: {
            "\($0)" == "requests[0].content.userInfo: must be an object, not an array"
        }
        #expect((try? ScheduleFile.parse(Array(#"{"requests":[{"identifier":"a","content":{"relevanceScore":0.5,"body":"x"}}]}"#.utf8)))?.count == 1)
    }
}
