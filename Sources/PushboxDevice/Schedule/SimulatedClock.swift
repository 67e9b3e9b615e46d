import Foundation
import PushboxJSON
import PushboxPayload
import PushboxSystem

/// The device's clock: real time by default, or started elsewhere (`--clock`), running faster
/// (`--speed`), fast-forwarded and jumped from the TUI. Thread-safe.
public final class SimulatedClock: Sendable {
    /// Where the clock stands: the simulated time at `anchorReal`, and its rate since then.
    private struct State {
        var zone: TimeZone
        var anchorReal: Date
        var anchorSimulated: Date
        var rate: Double
        var moved: Bool
    }

    private let state: Locked<State>
    private let realNow: @Sendable () -> Date

    /// `start` nil means now; `speed` is simulated seconds per real second (at least 0).
    public init(
        start: Date? = nil, speed: Double = 1, timeZone: TimeZone = .current,
        realNow: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.realNow = realNow
        let real = realNow()
        state = Locked(
            State(
                zone: timeZone, anchorReal: real, anchorSimulated: start ?? real,
                rate: max(0, speed), moved: start != nil))
    }

    /// The device's time zone (it can travel: `setTimeZone`).
    public var timeZone: TimeZone { state.withLock { $0.zone } }

    /// The device travels: later times are in `timeZone`.
    public func setTimeZone(_ timeZone: TimeZone) {
        state.withLock { $0.zone = timeZone }
    }

    /// The simulated time now.
    public var now: Date {
        state.withLock { s in s.anchorSimulated.addingTimeInterval(realNow().timeIntervalSince(s.anchorReal) * s.rate) }
    }

    /// How many device seconds pass per real second.
    public var speed: Double { state.withLock { $0.rate } }

    /// Whether this clock differs from the wall clock (started elsewhere, faster, or moved).
    public var isSimulated: Bool { state.withLock { $0.moved || $0.rate != 1 } }

    /// Moves the clock forward (never backward: iOS's pending triggers assume time goes on).
    public func advance(by seconds: Double) {
        guard seconds > 0 else { return }
        state.withLock { s in
            rebase(&s)
            s.anchorSimulated.addTimeInterval(seconds)
            s.moved = true
        }
    }

    /// Jumps to `date` if it is ahead of now.
    public func jump(to date: Date) {
        let ahead = date.timeIntervalSince(now)
        advance(by: ahead)
    }

    /// Changes the speed from now on.
    public func setSpeed(_ speed: Double) {
        state.withLock { s in
            rebase(&s)
            s.rate = max(0, speed)
        }
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

    /// Starts the next stretch from here.
    private func rebase(_ s: inout State) {
        let real = realNow()
        s.anchorSimulated = s.anchorSimulated.addingTimeInterval(real.timeIntervalSince(s.anchorReal) * s.rate)
        s.anchorReal = real
    }
}
