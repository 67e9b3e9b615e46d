import Foundation
import PushboxJSON
import Testing

@testable import PushboxDevice
@testable import PushboxPayload

/// How the device presents a notification, from what the user set (Focus, the scheduled summary,
/// previews, the ring switch) and the level the app may use. Apple, UNNotificationInterruptionLevel:
/// passive "adds the notification to the notification list without lighting up the screen or
/// playing a sound"; timeSensitive "can break through system controls such as Notification
/// Summary and Focus"; critical plays its sound through the ring switch and Do Not Disturb.
@Suite("Presentation: Focus, the scheduled summary, levels")
struct DeviceAttentionTests {
    static let zone = TimeZone(identifier: "Asia/Seoul")!
    /// 2026-12-07 12:30 in Seoul.
    static let noon = Date(timeIntervalSince1970: 1_796_614_200)

    func decide(_ aps: String, level: String = "active", _ set: (inout DeviceAttention) -> Void = { _ in }) throws -> Presentation? {
        var attention = DeviceAttention()
        set(&attention)
        let object = try #require(try JSONParser.parse(Array(aps.utf8)).objectValue)
        return attention.decide(aps: object, level: level, bundleID: "dev.pushbox.sample", at: Self.noon, zone: Self.zone)
    }

    @Test("iOS's defaults: an active alert is shown with its sound; a passive one goes quietly to the list; a background push shows nothing")
    func defaults() throws {
        let shown = try #require(try decide(#"{"alert":"x","sound":"default"}"#))
        #expect(shown.outcome == .shown && shown.sound == "plays" && shown.screenLit)
        let passive = try #require(try decide(#"{"alert":"x","sound":"default"}"#, level: "passive"))
        #expect(passive.outcome == .quiet && passive.sound == "none" && !passive.screenLit)
        #expect(try decide(#"{"content-available":1}"#) == nil)
    }

    @Test("a Focus silences what it does not allow; an allowed app and (by default) time-sensitive break through; critical always does")
    func focus() throws {
        let on: (inout DeviceAttention) -> Void = { $0.focus = .init() }
        #expect(try decide(#"{"alert":"x"}"#, on)?.outcome == .silenced)
        #expect(try decide(#"{"alert":"x"}"#, level: "time-sensitive", on)?.outcome == .shown)
        #expect(try decide(#"{"alert":"x"}"#, level: "time-sensitive") { $0.focus = .init(allowTimeSensitive: false) }?.outcome == .silenced)
        #expect(try decide(#"{"alert":"x"}"#) { $0.focus = .init(allowApps: ["dev.pushbox.sample"]) }?.outcome == .shown)
        let critical = try #require(
            try decide(#"{"alert":"x","sound":{"critical":1}}"#, level: "critical") {
                $0.focus = .init()
                $0.silent = true
            })
        #expect(critical.outcome == .shown && critical.sound == "critical")
    }

    @Test(
        "the app in the scheduled summary: held for the next time on the device clock (the next day's first when none is left); time-sensitive breaks through"
    )
    func summary() throws {
        #expect(try decide(#"{"alert":"x"}"#) { $0.summaryTimes = ["08:00", "18:00"] }?.summaryAt == "18:00")
        #expect(try decide(#"{"alert":"x"}"#) { $0.summaryTimes = ["08:00", "12:00"] }?.summaryAt == "08:00")
        #expect(try decide(#"{"alert":"x"}"#) { $0.summaryTimes = ["08:00"] }?.outcome == .summary)
        #expect(try decide(#"{"alert":"x"}"#, level: "time-sensitive") { $0.summaryTimes = ["08:00"] }?.outcome == .shown)
    }

    @Test(
        "a held notification knows when its summary comes on the device clock and its relevance-score, which orders the summary (Apple, relevanceScore: the highest is featured); both survive the row's JSON"
    )
    func summaryDueAndRelevance() throws {
        let today = try #require(try decide(#"{"alert":"x","relevance-score":0.7}"#) { $0.summaryTimes = ["08:00", "18:00"] })
        // 12:30 in Seoul: the 18:00 summary the same day, 09:00 UTC.
        #expect(today.summaryDue == Date(timeIntervalSince1970: 1_796_634_000) && today.relevance == 0.7)
        let tomorrow = try #require(try decide(#"{"alert":"x","relevance-score":3}"#) { $0.summaryTimes = ["08:00"] })
        #expect(tomorrow.summaryDue == Date(timeIntervalSince1970: 1_796_684_400) && tomorrow.relevance == nil)
        let read = try #require(Presentation(json: today.json))
        #expect(read == today)
    }

    @Test("the ring switch on silent: a sound vibrates; previews hidden or when unlocked are said")
    func switchAndPreviews() throws {
        #expect(try decide(#"{"alert":"x","sound":"default"}"#) { $0.silent = true }?.sound == "vibrates")
        #expect(try decide(#"{"alert":"x"}"#) { $0.previews = .never }?.preview == "hidden")
        #expect(try decide(#"{"alert":"x"}"#) { $0.previews = .whenUnlocked }?.preview == "when-unlocked")
    }

    @Test("the settings are kept in the registration's JSON and read back; defaults write nothing")
    func kept() {
        var r = DeviceRegistration()
        #expect(r.json.objectValue?["attention"] == nil)
        r.attention.focus = .init(allowApps: ["a.b"], allowTimeSensitive: false)
        r.attention.summaryTimes = ["07:30"]
        r.attention.previews = .never
        r.attention.silent = true
        #expect(DeviceRegistration(json: r.json).attention == r.attention)
        #expect(
            Presentation(json: Presentation(outcome: .summary, summaryAt: "07:30", sound: "none", screenLit: false, rule: "r").json)?.summaryAt
                == "07:30")
    }
}

