import Dispatch
import Foundation
import PushboxSystem

/// Requests whose routes take batches, gathered from the HTTP/1.1 server's threads and handed
/// to the handler together (`handle(batch:)`: pushes judged and committed in one transaction),
/// each answered through its `LaterAnswer` — the connection parked meanwhile, so no server
/// thread waits for a commit. A request that finds nothing queued or running is handled in
/// place (`claimInline`): one client's pushes, one after the other, pay no hand-over to a
/// worker and back (at 1 client that cost a quarter of the rate). Those that come meanwhile are queued
/// and handled together, so a batch holds what arrived during the one before it.
final class RequestBatcher: Sendable {
    /// The most requests one batch takes.
    static let batchLimit = 32
    /// Batches handled at once: one validates while another commits.
    static let maxInFlight = 2

    private let handler: HTTPRequestHandler
    private let workers: DispatchQueue
    private let state = Locked<(queued: [(request: HTTPRequest, answer: LaterAnswer)], running: Int)>(([], 0))

    /// A batcher handing batches to `handler` on `workers`.
    init(handler: HTTPRequestHandler, workers: DispatchQueue = .global()) {
        self.handler = handler
        self.workers = workers
    }

    /// Queues `request`; `answer` is resolved with its response once its batch is handled.
    func add(_ request: HTTPRequest, answer: LaterAnswer) {
        let start = state.withLock { state in
            state.queued.append((request, answer))
            guard state.running < Self.maxInFlight else { return false }
            state.running += 1
            return true
        }
        if start { workers.async { [self] in drain() } }
    }

    /// Whether the caller may handle one request in place, now: nothing is queued or running.
    /// True counts it as running until `endInline`, so requests meanwhile are queued.
    func claimInline() -> Bool {
        state.withLock { state in
            guard state.running == 0 && state.queued.isEmpty else { return false }
            state.running = 1
            return true
        }
    }

    /// Ends what `claimInline` allowed: the requests queued meanwhile go to a worker.
    func endInline() {
        let start = state.withLock { state in
            guard state.queued.isEmpty else { return true }  // the turn passes to the drain
            state.running -= 1
            return false
        }
        if start { workers.async { [self] in drain() } }
    }

    /// Waits until no batch runs and none is queued, at most `timeout` seconds: a server
    /// stopping lets the pushes it took be committed and answered before it ends what is parked.
    /// Whether it emptied.
    @discardableResult
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while state.withLock({ $0.running > 0 || !$0.queued.isEmpty }) {
            if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
            usleep(1000)
        }
        return true
    }

    /// Handles batches until none is queued.
    private func drain() {
        while true {
            let batch = state.withLock { state -> [(request: HTTPRequest, answer: LaterAnswer)]? in
                guard !state.queued.isEmpty else {
                    state.running -= 1
                    return nil
                }
                let batch = Array(state.queued.prefix(Self.batchLimit))
                state.queued.removeFirst(batch.count)
                return batch
            }
            guard let batch else { return }
            let responses = handler.handle(batch: batch.map(\.request))
            for (item, response) in zip(batch, responses) { item.answer.resolve(response) }
        }
    }
}
