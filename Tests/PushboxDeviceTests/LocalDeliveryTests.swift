import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxRendering
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxDevice
@testable import PushboxPayload

/// What happens when a local request fires: its stored form, its rendering, the clock it fires on.
@Suite("Local notifications: delivery, rendering, the clock")
struct LocalDeliveryTests {
    static let alarm = LocalRequest(
        identifier: "alarm-2-0",
        content: JSONObject([
            ("titleLocKey", "ALARM_TITLE"), ("bodyLocKey", "ALARM_BODY"), ("bodyLocArgs", .array(["06:10"])), ("sound", "alarm.caf"),
            ("categoryIdentifier", "ALARM"), ("threadIdentifier", "alarm"), ("badge", 1),
            ("userInfo", .object(JSONObject([("deepLink", "pushboxsample://alarm/2/0610"), ("weekday", 2)]))),
        ]), trigger: .dateMatching(DateComponents(hour: 6, minute: 10, second: 0, weekday: 2), repeats: true))

    static let fired = ScheduleTests.date("2026-12-07T06:10:00")

    /// A push from the command line.
    func raw(_ text: String, headers: [(String, String)] = []) -> RawPayload {
        RawPayload(bytes: Array(text.utf8), envelope: Envelope(source: .commandLine, headers: PushHeaders(headers)))
    }

