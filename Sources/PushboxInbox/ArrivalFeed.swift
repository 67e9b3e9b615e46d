import Foundation
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem

/// One notification as it was taken in, as every consumer hears of it: the row as stored, the
/// answer given, and the intake's validation of it (the report, never a re-parse).
public struct ArrivalEvent: Sendable {
    /// The row as the store keeps it (built from what was written, not read back).
    public var stored: StoredNotification
    /// What the sender was answered.
    public var result: IntakeResult
    /// The intake's validation; nil for a fired local notification, which APNs never sees.
    public var report: ValidationReport?

    /// The stored row's id.
    public var id: Int64 { stored.id }
}

/// An arrival whose answer is on its way: published once, when `publish()` is called after the
/// answer was sent, or when the last reference to it goes (an answer dropped unsent: the
/// connection closed first), so a stored notification is never left unpublished.
public final class PendingArrival: Sendable {
    private let feed: ArrivalFeed
    private let events: Locked<[ArrivalEvent]>

    /// The arrivals of one request (one per device it reached), published together.
    init(_ events: [ArrivalEvent], feed: ArrivalFeed) {
        self.feed = feed
        self.events = Locked(events)
    }

    /// Publishes the arrivals, the first time only.
    public func publish() {
        let taken = events.withLock { events in
            let taken = events
            events = []
            return taken
        }
        for event in taken { feed.publish(event) }
    }

    deinit { publish() }
}

/// Where the intake publishes each arrival, once, after it has answered: subscribers run on the
/// feed's own queue, in arrival order and in bursts, never on a request's thread, so nothing a
/// sender waits for depends on the TUI, the log or the renderer.
public final class ArrivalFeed: Sendable {
    /// Takes a burst of arrivals, oldest first.
    public typealias Subscriber = @Sendable ([ArrivalEvent]) -> Void
    private let subscribers = Locked<[Subscriber]>([])
    /// Published and not yet delivered; the first of a burst schedules the delivery.
    private let waiting = Locked<[ArrivalEvent]>([])
    private let queue = DispatchQueue(label: "pushbox.arrivals")

    /// A feed with no subscriber yet.
    public init() {}

    /// Adds a subscriber; set them before the listeners start, so none misses an arrival.
    public func subscribe(_ subscriber: @escaping Subscriber) {
        subscribers.withLock { $0.append(subscriber) }
    }

    /// Whether anybody listens (the intake builds no event for nobody).
    var hasSubscribers: Bool { !subscribers.withLock { $0.isEmpty } }

    /// How long the first arrival of a burst waits for others to join it: one wake of the feed's
    /// queue per window instead of one per push (a busy intake answers several pushes a
    /// millisecond, and each wake of another thread costs a push's worth of CPU). The inbox folds
    /// arrivals in five times a second, so nobody sees the wait.
    static let window: DispatchTimeInterval = .milliseconds(2)

    /// Hands an arrival to the subscribers on the feed's queue; returns at once.
    func publish(_ event: ArrivalEvent) {
        let first = waiting.withLock { waiting in
            waiting.append(event)
            return waiting.count == 1
        }
        if first { queue.asyncAfter(deadline: .now() + Self.window) { [self] in deliver() } }
    }

    private func deliver() {
        let burst = waiting.withLock { waiting in
            let burst = waiting
            waiting.removeAll()
            return burst
        }
        guard !burst.isEmpty else { return }
        for subscriber in subscribers.withLock({ $0 }) { subscriber(burst) }
    }

    /// Waits until every arrival published so far has reached every subscriber (those still in
    /// their window are delivered now).
    public func flush() { queue.sync { deliver() } }
}
