import Foundation
import PushboxPayload
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// A handler that records how many requests each call judged, and holds every call until the
/// gate opens (at most 5 s).
private final class Gate: HTTPRequestHandler, @unchecked Sendable {
    // `open` and `calls` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var open = false
    private var calls: [Int] = []

    func early(_ head: RequestHead) -> EarlyAnswer { EarlyAnswer(response: nil, maxBody: 4096) }
    func tooLarge(_ head: RequestHead) -> HTTPResponse { HTTPResponse(status: 413) }
    func answered(_ head: RequestHead, _ response: HTTPResponse) {}
    func handle(_ request: HTTPRequest) -> HTTPResponse { handle(batch: [request])[0] }
    func handle(batch requests: [HTTPRequest]) -> [HTTPResponse] {
        condition.lock()
        defer { condition.unlock() }
        calls.append(requests.count)
        let deadline = Date().addingTimeInterval(5)
        while !open && condition.wait(until: deadline) {}
        return requests.map { _ in HTTPResponse(status: 200) }
    }

    func letThrough() {
        condition.lock()
        open = true
        condition.broadcast()
        condition.unlock()
    }

    /// The requests of each call so far.
    var sizes: [Int] {
        condition.lock()
        defer { condition.unlock() }
        return calls
    }
}

@Suite(
    "HTTP/2 connections served together by the listener's loops",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/h2load"), "h2load is missing (make test installs nghttp2-client)"))
struct HTTP2LoopTests {
    @Test("requests of different connections that are read in one round are judged in one call, and the loops end with their last connection")
    func oneRoundOneBatch() throws {
        let folder = TemporaryFolder("pbloop")
        let dir = folder.path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let body = dir + "/body.json"
        try Data(#"{"aps":{"alert":"hi"}}"#.utf8).write(to: URL(fileURLWithPath: body))
        let gate = Gate()
        let (fd, port) = try Listeners.tcp("127.0.0.1:0", allowAny: false)
        let listener = try PortListener(
            listenFD: fd, address: "127.0.0.1", port: port, handler: gate, tls: nil, threads: 1, idleTimeout: 30)
        defer { listener.stop() }
        // 16 h2c connections with one stream each: a connection sends its next request only
        // after its answer, so a call that judges k requests judges k connections' requests.
        let run = Locked<LoadDrivers.Run?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            run.withLock {
                $0 = LoadDrivers.h2load(
                    url: "http://127.0.0.1:\(port)/3/device/abc", total: 16, connections: 16, streams: 1, body: body, headers: [],
                    directory: dir)
            }
            finished.signal()
        }
        // The first round of each loop is held at the gate while every connection comes in
        // and sends its request.
        let deadline = Date().addingTimeInterval(10)
        while listener.liveConnections < 16 && Date() < deadline { usleep(10_000) }
        #expect(listener.liveConnections == 16)
        usleep(300_000)
        gate.letThrough()
        #expect(finished.wait(timeout: .now() + 20) == .success)
        #expect(run.withLock { $0?.ok } == 16)
        let sizes = gate.sizes
        #expect(sizes.reduce(0, +) == 16)
        // A loop judges what its first round read, then everything that came meanwhile at once:
        // at most two calls a loop for 16 requests, so calls of several connections' requests.
        #expect(sizes.count <= 2 * listener.loops.count, "calls of \(sizes)")
        // h2load has closed its connections: every loop's thread ends.
        let ended = Date().addingTimeInterval(5)
        while listener.loops.contains(where: \.isRunning) && Date() < ended { usleep(10_000) }
        let running = listener.loops.filter(\.isRunning).count
        #expect(running == 0)
        #expect(listener.liveConnections == 0)
    }
}
