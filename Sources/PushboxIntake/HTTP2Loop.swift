import Foundation
import PushboxSystem

#if canImport(Glibc)
    import Glibc
#endif

// @unchecked: everything but `inbox` belongs to the loop's thread (one at a time: a thread
// starts only when the last one has said, under `inbox`'s lock, that it is gone). Other threads
// reach the loop only through `inbox` and `wakeup`. PortTests and HTTP2LoopTests run many
// connections and streams at once.
/// A share of one listener's HTTP/2 connections (a listener has one loop per core), served by
/// one thread. Each round it waits for any of their sockets at once (`poll`), reads every ready
/// one, judges the requests completed in that round as one batch (one transaction, validated on
/// both cores) and writes every answer given meanwhile. Per request that is a share of one
/// wake-up and of one commit, where a thread per connection paid both for every request. A
/// small round, with nothing at the workers, is judged on the loop itself (no thread hop); a
/// larger one goes to a worker while the loop reads on. The thread runs while there are
/// connections and ends with the last.
final class HTTP2Loop: @unchecked Sendable {
    let handler: HTTPRequestHandler
    let workers: DispatchQueue
    let wakeup: Wakeup
    private let isStopping: @Sendable () -> Bool
    private let inbox = Locked(Inbox())

    /// What other threads hand the loop: new connections, answers, streams with more to send.
    struct Inbox {
        var added: [HTTP2Connection] = []
        var answers: [Answer] = []
        var resumable: [(HTTP2Connection, Int32)] = []
        /// Worker batches finished.
        var batchesDone = 0
        /// Whether `wakeup` was signalled since the loop last looked (one signal is enough).
        var signalled = false
        var running = false
    }

    /// An answer for stream `id` of `connection`; `handled` when it answers a request the loop
    /// handed out: it counts down the connection's requests in flight, and the access log has
    /// heard it already unless it is given later (then it is told when the answer comes).
    struct Answer {
        var connection: HTTP2Connection
        var id: Int32
        var head: RequestHead
        var response: HTTPResponse
        var handled: Bool
    }

    /// A complete request waiting to be handled.
    struct Ready {
        var connection: HTTP2Connection
        var id: Int32
        var request: HTTPRequest
        var head: RequestHead
    }

