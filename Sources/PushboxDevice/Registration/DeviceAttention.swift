import Foundation
import PushboxJSON
import PushboxPayload

/// What the user set on the device that decides how a notification interrupts: a Focus and what
/// it allows, the app in the scheduled summary and its times, notification previews, and the
/// ring/silent switch. Kept in the device's registration; `pushbox device focus|summary|previews|ring|silent`
/// change it.
public struct DeviceAttention: Sendable, Equatable {
    /// A Focus that is on.
    public struct Focus: Sendable, Equatable {
        /// Apps the Focus allows (bundle ids).
        public var allowApps: [String]
        /// Whether it lets time-sensitive notifications through (iOS's default: yes).
        public var allowTimeSensitive: Bool
        /// People it lets through (a communication notification's sender: handle or name).
        public var allowPeople: [String]
        /// The app's Focus filter in effect (`SetFocusFilterIntent`): of an allowed app, only
        /// notifications whose `filter-criteria` is this one are shown.
        public var filter: String?

        public init(allowApps: [String] = [], allowTimeSensitive: Bool = true, allowPeople: [String] = [], filter: String? = nil) {
            self.allowApps = allowApps
            self.allowTimeSensitive = allowTimeSensitive
            self.allowPeople = allowPeople
            self.filter = filter
        }
    }

    /// Show Previews: always (iOS's default), when unlocked, never.
    public enum Previews: String, Sendable, CaseIterable {
        case always
        case whenUnlocked = "when-unlocked"
        case never
    }

    /// The Focus that is on; nil: none.
    public var focus: Focus?
    /// The scheduled summary's times (`08:00`, device clock) when the app is in it; nil: it is not.
    public var summaryTimes: [String]?
    public var previews: Previews = .always
    /// The ring/silent switch on silent.
    public var silent = false

    /// iOS's defaults: no Focus, the app not in the summary, previews always, ringing.
    public init() {}

    /// iOS's first suggested summary times.
    public static let defaultSummaryTimes = ["08:00", "18:00"]

    /// Whether anything differs from iOS's defaults.
    public var isDefault: Bool { self == DeviceAttention() }

    /// As kept in the device's registration.
    public var json: JSONValue {
        .object(
            JSONObject([
                (
                    "focus",
                    focus.map {
                        .object(
                            JSONObject([
                                ("allowApps", .array($0.allowApps.map { .string($0) })), ("allowTimeSensitive", .bool($0.allowTimeSensitive)),
                                ("allowPeople", .array($0.allowPeople.map { .string($0) })), ("filter", .optionalString($0.filter)),
                            ]))
                    } ?? .null
                ),
                ("summaryTimes", summaryTimes.map { .array($0.map { .string($0) }) } ?? .null), ("previews", .string(previews.rawValue)),
                ("silent", .bool(silent)),
            ]))
    }

    /// Read back from the registration.
    public init(json: JSONValue?) {
        let o = json?.objectValue
        if let f = o?["focus"]?.objectValue {
            focus = Focus(
                allowApps: f["allowApps"]?.arrayValue?.compactMap(\.stringValue) ?? [], allowTimeSensitive: f["allowTimeSensitive"] != .bool(false),
                allowPeople: f["allowPeople"]?.arrayValue?.compactMap(\.stringValue) ?? [], filter: f["filter"]?.stringValue)
        }
        summaryTimes = o?["summaryTimes"]?.arrayValue?.compactMap(\.stringValue)
        previews = o?["previews"]?.stringValue.flatMap(Previews.init(rawValue:)) ?? .always
        silent = o?["silent"] == .bool(true)
    }

    /// Summary times as the device keeps them (in order); nil when there are none or one is no `HH:MM`.
    public static func summaryTimes(_ times: [String]) -> [String]? {
        guard !times.isEmpty, times.allSatisfy(isTime) else { return nil }
        return times.sorted()
    }

    /// `HH:MM` on a 24-hour clock.
    public static func isTime(_ text: String) -> Bool {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let h = Int(parts[0]), let m = Int(parts[1]) else { return false }
        return (0..<24).contains(h) && (0..<60).contains(m)
    }

