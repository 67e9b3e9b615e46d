import Foundation

/// The device's clock: real time by default, or started elsewhere (`--clock`), running faster
/// (`--speed`), fast-forwarded and jumped from the TUI. Thread-safe.
public final class SimulatedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var zone: TimeZone
    private let realNow: @Sendable () -> Date
    private var anchorReal: Date
    private var anchorSimulated: Date
    private var rate: Double
    private var moved = false

    /// `start` nil means now; `speed` is simulated seconds per real second (at least 0).
    public init(start: Date? = nil, speed: Double = 1, timeZone: TimeZone = .current,
                realNow: @escaping @Sendable () -> Date = { Date() }) {
        self.realNow = realNow
        zone = timeZone
        anchorReal = realNow()
        anchorSimulated = start ?? anchorReal
        rate = max(0, speed)
        moved = start != nil
    }

    /// The device's time zone (it can travel: `setTimeZone`).
    public var timeZone: TimeZone {
        lock.lock()
        defer { lock.unlock() }
        return zone
    }

    public func setTimeZone(_ timeZone: TimeZone) {
        lock.lock()
        zone = timeZone
        lock.unlock()
    }

    /// The simulated time now.
    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return anchorSimulated.addingTimeInterval(realNow().timeIntervalSince(anchorReal) * rate)
    }

    public var speed: Double {
        lock.lock()
        defer { lock.unlock() }
        return rate
    }

    /// Whether this clock differs from the wall clock (started elsewhere, faster, or moved).
    public var isSimulated: Bool {
        lock.lock()
        defer { lock.unlock() }
        return moved || rate != 1
    }

    /// Moves the clock forward (never backward: iOS's pending triggers assume time goes on).
    public func advance(by seconds: Double) {
        guard seconds > 0 else { return }
        lock.lock()
        rebase()
        anchorSimulated.addTimeInterval(seconds)
        moved = true
        lock.unlock()
    }

    /// Jumps to `date` if it is ahead of now.
    public func jump(to date: Date) {
        let ahead = date.timeIntervalSince(now)
        advance(by: ahead)
    }

    /// Changes the speed from now on.
    public func setSpeed(_ speed: Double) {
        lock.lock()
        rebase()
        rate = max(0, speed)
        lock.unlock()
    }

    /// Real seconds until the simulated clock reaches `date` (infinity when stopped).
    public func realSeconds(until date: Date) -> Double {
        let simulated = date.timeIntervalSince(now)
        let r = speed
        if simulated <= 0 { return 0 }
        return r == 0 ? .infinity : simulated / r
    }

    /// "Mon 2026-12-07 06:09:52 ×60" in the clock's zone, for headers and the Scheduled view.
    public var label: String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = "EEE yyyy-MM-dd HH:mm:ss"
        let r = speed
        let rateText = r == 1 ? "" : " ×\(r == r.rounded() ? String(Int(r)) : String(r))"
        return f.string(from: now) + rateText
    }

    /// Starts the next stretch from here (lock held).
    private func rebase() {
        let real = realNow()
        anchorSimulated = anchorSimulated.addingTimeInterval(real.timeIntervalSince(anchorReal) * rate)
        anchorReal = real
    }
}