    // The loop thread's own.
    private var connections: [HTTP2Connection] = []
    private var ready: [Ready] = []
    private var batchesInFlight = 0
    private var touched: [HTTP2Connection] = []
    /// Connections that stopped reading with bytes left (their share of one round was used).
    private var readAgain: [HTTP2Connection] = []
    /// Whether the listener is stopping, as the loop last looked (its connections go away).
    private(set) var stopping = false
    private var chaosVersion = -1
    private var nextTimerScan: UInt64 = 0
    /// The most requests one batch takes, and how many batches are with the workers at once:
    /// with a hundred streams in flight, one batch of all of them left the client no stream to
    /// send on and a core idle while the batch was judged and committed; batches of 32, three
    /// at a time, keep the clients sending, the loop reading and one batch validating while
    /// another commits. Requests in flight together are concurrent, as APNs takes them: batches
    /// are judged in the order they reach the phone, the requests of one batch in order.
    static let batchLimit = 32
    static let maxBatchesInFlight = 3
    /// The most requests the loop handles itself, when no batch is with the workers. With one
    /// stream per connection (16 × 1), the clients of a round's requests all wait for their
    /// answers and send nothing meanwhile, so the hop to a worker is only latency (a worker
    /// started 110–160 µs after the hand-off on the busy 2-core machine); a larger round comes
    /// from clients with many streams each, who keep sending while a worker judges it.
    static let inlineLimit = 8
    /// Loops per listener: one per core (at most four), so connections' reads, TLS and nghttp2
    /// run on every core while a loop judges a round itself.
    static let perListener = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)
    /// Bytes one connection may read in one round before the others get theirs.
    static let readShare = 256 * 1024

    init?(handler: HTTPRequestHandler, workers: DispatchQueue, isStopping: @escaping @Sendable () -> Bool) {
        guard let wakeup = Wakeup() else { return nil }
        self.handler = handler
        self.workers = workers
        self.wakeup = wakeup
        self.isStopping = isStopping
    }

    /// Whether the loop's thread is running (it ends with its last connection).
    var isRunning: Bool { inbox.withLock { $0.running } }

    /// Takes a connection whose handshake is done; the loop starts it and serves it to its end.
    func add(_ connection: HTTP2Connection) {
        let start = inbox.withLock { box in
            box.added.append(connection)
            defer { box.running = true }
            return !box.running
        }
        if start {
            Thread.detachNewThread { [self] in run() }
        } else {
            signal()
        }
    }

    /// Answers from a worker or a later answer, for the loop to send.
    func post(_ answers: [Answer], batchDone: Bool) {
        inbox.withLock { box in
            box.answers += answers
            if batchDone { box.batchesDone += 1 }
        }
        signal()
    }

    /// A streamed answer has more to send on stream `id`.
    func resume(_ connection: HTTP2Connection, _ id: Int32) {
        inbox.withLock { $0.resumable.append((connection, id)) }
        signal()
    }

    /// Wakes the loop (once until it looks: further signals would only fill the pipe).
    func signal() {
        let first = inbox.withLock { box in
            defer { box.signalled = true }
            return !box.signalled
        }
        if first { wakeup.signal() }
    }

    /// A complete request from `connection`'s bytes just read, to be handled this round.
    func enqueue(_ item: Ready) {
        item.connection.pending += 1
        ready.append(item)
        // A full batch goes to a worker at once, while the loop reads on: held to the end of the
        // round, it waited out the rest of the reading while the other core idled.
        if ready.count >= Self.batchLimit && batchesInFlight < Self.maxBatchesInFlight { dispatchReady() }
    }

    /// Marks `connection` for this round's settling (writes, end of life).
    func touch(_ connection: HTTP2Connection) {
        guard !connection.touched else { return }
        connection.touched = true
        touched.append(connection)
    }

    private func run() {
        Thread.current.name = "pushbox-h2"
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var fds: [pollfd] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0))
            for connection in connections {
                fds.append(pollfd(fd: connection.fd, events: connection.pollEvents, revents: 0))
            }
            let now = monotonicMilliseconds()
            let timeout = readAgain.isEmpty ? Int32(min(max(0, Int64(nextTimerScan) - Int64(now)), 1000)) : 0
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n > 0 && fds[0].revents != 0 { wakeup.drain() }
            var readable = readAgain
            readAgain.removeAll()
            if n > 0 {
                for (i, connection) in connections.enumerated() {
                    let events = fds[i + 1].revents
                    if events & Int16(POLLIN | POLLHUP | POLLERR) != 0, !connection.rereading { readable.append(connection) }
                    if events & Int16(POLLOUT) != 0 { touch(connection) }
                }
            }
            // A connection just handed over may hold records read with its handshake: read it now.
            readable += takeInbox()
            // The answers the workers left go out before this round reads: their clients send
            // their next requests meanwhile, on the other core (written after the reads, a
            // hundred streams' answers waited out a millisecond of reading while a core idled).
            for connection in touched { connection.sendQueued() }
            for connection in readable where !connection.ended {
                connection.rereading = false
                if connection.readAvailable(into: &buffer, share: Self.readShare) {
                    connection.rereading = true
                    readAgain.append(connection)
                }
                touch(connection)
            }
            followListener()
            dispatchReady()
            let time = monotonicMilliseconds()
            if time >= nextTimerScan { scanTimers(now: time) }
            for connection in touched {
                connection.touched = false
                connection.settle(now: time)
            }
            touched.removeAll(keepingCapacity: true)
            connections.removeAll(where: \.ended)
            readAgain.removeAll(where: \.ended)
            if connections.isEmpty, ready.isEmpty {
                let gone = inbox.withLock { box in
                    guard box.added.isEmpty else { return false }
                    box.running = false
                    return true
                }
                if gone { return }
            }
        }
    }

    /// Starts the connections handed over and delivers what workers and later answers left;
    /// gives the connections started.
    private func takeInbox() -> [HTTP2Connection] {
        let box = inbox.withLock { box in
            defer {
                box.added = []
                box.answers = []
                box.resumable = []
                box.batchesDone = 0
                box.signalled = false
            }
            return box
        }
        batchesInFlight -= box.batchesDone
        for connection in box.added {
            connections.append(connection)
            connection.start(now: monotonicMilliseconds())
            touch(connection)
            nextTimerScan = 0
        }
        for answer in box.answers { deliver(answer) }
        for (connection, id) in box.resumable where !connection.ended {
            connection.resumeData(id)
            touch(connection)
        }
        return box.added.filter { !$0.ended }
    }

    private func deliver(_ answer: Answer) {
        let connection = answer.connection
        if answer.handled { connection.pending -= 1 }
        guard !connection.ended else { return }
        connection.submit(answer.id, head: answer.head, response: answer.response, logged: answer.handled && answer.response.later == nil)
        touch(connection)
    }

    /// A stopping listener, or chaos rules that changed: every connection settles this round.
    private func followListener() {
        let stopping = isStopping()
        let version = handler.chaosRules?.version ?? -1
        guard stopping != self.stopping || version != chaosVersion else { return }
        self.stopping = stopping
        chaosVersion = version
        for connection in connections { touch(connection) }
        nextTimerScan = 0
    }

    /// Hands the ready requests on while fewer than `maxBatchesInFlight` batches are with the
    /// workers: a round of at most `inlineLimit`, with none in flight, right here; else up to
    /// `batchLimit` as one batch on a worker, while the loop reads on.
    private func dispatchReady() {
        while !ready.isEmpty && batchesInFlight < Self.maxBatchesInFlight {
            let batch = Array(ready.prefix(Self.batchLimit))
            ready.removeFirst(batch.count)
            if batch.count <= Self.inlineLimit && batchesInFlight == 0 {
                let responses = batch.count == 1 ? [handler.handle(batch[0].request)] : handler.handle(batch: batch.map(\.request))
                for answer in answers(batch, responses) { deliver(answer) }
                continue
            }
            batchesInFlight += 1
            workers.async { [self] in
                post(answers(batch, handler.handle(batch: batch.map(\.request))), batchDone: true)
            }
        }
    }

    /// The answers to `batch`, told to the access log where they were made (on a worker, so
    /// the loop only sends them); one given later is told when it comes.
    private func answers(_ batch: [Ready], _ responses: [HTTPResponse]) -> [Answer] {
        zip(batch, responses).map { item, response in
            if response.later == nil {
                var head = item.head
                head.bodyBytes = item.request.bodyLength ?? item.request.body.count
                handler.answered(head, response)
            }
            return Answer(connection: item.connection, id: item.id, head: item.head, response: response, handled: true)
        }
    }

    /// Idle connections and closing deadlines (a connection that goes away is touched, and
    /// settles with the others): the next scan is at the earliest deadline (at most a second
    /// away, so changed chaos rules and a slow client are seen within one).
    private func scanTimers(now: UInt64) {
        var next = now + 1000
        for connection in connections where !connection.ended {
            next = min(next, max(connection.checkTimers(now: now), now + 1))
        }
        nextTimerScan = next
    }
}
