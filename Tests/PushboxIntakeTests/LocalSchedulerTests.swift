import Foundation
import PushboxDevice
import PushboxFetch
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// The running instance's pending set, delivered on the device clock, over the socket.
@Suite("Local notifications in the running pushbox")
struct LocalSchedulerTests {
    static let start = ISO8601DateFormatter().date(from: "2026-12-07T06:09:50Z")!
    static var alarmFile: String { ProjectPaths.samples + "/schedules/alarm.json" }

    /// A fixture whose scheduler runs on a stopped clock (speed 0), so only the test moves time.
    func fixture() throws -> (IntakeFixture, LocalScheduler) {
        let f = try IntakeFixture(
            bundleID: "dev.pushbox.sample", schedulerClock: SimulatedClock(start: Self.start, speed: 0, timeZone: TimeZone(identifier: "UTC")!))
        return (f, try #require(f.server.router.scheduler))
    }

    func json(_ r: UnixHTTPClient.Response) -> JSONObject {
        (try? JSONParser.parse(r.body))?.objectValue ?? JSONObject()
    }

    @Test("the alarm over the socket: 12 pending; a minute on delivers the 12 into the inbox as local notifications, in order")
    func alarm() throws {
        let (f, scheduler) = try fixture()
        let body = try String(contentsOfFile: Self.alarmFile, encoding: .utf8)
        let answer = f.post(body, headers: [], path: "/pushbox/schedule")
        #expect(answer.status == 200)
        #expect(json(answer)["pending"] == 12)
        #expect(json(answer)["refused"] == .array([]))
        let pending = json(f.post("", headers: [], method: "GET", path: "/pushbox/pending"))
        #expect(pending["now"] == "2026-12-07T06:09:50Z")
        #expect(pending["pending"]?.arrayValue?.first?.objectValue?["identifier"] == "alarm-2-0")
        #expect(pending["pending"]?.arrayValue?.first?.objectValue?["nextFire"] == "2026-12-07T06:10:00Z")
        #expect(scheduler.tick() == 0)  // nothing due yet
        let clock = json(f.post(#"{"advance": 60}"#, headers: [], path: "/pushbox/clock"))
        #expect(clock["now"] == "2026-12-07T06:10:50Z")
        let stored = try f.store.history()
        #expect(stored.count == 11)  // 06:10:00 … 06:10:50
        #expect(stored.allSatisfy { $0.source == .local && $0.status == 200 && $0.topic == "dev.pushbox.sample" })
        #expect(stored.map(\.file) == (0..<11).map { "local:alarm-2-\($0 * 5)" })
        // The repeats wait for next Monday; the last of the minute is still due this week.
        let after = scheduler.snapshot()
        #expect(after.delivered == 11)
        #expect(after.pending.first?.request.identifier == "alarm-2-55")
        #expect(
            after.pending.filter { $0.request.identifier != "alarm-2-55" }.allSatisfy {
                LocalClockText.format($0.nextFire, timeZone: TimeZone(identifier: "UTC")!).hasPrefix("2026-12-14T06:10")
            })
        // Jump: the next fire is delivered at once.
        let jumped = json(f.post(#"{"jump": "next"}"#, headers: [], path: "/pushbox/clock"))
        #expect(jumped["now"] == "2026-12-07T06:10:55Z")
        #expect(f.store.count == 12)
    }

    @Test("cancel by prefix over the socket; a request refused by iOS's rule is answered with its reason")
    func cancelAndRefuse() throws {
        let (f, scheduler) = try fixture()
        let body = try String(contentsOfFile: Self.alarmFile, encoding: .utf8)
        _ = f.post(body, headers: [], path: "/pushbox/schedule")
        let cancelled = json(f.post("", headers: [], method: "DELETE", path: "/pushbox/pending/alarm-2-1*"))
        #expect(cancelled["cancelled"] == .array(["alarm-2-10", "alarm-2-15"]))
        #expect(scheduler.snapshot().pending.count == 10)
        let bad = #"{"requests":[{"identifier":"fast","content":{"body":"x"},"trigger":{"timeInterval":30,"repeats":true}}]}"#
        let answer = json(f.post(bad, headers: [], path: "/pushbox/schedule"))
        #expect(answer["scheduled"] == .array([]))
        #expect(answer["refused"]?.arrayValue?.first?.objectValue?["reason"] == "time interval must be at least 60 if repeating")
        #expect(scheduler.snapshot().refused.map(\.identifier) == ["fast"])
    }

    @Test("a broken schedule is 400 BadSchedule with the field's path; wrong methods and paths get APNs' reasons")
    func errors() throws {
        let (f, _) = try fixture()
        let broken = f.post(
            #"{"requests":[{"identifier":"x","content":{},"trigger":{"dateMatching":{"weekday":9}}}]}"#, headers: [], path: "/pushbox/schedule")
        #expect(broken.status == 400)
        #expect(json(broken)["reason"] == "BadSchedule")
        #expect(json(broken)["detail"]?.stringValue?.contains("requests[0].trigger.dateMatching.weekday") == true)
        #expect(IntakeFixture.reason(f.post("", headers: [], method: "GET", path: "/pushbox/schedule")) == "MethodNotAllowed")
        #expect(IntakeFixture.reason(f.post("", headers: [], method: "GET", path: "/pushbox/nope")) == "BadPath")
        #expect(json(f.post("{}", headers: [], path: "/pushbox/clock"))["reason"] == "BadClock")
        #expect(json(f.post(#"{"timeZone":"Mars/Olympus"}"#, headers: [], path: "/pushbox/clock"))["reason"] == "BadClock")
    }

    @Test("relative attachment paths resolve against the folder the client names; a missing file refuses the request")
    func attachments() throws {
        let (f, scheduler) = try fixture()
        let request = #"{"requests":[{"identifier":"pic","content":{"body":"x","attachments":[{"identifier":"a","file":"media/lighthouse.png"}]}}]}"#
        let ok = json(f.post(request, headers: [("x-pushbox-base-dir", ProjectPaths.samples)], path: "/pushbox/schedule"))
        #expect(ok["scheduled"] == .array(["pic"]))
        scheduler.tick()  // no trigger: delivered now
        #expect(f.store.count == 1)
        // The file is found at delivery wherever pushbox runs: the request keeps its absolute path.
        let stored = try #require(try f.store.history().first)
        let payload = try JSONParser.parse(stored.raw).objectValue ?? JSONObject()
        let info = try #require(LocalNotificationPayload.info(payload))
        #expect(info["attachments"]?.arrayValue?.first?.objectValue?["file"] == .string(ProjectPaths.samples + "/media/lighthouse.png"))
        let rendered = Renderer(context: ValidationContext(), preferredLanguages: ["en"]).render(stored.rawPayload)
        #expect(rendered.attachments.first?.width == 320)
        let missing = json(f.post(request, headers: [("x-pushbox-base-dir", "/nonexistent")], path: "/pushbox/schedule"))
        #expect(missing["refused"]?.arrayValue?.first?.objectValue?["reason"]?.stringValue?.contains("does not exist") == true)
    }

    @Test("the device's time zone changes over the socket: the alarm stays at 06:10 on the wall clock")
    func travel() throws {
        let (f, scheduler) = try fixture()
        _ = f.post(try String(contentsOfFile: Self.alarmFile, encoding: .utf8), headers: [], path: "/pushbox/schedule")
        let moved = json(f.post(#"{"timeZone":"Asia/Seoul"}"#, headers: [], path: "/pushbox/clock"))
        #expect(moved["now"] == "2026-12-07T15:09:50+09:00")  // the same instant, read in Seoul
        let first = json(f.post("", headers: [], method: "GET", path: "/pushbox/pending"))["pending"]?.arrayValue?.first?.objectValue
        // 15:09 on Monday in Seoul: this Monday's 06:10 has passed there, so next Monday's.
        #expect(first?["nextFire"] == "2026-12-14T06:10:00+09:00")
        #expect(scheduler.clock.timeZone.identifier == "Asia/Seoul")
    }

    @Test("each schedule reports the drops it caused, also once the drop log is full")
    func dropsReported() throws {
        let (f, scheduler) = try fixture()
        func requests(_ prefix: String, _ count: Int, from start: Double) -> [LocalRequest] {
            (0..<count).map {
                LocalRequest(
                    identifier: "\(prefix)\($0)", content: JSONObject([("body", "x")]),
                    trigger: .timeInterval(seconds: start + Double($0), repeats: false))
            }
        }
        let first = scheduler.schedule(requests("a", PendingSet.limit + PendingSet.droppedKept + 10, from: 1))
        #expect(first.dropped.count == PendingSet.droppedKept)  // the rest are past what is remembered
        #expect(first.pending == PendingSet.limit)
        // Five more, all later than the 64 pending: each is dropped, and said so over the socket.
        let body = JSONWriter.compact(.object(JSONObject([("requests", .array(requests("late", 5, from: 100_000).map { .object($0.json) }))])))
        let answer = json(f.post(body, headers: [], path: "/pushbox/schedule"))
        #expect(answer["dropped"]?.arrayValue?.compactMap { $0.objectValue?["identifier"]?.stringValue } == (0..<5).map { "late\($0)" })
        #expect(answer["pending"] == 64)
    }

    @Test("without a scheduler the paths answer 404 NoScheduler")
    func none() throws {
        let f = try IntakeFixture()
        #expect(IntakeFixture.reason(f.post("", headers: [], method: "GET", path: "/pushbox/pending")) == "NoScheduler")
    }

    @Test("started, the scheduler delivers on its own as the clock runs")
    func runs() throws {
        let f = try IntakeFixture()
        let scheduler = LocalScheduler(
            service: f.server.service, clock: SimulatedClock(start: Self.start, speed: 600, timeZone: TimeZone(identifier: "UTC")!))
        scheduler.schedule([
            LocalRequest(identifier: "soon", content: JSONObject([("body", "x")]), trigger: .timeInterval(seconds: 60, repeats: false))
        ])
        scheduler.start()
        defer { scheduler.stop() }
        // 60 simulated seconds are 0.1 s of real time at ×600; allow a generous 10 s.
        for _ in 0..<200 where f.store.count == 0 { usleep(50_000) }
        #expect(f.store.count == 1)
        #expect(scheduler.snapshot().pending.isEmpty)
    }

    @Test("scheduled, cancelled, read, advanced and delivered from several threads at once: every request is delivered or cancelled exactly once")
    func manyThreads() throws {
        let f = try IntakeFixture()
        let scheduler = LocalScheduler(
            service: f.server.service, clock: SimulatedClock(start: Self.start, speed: 600, timeZone: TimeZone(identifier: "UTC")!))
        let changes = Counter()
        scheduler.onChange = { changes.add() }
        scheduler.start()
        defer { scheduler.stop() }
        let cancelled = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<25 {
                let id = "w\(worker)-\(i)"
                scheduler.schedule([
                    LocalRequest(
                        identifier: id, content: JSONObject([("body", .string(id))]),
                        trigger: .timeInterval(seconds: Double(1 + i % 5), repeats: false))
                ])
                if i % 5 == 0 { cancelled.add(scheduler.cancel(id).count) }
                _ = scheduler.snapshot()
                if i % 7 == 0 { scheduler.advance(by: 1) }
            }
        }
        scheduler.advance(by: 10)
        // The scheduler's own thread may still be storing what it took: wait for it.
        var snapshot = scheduler.snapshot()
        let deadline = Date().addingTimeInterval(10)
        while snapshot.delivered + cancelled.value < 100, Date() < deadline {
            usleep(5_000)
            snapshot = scheduler.snapshot()
        }
        #expect(snapshot.pending.isEmpty)
        #expect(snapshot.delivered + cancelled.value == 100)
        #expect(f.store.count == snapshot.delivered)
        #expect(Set(try f.store.history().map(\.file)).count == snapshot.delivered)  // none twice
        #expect(changes.value > 0)
    }
}

/// A count several threads add to.
final class Counter: Sendable {
    private let count = Locked(0)
    func add(_ n: Int = 1) { count.withLock { $0 += n } }
    var value: Int { count.withLock { $0 } }
}
