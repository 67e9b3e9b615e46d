import Foundation
import PushboxJSON
import PushboxPayload

/// A fired local request as the inbox stores it: the content in APNs' shape (`aps` with the
/// alert, sound, badge, category and thread; `userInfo` at the top, where an app's delegate
/// finds a push's custom keys), so the same renderer, before/after view and action report
/// serve pushes and local notifications. The request's identifier, trigger, fire time and
/// attachment files travel beside it under `pushbox-local`, which the app would not see.
public enum LocalDelivery {
    /// Content names → alert keys; the loc-key forms are what
    /// `NSString.localizedUserNotificationString(forKey:arguments:)` leaves for delivery time.
    static let alertNames: [(String, String)] = [
        ("title", "title"), ("subtitle", "subtitle"), ("body", "body"),
        ("titleLocKey", "title-loc-key"), ("titleLocArgs", "title-loc-args"),
        ("subtitleLocKey", "subtitle-loc-key"), ("subtitleLocArgs", "subtitle-loc-args"),
        ("bodyLocKey", "loc-key"), ("bodyLocArgs", "loc-args"),
    ]

    /// The stored form of `request` fired at `firedAt` (a time on the simulated clock).
    public static func payload(_ request: LocalRequest, firedAt: Date, timeZone: TimeZone) -> JSONObject {
        let c = request.content
        var alert = JSONObject()
        for (from, to) in alertNames { if let v = c[from] { alert[to] = v } }
        var aps = JSONObject()
        if !alert.isEmpty { aps["alert"] = .object(alert) }
        if let badge = c["badge"] { aps["badge"] = badge }
        if let sound = c["sound"] { aps["sound"] = sound }
        if let category = c["categoryIdentifier"] { aps["category"] = category }
        if let thread = c["threadIdentifier"] { aps["thread-id"] = thread }
        if let level = c["interruptionLevel"] { aps["interruption-level"] = level }
        var out = JSONObject([("aps", .object(aps))])
        for (name, value) in c["userInfo"]?.objectValue?.entries ?? [] where name != "aps" && name != LocalNotificationPayload.key {
            out[name] = value
        }
        var local = JSONObject([
            ("identifier", .string(request.identifier)),
            ("firedAt", .string(LocalClockText.format(firedAt, timeZone: timeZone))),
            ("timeZone", .string(timeZone.identifier)),
            ("trigger", request.trigger.map(\.json) ?? .null),
        ])
        if let attachments = c["attachments"] { local["attachments"] = attachments }
        out[LocalNotificationPayload.key] = .object(local)
        return out
    }

}

extension Trigger {
    /// The trigger as a schedule file writes it.
    public var json: JSONValue {
        switch self {
        case .timeInterval(let seconds, let repeats):
            return .object(JSONObject([("timeInterval", .number(LocalClockText.number(seconds))), ("repeats", .bool(repeats))]))
        case .dateMatching(let c, let repeats):
            let parts: [(String, Int?)] = [
                ("year", c.year), ("month", c.month), ("day", c.day), ("weekday", c.weekday),
                ("hour", c.hour), ("minute", c.minute), ("second", c.second), ("weekOfYear", c.weekOfYear),
                ("weekOfMonth", c.weekOfMonth), ("weekdayOrdinal", c.weekdayOrdinal),
            ]
            let matching = JSONObject(parts.compactMap { name, v in v.map { (name, JSONValue.number(String($0))) } })
            return .object(JSONObject([("dateMatching", .object(matching)), ("repeats", .bool(repeats))]))
        }
    }

    /// `DateComponents.weekday` 1…7, in the words the trace uses whatever the system locale.
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// In words, for the trace and the Scheduled view: "every Monday 06:10:05", "in 90 s".
    public var summary: String {
        switch self {
        case .timeInterval(let s, let repeats):
            return repeats ? "every \(LocalClockText.number(s)) s" : "after \(LocalClockText.number(s)) s"
        case .dateMatching(let c, let repeats):
            var parts: [String] = []
            if let w = c.weekday, (1...7).contains(w) { parts.append(Self.weekdays[w - 1]) }
            if c.year != nil || c.month != nil || c.day != nil {
                parts.append(
                    [c.year.map { String($0) }, c.month.map { String(format: "%02d", $0) }, c.day.map { String(format: "%02d", $0) }]
                        .map { $0 ?? "*" }.joined(separator: "-"))
            }
            let time = [c.hour, c.minute, c.second].map { $0.map { String(format: "%02d", $0) } ?? "**" }.joined(separator: ":")
            parts.append(time)
            return (repeats ? "every " : "at ") + parts.joined(separator: " ")
        }
    }
}

extension PendingRequest {
    /// One pending request as `--json` prints it: identifier, content, nextFire, trigger.
    public func json(timeZone: TimeZone) -> JSONValue {
        var o = JSONObject([
            ("identifier", .string(request.identifier)), ("content", .object(request.content)),
            ("nextFire", .string(LocalClockText.format(nextFire, timeZone: timeZone))), ("trigger", request.trigger?.json ?? .null),
        ])
        if let shift = shifted(timeZone: timeZone) { o["finding"] = .string(shift) }
        return .object(o)
    }

    /// For a calendar trigger that asks for a day the month lacks (February 29 outside a leap
    /// year, a 31st in a 30-day month), what iOS does: it fires the next day at the requested
    /// time (`UNCalendarNotificationTrigger`'s matching preserves the smaller components). Nil
    /// when the fire date has the requested day and month.
    public func shifted(timeZone: TimeZone) -> String? {
        guard case .dateMatching(let wanted, _)? = request.trigger else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let got = calendar.dateComponents([.month, .day], from: nextFire)
        let dayMoved = wanted.day.map { $0 != got.day } ?? false
        let monthMoved = wanted.month.map { $0 != got.month } ?? false
        guard dayMoved || monthMoved else { return nil }
        let asked = [wanted.month.map { "month \($0)" }, wanted.day.map { "day \($0)" }].compactMap { $0 }.joined(separator: ", ")
        return
            "\(asked) does not exist then: it fires on \(LocalClockText.format(nextFire, timeZone: timeZone)), the next day at the requested time, as iOS does"
    }
}

extension LocalRequest {
    /// The request as a schedule file writes it.
    public var json: JSONObject {
        JSONObject([("identifier", .string(identifier)), ("content", .object(content)), ("trigger", trigger?.json ?? .null)])
    }
}

/// Dates as the schedule commands print them: ISO 8601 with the zone's offset.
public enum LocalClockText {
    /// `date` as ISO 8601 local time with the zone's offset.
    public static func format(_ date: Date, timeZone: TimeZone) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = timeZone
        return f.string(from: date)
    }

    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}