    func renderer(_ languages: [String]) throws -> Renderer {
        let profile = try AppProfile.load(directory: ProjectPaths.samples + "/SampleApp")
        return Renderer(
            context: ValidationContext(bundleID: profile.bundleID), preferredLanguages: languages,
            localizer: Localizer(app: AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)),
            categories: profile.categories)
    }

    func stored(_ request: LocalRequest) -> RawPayload {
        let payload = LocalDelivery.payload(request, firedAt: Self.fired, timeZone: TimeZone(identifier: "UTC")!)
        return RawPayload(
            bytes: Array(JSONWriter.compact(.object(payload)).utf8), envelope: Envelope(source: .local, fileName: "local:\(request.identifier)"))
    }

    @Test("the content is stored in APNs' shape, userInfo at the top, pushbox's facts beside it")
    func storedForm() throws {
        let p = LocalDelivery.payload(Self.alarm, firedAt: Self.fired, timeZone: TimeZone(identifier: "Asia/Seoul")!)
        let aps = try #require(p["aps"]?.objectValue)
        #expect(JSONWriter.compact(aps["alert"]!) == #"{"title-loc-key":"ALARM_TITLE","loc-key":"ALARM_BODY","loc-args":["06:10"]}"#)
        #expect(aps["category"] == "ALARM" && aps["thread-id"] == "alarm" && aps["sound"] == "alarm.caf" && aps["badge"] == 1)
        #expect(p["deepLink"] == "pushboxsample://alarm/2/0610")
        #expect(JSONWriter.compact(.object(LocalNotificationPayload.userInfo(p))) == #"{"deepLink":"pushboxsample://alarm/2/0610","weekday":2}"#)
        let info = try #require(LocalNotificationPayload.info(p))
        #expect(info["identifier"] == "alarm-2-0")
        #expect(info["firedAt"] == "2026-12-07T15:10:00+09:00")
        #expect(try ScheduleFile.trigger(info["trigger"], path: "t") == Self.alarm.trigger)  // the trigger survives the round trip
    }

    @Test("a fired alarm is localized in the language of the moment, with its category's actions")
    func rendered() throws {
        let ko = try renderer(["ko-KR"]).render(stored(Self.alarm))
        #expect(ko.title == "일어날 시간이에요")
        #expect(ko.body == "06:10 알람이 울리고 있습니다")
        #expect(ko.actions.first?.title == "중지")
        #expect(ko.delivered == .original && ko.status == 200 && ko.file == "local:alarm-2-0")
        #expect(ko.trace.map(\.step) == [.schedule, .localize, .localize])
        #expect(ko.trace[0].detail.contains("fired at 2026-12-07T06:10:00Z (every Monday 06:10:00)"))
        #expect(ko.trace[0].detail.contains("skip APNs validation and the service extension"))
        let en = try renderer(["en-US"]).render(stored(Self.alarm))
        #expect(en.title == "Wake up")
        #expect(en.actions.map(\.title) == ["Stop", "Snooze"])
    }

    @Test("a local request bigger than APNs' 4 KB limit is still delivered: the limit is for pushes")
    func noPayloadLimit() throws {
        let big = LocalRequest(identifier: "big", content: JSONObject([("body", .string(String(repeating: "x", count: 6000)))]), trigger: nil)
        let r = try renderer(["en"]).render(stored(big))
        #expect(r.delivered == .original)
        #expect(r.body?.count == 6000)
    }

    @Test("the request's own image is attached with its type and pixel size")
    func attachment() throws {
        let image = ProjectPaths.samples + "/media/lighthouse.png"
        var request = Self.alarm
        request.content["attachments"] = .array([.object(JSONObject([("identifier", "img"), ("file", .string(image))]))])
        let r = try renderer(["en"]).render(stored(request))
        #expect(r.attachments.count == 1)
        #expect(r.attachments.first?.type == "image/png")
        #expect(r.attachments.first?.width == 320 && r.attachments.first?.height == 200)
        request.content["attachments"] = .array([.object(JSONObject([("file", "/nonexistent/gone.png")]))])
        let gone = try renderer(["en"]).render(stored(request))
        #expect(gone.attachments.isEmpty)
        #expect(gone.warnings.contains { $0.code == .localAttachmentGone && $0.field == "attachments[0]" })
    }

    @Test("a silent push wakes the app in the background and says the budget is not modelled")
    func silentPush() throws {
        let r = try renderer(["en"]).render(
            raw(#"{"aps":{"content-available":1},"sync":"inbox"}"#, headers: [("apns-push-type", "background"), ("apns-priority", "5")]))
        let entry = try #require(r.trace.first { $0.step == .background })
        #expect(entry.outcome == .woken)
        #expect(entry.detail.contains(#"userInfo {"aps":{"content-available":1},"sync":"inbox"}"#))
        #expect(entry.detail.contains("background budget"))
        #expect(entry.detail.contains("not modelled"))
        let badgeOnly = try renderer(["en"]).render(raw(#"{"aps":{"badge":3}}"#))
        #expect(badgeOnly.trace.first { $0.step == .background }?.outcome == .noBanner)
        let visible = try renderer(["en"]).render(raw(#"{"aps":{"alert":"hi","content-available":1}}"#))
        #expect(!visible.trace.contains { $0.step == .background })
    }

    /// The real clock the simulated one reads, moved by the test.
    final class FakeTime: Sendable {
        private let time = Locked(Date(timeIntervalSince1970: 1_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: Double) { time.withLock { $0.addTimeInterval(seconds) } }
    }

    @Test("the clock starts elsewhere, runs at its speed, fast-forwards and jumps, never backwards")
    func clock() {
        let real = FakeTime()
        let start = ScheduleTests.date("2026-12-07T06:09:50")
        let clock = SimulatedClock(start: start, speed: 60, timeZone: TimeZone(identifier: "UTC")!, realNow: { real.now })
        #expect(clock.now == start)
        #expect(clock.isSimulated)
        real.advance(1)
        #expect(clock.now == start.addingTimeInterval(60))
        #expect(clock.realSeconds(until: start.addingTimeInterval(120)) == 1)
        clock.advance(by: 3600)
        #expect(clock.now == start.addingTimeInterval(3660))
        clock.jump(to: start)  // behind: ignored
        #expect(clock.now == start.addingTimeInterval(3660))
        clock.setSpeed(1)
        real.advance(10)
        #expect(clock.now == start.addingTimeInterval(3670))
        #expect(clock.label == "Mon 2026-12-07 07:11:00")
        let wall = SimulatedClock(realNow: { real.now })
        #expect(!wall.isSimulated && wall.now == real.now)
    }

    @Test("after a jump past several repeats, a repeating request fires once and goes on from now")
    func jumpCoalesces() {
        var set = PendingSet(calendar: ScheduleTests.calendar())
        let now = ScheduleTests.date("2026-12-07T06:00:00")
        set.add(
            [
                LocalRequest(identifier: "minutely", content: JSONObject([("body", "x")]), trigger: .timeInterval(seconds: 60, repeats: true)),
                LocalRequest(
                    identifier: "daily", content: JSONObject([("body", "x")]), trigger: .dateMatching(DateComponents(hour: 7), repeats: true)),
            ], now: now)
        let later = now.addingTimeInterval(3 * 86400 + 30)  // three days and 30 s on
        let fired = set.deliverDue(now: later)
        #expect(fired.map(\.request.identifier) == ["minutely", "daily"])
        #expect(set.pending.first { $0.request.identifier == "minutely" }?.nextFire == now.addingTimeInterval(3 * 86400 + 60))
        #expect(set.pending.first { $0.request.identifier == "daily" }?.nextFire == ScheduleTests.date("2026-12-10T07:00:00"))
    }
}

@Suite("The localize step in the trace")
struct LocalizeTraceTests {
    @Test("a push whose loc-key the app lacks: the localize step ends .missingKeys (what the locale matrix flags); all found: .localized")
    func missingKeys() throws {
        let profile = try AppProfile.load(directory: ProjectPaths.samples + "/SampleApp")
        let renderer = Renderer(
            context: ValidationContext(bundleID: profile.bundleID), preferredLanguages: ["ko"],
            localizer: Localizer(app: AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)))
        func localizeOutcome(_ key: String) -> TraceEntry.Outcome? {
            let body = #"{"aps":{"alert":{"loc-key":"\#(key)"}}}"#
            let raw = RawPayload(
                bytes: Array(body.utf8),
                envelope: Envelope(source: .commandLine, headers: PushHeaders([("apns-push-type", "alert"), ("apns-topic", profile.bundleID ?? "")])))
            return renderer.render(raw).trace.first { $0.step == .localize }?.outcome
        }
        #expect(localizeOutcome("NO_SUCH_KEY_ANYWHERE") == .missingKeys)
        #expect(localizeOutcome("GAME_PLAY_REQUEST_FORMAT") == .localized)
    }
}
