import Foundation
import PushboxJSON
import PushboxPayload

/// The device's Live Activities as kept on disk: the book, and the device clock's reading
/// when it was last written, from which another process (`pushbox activities`) tells the
/// device's time now.
public struct KeptActivities: Sendable, Equatable {
    /// The activities and budgets.
    public var book = ActivityBook()
    /// The device clock at `real` (both UNIX seconds) running at `speed`; nil: the wall clock.
    public var clock: (device: Double, real: Double, speed: Double)?

    /// Nothing kept yet.
    public init() {}

    public static func == (a: KeptActivities, b: KeptActivities) -> Bool {
        a.book == b.book && a.clock?.device == b.clock?.device && a.clock?.real == b.clock?.real && a.clock?.speed == b.clock?.speed
    }

    /// The device's time at the wall clock's `real`, as the last writer's clock ran.
    public func deviceNow(real: Double = Date().timeIntervalSince1970) -> Double {
        guard let clock else { return real }
        return clock.device + (real - clock.real) * clock.speed
    }

    init(json: JSONValue?, identity: ActivityBook.Identity = ActivityBook.Identity()) {
        book.identity = identity
        guard let o = json?.objectValue else { return }
        book = ActivityBook(json: o["book"] ?? .null)
        book.identity = identity
        if let c = o["clock"]?.objectValue, let d = c["device"]?.doubleValue, let r = c["real"]?.doubleValue {
            clock = (d, r, c["speed"]?.doubleValue ?? 1)
        }
    }

    var json: JSONValue {
        var o = JSONObject([("book", book.json)])
        if let clock {
            o["clock"] = .object(
                JSONObject([
                    ("device", .number(String(clock.device))), ("real", .number(String(clock.real))), ("speed", .number(String(clock.speed))),
                ]))
        }
        return .object(o)
    }
}

/// The simulated device's Live Activities (`inbox.activities.json` beside the inbox): pushes
/// applied as ActivityKit applies them, on the device clock, and local starts.
public final class LiveActivityDevice: Sendable {
    /// The file shared with pushbox's commands.
    public let file: DeviceStateFile<KeptActivities>
    /// The device clock; nil: the one the file last recorded (or the wall clock).
    public let clock: SimulatedClock?
    /// The app's types and budgets.
    public let profile: LiveActivityProfile

    /// The inbox at `databasePath`, for its devices' files beside it.
    public let databasePath: String

    /// The activities of the inbox at `databasePath`, on `clock`: the default device's, or
    /// (`device`) an added iPhone's (`inbox.activities.NAME.json`, its own tokens).
    public init(databasePath: String, clock: SimulatedClock?, profile: LiveActivityProfile, device: FleetDevice? = nil) {
        let identity = device.map(\.activityIdentity) ?? ActivityBook.Identity()
        let suffix = device.map { ".activities.\($0.name).json" } ?? ".activities.json"
        file = DeviceStateFile(
            path: DeviceStateFile<KeptActivities>.beside(databasePath, suffix: suffix), decode: { KeptActivities(json: $0, identity: identity) },
            encode: { $0.json })
        self.databasePath = databasePath
        self.clock = clock
        self.profile = profile
    }

    /// The same inbox's activities of an added iPhone, on the same clock, with the same app.
    public func of(_ device: FleetDevice) -> LiveActivityDevice {
        LiveActivityDevice(databasePath: databasePath, clock: clock, profile: profile, device: device)
    }

    /// The device's time now.
    public func now() -> Double { now(file.current()) }

    /// The device's time now: this clock's, else the one `kept` recorded.
    private func now(_ kept: KeptActivities) -> Double {
        clock.map { $0.now.timeIntervalSince1970 } ?? kept.deviceNow()
    }

    /// Changes the book at the device's time now, recording the clock it ran on.
    public func change<T>(_ body: (inout ActivityBook, Double) -> T) throws(FileWriteError) -> T {
        try file.update { kept in
            let now = now(kept)
            if let clock { kept.clock = (now, Date().timeIntervalSince1970, clock.speed) }
            return body(&kept.book, now)
        }.result
    }

    /// A validated `liveactivity` push applied as the device receives it now
    /// (`ActivityBook.receive`); when the book cannot be written it is not applied, and says why.
    public func apply(_ validated: ValidatedPayload, deviceToken: String?, apnsID: String?) -> LiveActivityOutcome {
        do {
            return try change { book, now in book.receive(validated, deviceToken: deviceToken, apnsID: apnsID, now: now, profile: profile) }
        } catch {
            return LiveActivityOutcome(
                event: LiveActivityPush(aps: validated.aps).event?.rawValue ?? "none", applied: false, drop: nil,
                detail: "pushbox could not keep the activities: \(error)")
        }
    }

    /// What the device would do with a validated `liveactivity` push now, tried on a copy of
    /// its activities: nothing is changed (a dry run, `render`).
    public func tryOn(_ validated: ValidatedPayload, deviceToken: String?, apnsID: String?) -> LiveActivityOutcome {
        let kept = file.current()
        var book = kept.book
        var outcome = book.receive(validated, deviceToken: deviceToken, apnsID: apnsID, now: now(kept), profile: profile)
        outcome.notes.append("tried against the device's activities in \(file.path); nothing was changed")
        return outcome
    }

    /// Records the clock's reading (it was moved: `+`, `>`), so other processes read the same time.
    public func noteClock() {
        guard clock != nil else { return }
        _ = try? change { _, _ in () }
    }
}