/// A Focus's allowed people: a communication notification from one of them breaks through
/// (Apple, "Implementing communication notifications").
@Suite("Presentation: allowed people")
struct AllowedPeopleTests {
    @Test("a sender the Focus allows (by handle or name) is shown; another is silenced; without a sender the app's rule stands")
    func people() throws {
        var attention = DeviceAttention()
        attention.focus = .init(allowPeople: ["mina@example.com"])
        let aps = try #require(try JSONParser.parse(Array(#"{"alert":"x"}"#.utf8)).objectValue)
        func outcome(_ sender: [String]) -> Presentation.Outcome? {
            attention.decide(
                aps: aps, level: "active", bundleID: "dev.pushbox.sample", sender: sender, at: DeviceAttentionTests.noon,
                zone: DeviceAttentionTests.zone)?
                .outcome
        }
        #expect(outcome(["mina@example.com", "Mina"]) == .shown)
        #expect(outcome(["jun@example.com", "Jun"]) == .silenced)
        #expect(outcome([]) == .silenced)
    }
}

/// filter-criteria (iOS 16): with an allowed app's Focus filter in effect, only its notifications
/// whose criteria match it show (Apple, UNNotificationContent.filterCriteria, "the criteria the
/// system evaluates to determine if it displays the notification in the current Focus").
@Suite("Presentation: Focus filters")
struct FocusFilterTests {
    @Test("an allowed app with a Focus filter: matching filter-criteria shows, another or none is silenced; no filter: the app's rule")
    func filter() throws {
        func outcome(_ aps: String, filter: String?) throws -> Presentation.Outcome? {
            var attention = DeviceAttention()
            attention.focus = .init(allowApps: ["dev.pushbox.sample"], filter: filter)
            let object = try #require(try JSONParser.parse(Array(aps.utf8)).objectValue)
            return attention.decide(
                aps: object, level: "active", bundleID: "dev.pushbox.sample", at: DeviceAttentionTests.noon, zone: DeviceAttentionTests.zone)?
                .outcome
        }
        #expect(try outcome(#"{"alert":"x","filter-criteria":"work"}"#, filter: "work") == .shown)
        #expect(try outcome(#"{"alert":"x","filter-criteria":"personal"}"#, filter: "work") == .silenced)
        #expect(try outcome(#"{"alert":"x"}"#, filter: "work") == .silenced)
        #expect(try outcome(#"{"alert":"x","filter-criteria":"personal"}"#, filter: nil) == .shown)
        var kept = DeviceRegistration()
        kept.attention.focus = .init(filter: "work")
        #expect(DeviceRegistration(json: kept.json).attention.focus?.filter == "work")
    }
}
