import Foundation
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem

/// One event of the inbox's live stream (`GET /api/v1/events`).
public struct InboxEvent: Sendable, Equatable {
    /// Its number, counted from 1 in this process; 0 for a `gap`, which has none.
    public var id: Int64
    /// `notification`, `rendered`, `delivery`, `deleted`, `device`, `request`, `inbox`, `gap`.
    public var name: String
    /// Its data, compact JSON on one line.
    public var data: String
}

/// The inbox's events, numbered, the last `kept` of them kept so a reader that reconnects with
/// the last number it saw misses none; listeners hear each event once, in order. While anybody
/// listens, a tick each second looks for changes no event announces (`tick`).
public final class InboxEvents: Sendable {
    /// How many events are kept for readers that reconnect.
    public static let kept = 10_000
    /// Seconds between heartbeats to listeners (an empty burst): a reader gone is noticed, and
    /// proxies keep the connection.
    public static let heartbeat = 15

    /// A listener takes bursts of events (an empty one is a heartbeat) and says whether it still listens.
    public typealias Listener = @Sendable ([InboxEvent]) -> Bool

    private struct State {
        var last: Int64 = 0
        var ring: [InboxEvent] = []
        /// Where the oldest kept event is in `ring` once it is full.
        var start = 0
        var listeners: [Int: Listener] = [:]
        var nextListener = 0
        var timer: DispatchSourceTimer?
        var ticks = 0
        var wired = false
    }
    // Listeners are called with the lock held: every listener hears every event once, in order.
    private let state = Locked(State())
    private let tickQueue = DispatchQueue(label: "pushbox.events")
    private let tickHook = Locked<(@Sendable () -> Void)?>(nil)

    /// No event yet.
    public init() {}

    /// Runs `wire` the first time only (one router sets up where events come from).
    public func wireOnce(_ wire: () -> Void) {
        let first = state.withLock { state in
            defer { state.wired = true }
            return !state.wired
        }
        if first { wire() }
    }

    /// What runs each second while anybody listens (changes by other processes).
    public func onTick(_ tick: @escaping @Sendable () -> Void) { tickHook.withLock { $0 = tick } }

    /// The number of the newest event.
    public var lastID: Int64 { state.withLock { $0.last } }

    /// Whether anybody listens (nothing is built for nobody).
    public var hasListeners: Bool { state.withLock { !$0.listeners.isEmpty } }

    /// Publishes events, numbered in order; listeners hear them before this returns. A listener
    /// must not publish.
    public func publish(_ events: [(name: String, data: JSONValue)]) {
        guard !events.isEmpty else { return }
        state.withLock { state in
            var burst: [InboxEvent] = []
            for (name, data) in events {
                state.last += 1
                let event = InboxEvent(id: state.last, name: name, data: JSONWriter.compact(data))
                burst.append(event)
                if state.ring.count < Self.kept {
                    state.ring.append(event)
                } else {
                    state.ring[state.start] = event
                    state.start = (state.start + 1) % Self.kept
                }
            }
            Self.tell(&state, burst)
        }
    }

    /// Publishes one event.
    public func publish(_ name: String, _ data: JSONValue) { publish([(name, data)]) }

    private static func tell(_ state: inout State, _ burst: [InboxEvent]) {
        for (key, listener) in state.listeners where !listener(burst) { state.listeners[key] = nil }
    }

    /// Adds a listener; with `after`, it first hears the kept events after that number (and a
    /// `gap` when some of them are no longer kept), in the same step, so none is missed or heard
    /// twice. Gives the key to `unsubscribe` with.
    @discardableResult
    public func subscribe(after: Int64? = nil, _ listener: @escaping Listener) -> Int {
        state.withLock { state in
            // A number beyond the newest is another run's: everything kept is new to it.
            let after = after.map { $0 > state.last ? 0 : $0 }
            if let after, after < state.last {
                let kept = Array(state.ring[state.start...] + state.ring[..<state.start])
                let oldest = kept.first?.id ?? state.last + 1
                var replay: [InboxEvent] = []
                if after + 1 < oldest || after < 0 {
                    let missed = JSONObject([("from", .number(String(max(after, 0) + 1))), ("to", .number(String(oldest - 1)))])
                    replay.append(InboxEvent(id: 0, name: "gap", data: JSONWriter.compact(.object(missed))))
                }
                replay += kept.filter { $0.id > after }
                if !replay.isEmpty, !listener(replay) { return -1 }
            }
            state.nextListener += 1
            state.listeners[state.nextListener] = listener
            if state.timer == nil { startTicking(&state) }
            return state.nextListener
        }
    }

    /// Removes a listener.
    public func unsubscribe(_ key: Int) {
        state.withLock { state in
            state.listeners[key] = nil
            if state.listeners.isEmpty {
                state.timer?.cancel()
                state.timer = nil
            }
        }
    }

    private func startTicking(_ state: inout State) {
        let timer = DispatchSource.makeTimerSource(queue: tickQueue)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in self?.tick() }
        state.timer = timer
        timer.resume()
    }

    private func tick() {
        tickHook.withLock { $0 }?()
        state.withLock { state in
            state.ticks += 1
            guard state.ticks % Self.heartbeat == 0 else { return }
            Self.tell(&state, [])
            if state.listeners.isEmpty {
                state.timer?.cancel()
                state.timer = nil
            }
        }
    }

    // MARK: Watching arrivals in the process

    /// A watcher of arrivals takes each burst (rows as stored, with their renderings) and says
    /// whether it still watches.
    public typealias ArrivalWatcher = @Sendable ([(row: StoredNotification, rendering: RenderedNotification?)]) -> Bool
    private let watchers = Locked<(next: Int, all: [Int: ArrivalWatcher])>((0, [:]))

    /// Adds a watcher of the arrivals from now on (`GET /api/v1/wait`); its key.
    public func watchArrivals(_ watcher: @escaping ArrivalWatcher) -> Int {
        watchers.withLock { w in
            w.next += 1
            w.all[w.next] = watcher
            return w.next
        }
    }

    /// Removes a watcher.
    public func unwatch(_ key: Int) { watchers.withLock { _ = $0.all.removeValue(forKey: key) } }

    /// Hands a burst of arrivals to the watchers (the intake's wiring calls it).
    public func arrived(_ burst: [(row: StoredNotification, rendering: RenderedNotification?)]) {
        let all = watchers.withLock { $0.all }
        for (key, watcher) in all where !watcher(burst) { unwatch(key) }
    }

    deinit { state.withLock { $0.timer?.cancel() } }
}
