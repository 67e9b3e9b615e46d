import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxSystem

// @unchecked: every `var` below is read and written with `condition` locked (the scheduler's
// thread waits on it); `onChange` is behind its own lock. LocalSchedulerTests.manyThreads drives it
// from several threads under ThreadSanitizer.
/// The pending local notifications of the running pushbox: requests scheduled through the
/// socket (`pushbox schedule`) or at start, kept as iOS keeps them (`PendingSet`), and
/// delivered into the inbox when the simulated clock reaches them.
public final class LocalScheduler: @unchecked Sendable {
    /// The device clock requests fire on.
    public let clock: SimulatedClock
    /// Where fired requests are stored.
    public let service: IntakeService
    /// Told after requests were delivered, the pending set changed or the clock was moved
    /// (the TUI redraws).
    public var onChange: (@Sendable () -> Void)? {
        get { changeHook.withLock { $0 } }
        set { changeHook.withLock { $0 = newValue } }
    }
    private let changeHook = Locked<(@Sendable () -> Void)?>(nil)

    private let condition = NSCondition()
    /// Held while due requests are taken and stored: a tick that finds another under way waits for
    /// its notifications to be in the inbox (`advance` answers only once everything due is there).
    private let firing = NSLock()
    private var set: PendingSet
    /// The pending sets of the fleet's added devices, by name: each keeps its own 64.
    private var others: [String: PendingSet] = [:]
    /// How many fired so far on each added device.
    private var deliveredOthers: [String: Int] = [:]
    private var refusedLog: [ScheduleRefusal] = []
    private var running = false
    private var stopped = false
    private var worker: Thread?

    /// What the Scheduled view and `pushbox pending` show.
    public struct Snapshot: Sendable {
        /// The device clock's time.
        public var now: Date
        /// Pending requests, soonest first.
        public var pending: [PendingRequest]
        /// Requests dropped because more than 64 were pending, with the reason; oldest first.
        public var dropped: [ScheduleRefusal]
        /// Requests iOS would not schedule (bad trigger, bad attachment), with its reason.
        public var refused: [ScheduleRefusal]
        /// How many fired so far.
        public var delivered: Int
    }

    private var deliveredCount = 0

    /// An empty pending set on `clock`, delivering into `service`; `start()` begins delivering.
    public init(service: IntakeService, clock: SimulatedClock) {
        self.service = service
        self.clock = clock
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clock.timeZone
        set = PendingSet(calendar: calendar)
    }

    /// What one `schedule` call did.
    public struct Outcome: Sendable {
        /// Requests iOS would not schedule, with its reasons.
        public var refused: [ScheduleRefusal]
        /// Requests (new or already pending) dropped by this call because more than 64 were pending.
        public var dropped: [ScheduleRefusal]
        /// How many are pending after it.
        public var pending: Int
    }

    /// An added device's clock: how far it runs ahead of this clock, and its zone; nil for the
    /// default device (or a name no device has).
    private func clockOf(_ device: String?) -> (offset: Double, zone: TimeZone)? {
        guard let device, device != FleetDevice.defaultName, let member = service.phone.registration()?.device(named: device) else { return nil }
        return (member.clockOffset ?? 0, member.timeZone.flatMap(TimeZone.init(identifier:)) ?? clock.timeZone)
    }

    /// Runs `body` on the pending set of `device` (nil: the default device's), made for an added
    /// device the first time; `condition` is held.
    private func withSet<T>(_ device: String?, zone: TimeZone?, _ body: (inout PendingSet) -> T) -> T {
        guard let device, device != FleetDevice.defaultName else { return body(&set) }
        if others[device] == nil {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone ?? clock.timeZone
            others[device] = PendingSet(calendar: calendar)
        }
        return body(&others[device]!)
    }

    /// Adds requests at the clock's now, to the default device, or (`device`) to an added
    /// device of the fleet, on its clock.
    @discardableResult
    public func schedule(_ requests: [LocalRequest], baseDirectory: String? = nil, device: String? = nil) -> Outcome {
        // Attachment files are read before the lock is taken: the scheduler's thread and the
        // TUI wait on it, and a slow disk must not stall them.
        let checked = PendingSet.check(requests, baseDirectory: baseDirectory)
        let own = clockOf(device)
        condition.lock()
        let outcome = withSet(own == nil ? nil : device, zone: own?.zone) { set in
            let droppedBefore = set.droppedTotal
            let refused = set.add(checked, now: clock.now.addingTimeInterval(own?.offset ?? 0))
            let newlyDropped = set.droppedTotal - droppedBefore
            return Outcome(refused: refused, dropped: Array(set.dropped.suffix(min(newlyDropped, set.dropped.count))), pending: set.pending.count)
        }
        let refused = outcome.refused
        refusedLog += refused
        if refusedLog.count > PendingSet.droppedKept { refusedLog.removeFirst(refusedLog.count - PendingSet.droppedKept) }
        condition.broadcast()
        condition.unlock()
        onChange?()
        return outcome
    }

