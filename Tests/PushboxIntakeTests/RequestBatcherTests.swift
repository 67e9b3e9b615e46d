import Foundation
import PushboxSystem
import Testing

@testable import PushboxIntake

/// A handler of batching requests. The one handled in place waits (at most 10 s) until a batch
/// has started — so another request was queued meanwhile — and the first batch is held until
/// `release()`: the sizes of the batches it was handed, and how many were handled in place.
private final class HeldBatches: HTTPRequestHandler, @unchecked Sendable {
    // `held`, `sizes` and `single` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var held = true
    private var sizes: [Int] = []
    private var single = 0

    func early(_ head: RequestHead) -> EarlyAnswer { EarlyAnswer(response: nil, maxBody: 1024, batches: true) }
    func tooLarge(_ head: RequestHead) -> HTTPResponse { HTTPResponse(status: 413) }
    func answered(_ head: RequestHead, _ response: HTTPResponse) {}
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        condition.lock()
        defer { condition.unlock() }
        single += 1
        let deadline = Date().addingTimeInterval(10)
        while sizes.isEmpty && condition.wait(until: deadline) {}
        return HTTPResponse(status: request.body.count == 10 ? 200 : 400)
    }
    func handle(batch requests: [HTTPRequest]) -> [HTTPResponse] {
        condition.lock()
        defer { condition.unlock() }
        let first = sizes.isEmpty
        sizes.append(requests.count)
        condition.broadcast()
        let deadline = Date().addingTimeInterval(10)
        while first && held && condition.wait(until: deadline) {}
        return requests.map { HTTPResponse(status: $0.body.count == 10 ? 200 : 400) }
    }
    func release() {
        condition.withLock { held = false }
        condition.broadcast()
    }
    var batches: (sizes: [Int], single: Int) { condition.withLock { (sizes, single) } }
}

@Suite("Pushes on the socket are handed over in batches")
struct RequestBatcherTests {
    @Test(
        "daemon threads keep reading while a batch is handled: of eight pushes on two threads, the first is handled in place, all read while the first batch is held, each handled once"
    )
    func threadKeepsReading() throws {
        try Self.serving { server, path, handler in
            let clients = 8
            let answers = Locked<[String]>([])
            let done = DispatchGroup()
            for _ in 0..<clients { Self.post(path, answers, done) }
            // Were a thread to wait for its request's batch, no body after its own would be read on it.
            let deadline = Date().addingTimeInterval(10)
            while server.bodyBytesRead < clients * 10 && Date() < deadline { usleep(5_000) }
            let readWhileHeld = server.bodyBytesRead
            handler.release()
            done.wait()
            #expect(readWhileHeld == clients * 10)
            #expect(answers.withLock { $0 } == Array(repeating: "HTTP/1.1 200", count: clients))
            let (sizes, single) = handler.batches
            // Each push handled once; how many batches depends on how the clients' requests trickle in.
            #expect(single >= 1)
            #expect(single + sizes.reduce(0, +) == clients)
        }
    }

    @Test("a server stopping while a batch is judged lets it commit and answer: 200 to both pushes, not 503 to the one batched")
    func stopWaitsForBatches() throws {
        try Self.serving { server, path, handler in
            let answers = Locked<[String]>([])
            let done = DispatchGroup()
            for _ in 0..<2 { Self.post(path, answers, done) }
            // The first is handled in place once the second's batch started; that batch is held.
            let deadline = Date().addingTimeInterval(10)
            while handler.batches.sizes.isEmpty && Date() < deadline { usleep(2_000) }
            let stopped = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                server.stop()
                stopped.signal()
            }
            usleep(200_000)
            handler.release()
            done.wait()
            stopped.wait()
            #expect(handler.batches.sizes == [1])
            #expect(answers.withLock { $0 } == ["HTTP/1.1 200", "HTTP/1.1 200"])
        }
    }

    /// Runs `body` with an HTTP/1.1 server of two daemon threads on a Unix socket of a folder
    /// of its own, its handler `HeldBatches`; stopped (when `body` did not) and removed after.
    private static func serving(_ body: (HTTPServer, String, HeldBatches) throws -> Void) throws {
        let dir = NSTemporaryDirectory() + "pushbox-batches-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.sock"
        let handler = HeldBatches()
        let server = try HTTPServer(
            listenFD: try Listeners.unixSocket(path), handler: handler,
            connection: ConnectionInfo(listener: "unix \(path)", protocolName: "http/1.1", tls: false, requiresAuth: false), threads: 2)
        defer { server.stop() }
        try body(server, path, handler)
    }

    /// Posts a push of ten bytes on a connection of its own, from a thread of its own; the
    /// answer's status line goes into `answers`.
    private static func post(_ path: String, _ answers: Locked<[String]>, _ done: DispatchGroup) {
        done.enter()
        Thread.detachNewThread {
            let fd = RawSocket.connect(path)
            let request = "POST /3/device/abc HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789"
            _ = RawSocket.send(fd, Array(request.utf8))
            let text = RawSocket.readAll(fd)
            close(fd)
            answers.withLock { $0.append(String(text.prefix(12))) }
            done.leave()
        }
    }
}