    /// How the device presents an alert push with `aps` at `level` (the level iOS uses, after
    /// the app's capabilities), from the app `bundleID`, arriving at `time` on a clock in `zone`.
    /// Nil for a push that shows nothing (background, Live Activity).
    ///
    /// Apple, UNNotificationInterruptionLevel: `passive` "adds the notification to the
    /// notification list without lighting up the screen or playing a sound"; `timeSensitive`
    /// "can break through system controls such as Notification Summary and Focus"; `critical`
    /// plays its sound through the ring switch and Do Not Disturb. Which apps go to the scheduled
    /// summary, and what a Focus allows, is the user's choice (here, this struct). pushbox's
    /// choices where Apple is silent: a Focus that allows time-sensitive notifications lets them
    /// through; a held notification waits for the next summary time on the device clock.
    /// `sender`: a communication notification's sender (handle and name), which a Focus's
    /// allowed people are matched against ("Implementing communication notifications": such
    /// notifications break through a Focus that allows the person).
    public func decide(aps: JSONObject, level: String, bundleID: String?, sender: [String] = [], at time: Date, zone: TimeZone) -> Presentation? {
        let alert = aps["alert"]
        guard alert != nil || aps["sound"] != nil || aps["badge"] != nil else { return nil }
        let preview: String = previews == .always ? "shown" : previews == .whenUnlocked ? "when-unlocked" : "hidden"
        let hasSound = aps["sound"] != nil
        func shown(_ rule: String, critical: Bool = false) -> Presentation {
            let sound = critical ? "critical" : !hasSound ? "none" : silent ? "vibrates" : "plays"
            return Presentation(outcome: .shown, sound: sound, screenLit: true, preview: preview, rule: rule)
        }
        if level == "critical" {
            return shown(
                "interruption-level critical: shown now, its sound played through the ring switch, Focus and the scheduled summary (UNNotificationInterruptionLevel.critical)",
                critical: true)
        }
        if let focus {
            if level == "time-sensitive" && focus.allowTimeSensitive {
                return shown("time-sensitive: breaks through the Focus, which allows time-sensitive notifications")
            }
            if let bundleID, focus.allowApps.contains(bundleID) {
                // filter-criteria (iOS 16): with the app's Focus filter in effect, only what matches it shows.
                let criteria = aps["filter-criteria"]?.stringValue
                if let filter = focus.filter, criteria != filter {
                    return Presentation(
                        outcome: .silenced, sound: "none", screenLit: false, preview: preview,
                        rule:
                            "the Focus allows \(bundleID), but its Focus filter \(filter) lets through only notifications whose filter-criteria is \(filter) (this one's is \(criteria ?? "absent"))"
                    )
                }
                return shown("the Focus allows \(bundleID)" + (focus.filter.map { ", and its filter-criteria matches the Focus filter \($0)" } ?? ""))
            }
            if let person = sender.first(where: focus.allowPeople.contains) {
                return shown("a communication notification from \(person), whom the Focus allows")
            }
            return Presentation(
                outcome: .silenced, sound: "none", screenLit: false, preview: preview,
                rule:
                    "a Focus is on and allows neither \(bundleID ?? "the app") nor \(level == "time-sensitive" ? "time-sensitive notifications" : "this \(level) notification"): delivered quietly to Notification Center"
            )
        }
        if let times = summaryTimes {
            if level == "time-sensitive" {
                return shown("time-sensitive: breaks through the scheduled summary (UNNotificationInterruptionLevel.timeSensitive)")
            }
            let (at, due) = Self.nextTime(after: time, times: times.isEmpty ? Self.defaultSummaryTimes : times, zone: zone)
            // relevanceScore: "the highest score gets featured in the notification summary".
            let relevance = aps["relevance-score"]?.doubleValue.flatMap { (0...1).contains($0) ? $0 : nil }
            var held = Presentation(
                outcome: .summary, summaryAt: at, sound: "none", screenLit: false, preview: preview,
                rule: "the app is in the scheduled summary: delivered quietly, shown in the summary at \(at)")
            held.summaryDue = due
            held.relevance = relevance
            return held
        }
        if level == "passive" {
            return Presentation(
                outcome: .quiet, sound: "none", screenLit: false, preview: preview,
                rule: "interruption-level passive: added to Notification Center without lighting the screen or playing a sound")
        }
        return shown(
            level == "time-sensitive"
                ? "time-sensitive: shown now"
                : "active: a banner, the screen lit\(hasSound ? (silent ? ", vibrating (the ring switch is on silent)" : ", its sound played") : "")")
    }

    /// The first of `times` (`HH:MM`) after `time` on the device clock, the next day's first
    /// when none is left today: as the clock shows it, and the moment it comes.
    static func nextTime(after time: Date, times: [String], zone: TimeZone) -> (String, Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let now = calendar.dateComponents([.hour, .minute], from: time)
        let minutes = (now.hour ?? 0) * 60 + (now.minute ?? 0)
        let sorted = times.filter(isTime).sorted()
        func minutesOf(_ t: String) -> Int {
            let p = t.split(separator: ":").compactMap { Int($0) }
            return p[0] * 60 + p[1]
        }
        let today = sorted.first { minutesOf($0) > minutes }
        let at = today ?? sorted.first ?? "08:00"
        let startOfDay = calendar.startOfDay(for: time)
        let day = today != nil ? startOfDay : calendar.date(byAdding: .day, value: 1, to: startOfDay) ?? startOfDay
        let due = calendar.date(bySettingHour: minutesOf(at) / 60, minute: minutesOf(at) % 60, second: 0, of: day) ?? time
        return (at, due)
    }
}