    /// Cancels an identifier or a `prefix*`; returns what was cancelled.
    @discardableResult
    public func cancel(_ pattern: String, device: String? = nil) -> [String] {
        let own = clockOf(device)
        condition.lock()
        let gone = withSet(own == nil ? nil : device, zone: own?.zone) { $0.cancel(pattern) }
        condition.unlock()
        if !gone.isEmpty { onChange?() }
        return gone
    }

    /// The pending set, the dropped and refused requests, and the count delivered, now.
    public func snapshot(device: String? = nil) -> Snapshot {
        let own = clockOf(device)
        condition.lock()
        defer { condition.unlock() }
        guard let own, let device else {
            return Snapshot(now: clock.now, pending: set.pending, dropped: set.dropped, refused: refusedLog, delivered: deliveredCount)
        }
        let theirs = withSet(device, zone: own.zone) { $0 }
        return Snapshot(
            now: clock.now.addingTimeInterval(own.offset), pending: theirs.pending, dropped: theirs.dropped, refused: [],
            delivered: deliveredOthers[device] ?? 0)
    }

    /// The time zone requests of `device` fire in (nil: the default device's clock's).
    public func timeZone(of device: String?) -> TimeZone { clockOf(device)?.zone ?? clock.timeZone }

    /// Moves the clock forward and delivers what became due; observers hear of it either way.
    public func advance(by seconds: Double) {
        clock.advance(by: seconds)
        if tick() == 0 { onChange?() }
    }

    /// The device travels to another time zone: calendar triggers keep their wall-clock time.
    public func changeTimeZone(_ zone: TimeZone) {
        condition.lock()
        clock.setTimeZone(zone)
        set.changeTimeZone(to: zone, now: clock.now)
        condition.broadcast()
        condition.unlock()
        onChange?()
    }

    /// Jumps the clock to the next pending fire (if any) and delivers it; returns its time.
    @discardableResult
    public func jumpToNext() -> Date? {
        condition.lock()
        let next = set.pending.first?.nextFire
        condition.unlock()
        guard let next else { return nil }
        clock.jump(to: next)
        if tick() == 0 { onChange?() }
        return next
    }

    /// Delivers every request due on the clock now; returns how many.
    @discardableResult
    public func tick() -> Int {
        firing.lock()
        defer { firing.unlock() }
        let clocks = othersClocks()
        condition.lock()
        var due: [(device: String?, request: PendingRequest, zone: TimeZone)] = set.deliverDue(now: clock.now).map { (nil, $0, clock.timeZone) }
        for name in others.keys.sorted() {
            guard let own = clocks[name] else { continue }
            due += others[name]!.deliverDue(now: clock.now.addingTimeInterval(own.offset)).map { (name, $0, own.zone) }
        }
        condition.unlock()
        for fired in due {
            // Each goes into the inbox in order, with the time it was due on the device's clock,
            // and counts as delivered once it is there.
            _ = service.receiveLocal(fired.request.request, firedAt: fired.request.nextFire, timeZone: fired.zone, device: fired.device)
            condition.lock()
            if let device = fired.device { deliveredOthers[device, default: 0] += 1 } else { deliveredCount += 1 }
            condition.unlock()
        }
        if !due.isEmpty { onChange?() }
        return due.count
    }

    /// The clocks of the added devices that have pending sets (read outside the lock).
    private func othersClocks() -> [String: (offset: Double, zone: TimeZone)] {
        let names = condition.withLock { Array(others.keys) }
        var out: [String: (offset: Double, zone: TimeZone)] = [:]
        for name in names { out[name] = clockOf(name) }
        return out
    }

    /// Starts delivering on a thread of its own: it wakes at the next fire (in real time, at the
    /// clock's speed), at least every 200 ms so speed changes and jumps are seen.
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !running else { return }
        running = true
        let thread = Thread { [weak self] in self?.loop() }
        thread.name = "pushbox.scheduler"
        worker = thread
        thread.start()
    }

    /// Stops delivering (the pending set is kept).
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            if stopped {
                condition.unlock()
                return
            }
            // The soonest of every device's next fire (an added device's on its own clock).
            var wait = set.pending.first.map { clock.realSeconds(until: $0.nextFire) } ?? 0.2
            if others.values.contains(where: { !$0.pending.isEmpty }) { wait = min(wait, 0.05) }
            if wait > 0 { _ = condition.wait(until: Date().addingTimeInterval(min(0.2, wait))) }
            let done = stopped
            condition.unlock()
            if done { return }
            tick()
        }
    }

    deinit { stop() }
}
