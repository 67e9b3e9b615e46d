import Foundation
import PushboxSystem

/// An answer decided after its request was handled (`GET /api/v1/wait`): the server parks the
/// connection — no thread waits for it — until `resolve` is called, once.
public final class LaterAnswer: Sendable {
    private let state = Locked<(answer: HTTPResponse?, hooks: [@Sendable (HTTPResponse) -> Void])>((nil, []))

    /// An answer not given yet.
    public init() {}

    /// Gives the answer; false when it was given already (a later call changes nothing).
    @discardableResult
    public func resolve(_ response: HTTPResponse) -> Bool {
        let hooks = state.withLock { state -> [@Sendable (HTTPResponse) -> Void]? in
            guard state.answer == nil else { return nil }
            state.answer = response
            defer { state.hooks = [] }
            return state.hooks
        }
        guard let hooks else { return false }
        for hook in hooks { hook(response) }
        return true
    }

    /// Whether the answer was given.
    public var isResolved: Bool { state.withLock { $0.answer != nil } }

    /// Calls `hook` with the answer once it is given (at once when it is).
    func whenResolved(_ hook: @escaping @Sendable (HTTPResponse) -> Void) {
        let given = state.withLock { state -> HTTPResponse? in
            if let answer = state.answer { return answer }
            state.hooks.append(hook)
            return nil
        }
        if let given { hook(given) }
    }
}

/// A body written as it comes (Server-Sent Events) after a head sent at once: the writer calls
/// `write` from any thread, the server sends what was written and parks the connection — no
/// thread waits — while there is nothing. Bounded: a reader `limit` bytes behind is cut off.
public final class ResponseStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var finished = false
        var closed = false
        var wake: (@Sendable () -> Void)?
        var closeHooks: [@Sendable () -> Void] = []
    }
    private let state = Locked(State())
    /// Bytes written and not yet sent, at most.
    public let limit: Int

    /// An open stream holding at most `limit` unsent bytes.
    public init(limit: Int = 1 << 20) { self.limit = limit }

    /// Queues `bytes` to send; false when the stream is over (its reader gone, cut off, finished).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let (open, wake) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard !state.finished, !state.closed else { return (false, nil) }
            if state.pending.count + bytes.count > limit {
                // Too far behind: what it has is thrown away and the stream ends.
                state.pending = []
                state.finished = true
            } else {
                state.pending += bytes
            }
            defer { state.wake = nil }
            return (!state.finished, state.wake)
        }
        wake?()
        return open
    }

    /// Ends the stream once what was written is sent.
    public func finish() {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.finished = true
            defer { state.wake = nil }
            return state.wake
        }
        wake?()
    }

    /// Whether the stream still takes writes.
    public var isOpen: Bool { state.withLock { !$0.finished && !$0.closed } }

    /// Calls `hook` once when the connection is gone (at once when it is).
    public func onClose(_ hook: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.closed { return true }
            state.closeHooks.append(hook)
            return false
        }
        if now { hook() }
    }

    /// What a read found.
    enum Read: Equatable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing yet: `park` was called, `wake` will be once there is more or the end.
        case parked
        /// The end.
        case end
    }

    /// The server's read: copies what is pending into `buffer`; with nothing pending, calls
    /// `park` with the stream's lock held (so `wake`, after it, never comes before it) and keeps
    /// `wake` for the next write.
    func read(into buffer: UnsafeMutableRawBufferPointer, park: () -> Void, wake: @escaping @Sendable () -> Void) -> Read {
        state.withLock { state in
            if !state.pending.isEmpty {
                let n = min(buffer.count, state.pending.count)
                state.pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
                state.pending.removeFirst(n)
                return .bytes(n)
            }
            if state.finished || state.closed { return .end }
            state.wake = wake
            park()
            return .parked
        }
    }

    /// The server's word that the connection is gone: the close hooks run, writes fail.
    func closed() {
        let (hooks, wake) = state.withLock { state -> ([@Sendable () -> Void], (@Sendable () -> Void)?) in
            guard !state.closed else { return ([], nil) }
            state.closed = true
            state.pending = []
            defer {
                state.closeHooks = []
                state.wake = nil
            }
            return (state.closeHooks, state.wake)
        }
        wake?()
        for hook in hooks { hook() }
    }
}

/// The parked answers of one server, so that stopping it ends them first (libmicrohttpd must
/// not be stopped with a connection suspended): a later answer is given 503, a stream ends.
final class ParkedAnswers: Sendable {
    private let state = Locked<(stopping: Bool, next: Int, items: [Int: Item])>((false, 0, [:]))

    /// What is parked.
    enum Item: Sendable {
        case later(LaterAnswer)
        case stream(ResponseStream)
    }

    /// Runs `park` and keeps `item` until `release(_:)`; nil, without parking, once stopping.
    func park(_ item: Item, _ park: () -> Void) -> Int? {
        state.withLock { state in
            guard !state.stopping else { return nil }
            state.next += 1
            state.items[state.next] = item
            park()
            return state.next
        }
    }

    /// Forgets a parked item (answered, or its connection gone).
    func release(_ key: Int) { state.withLock { _ = $0.items.removeValue(forKey: key) } }

    /// Stops parking and ends everything parked.
    func stopAll() {
        let items = state.withLock { state in
            state.stopping = true
            return Array(state.items.values)
        }
        for item in items {
            switch item {
            case .later(let later): later.resolve(APIv1.failure(503, "ServiceUnavailable", "pushbox is stopping"))
            case .stream(let stream): stream.finish()
            }
        }
    }
}
