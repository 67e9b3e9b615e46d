import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// The guard the benchmark's HTTP/2 goal needs in every run: at 16 requests in flight, the
/// path real clients use (h2load, HTTP/2 over TLS with a provider token) must not fall below
/// pushbox's own Unix socket (16 libcurl clients) by more than this machine's noise. Both are
/// measured five times, alternately, on one intake; the medians are compared, with the runs'
/// own spread as the margin — a ratio in the same run, not a speed. `make test` runs it on its
/// own after the rest of the suite: beside other suites' work its ratio read lower (0.70–0.84
/// against 0.82–1.02 alone, with a thread per connection).
///
/// The bar is the goal, 1.0×: since the HTTP/2 connections are served by one loop per core,
/// each round's requests judged as one batch (2026-12-05), HTTP/2 at 16 × 1 measured 1.17–1.26×
/// the socket in the release build and 1.14–1.22× here (three runs alone); before, with a
/// thread per connection, 0.82–1.02× here, and the bar was 0.85, the level it held.
@Suite(
    "HTTP/2 keeps up with the socket", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/h2load"), "h2load is missing (make test installs nghttp2-client)"))
struct HTTP2GuardTests {
    static let perRun = 2400
    static let rounds = 5
    /// The share of the socket's rate HTTP/2 must hold at 16 in flight: the goal.
    static let held = 1.0

    @Test("16 in flight: HTTP/2 over TLS at least the socket's rate, within the runs' noise; every request stored")
    func http2KeepsUp() throws {
        let f = try PortFixture()
        let body = f.dir + "/body.json"
        try Data(PortFixture.payload.utf8).write(to: URL(fileURLWithPath: body))
        let token = f.token()
        var h2: [Double] = []
        var socket: [Double] = []
        for _ in 0..<Self.rounds {
            h2.append(try Self.h2load(f, body: body, token: token))
            socket.append(try Self.socketRate(f.server.options.socketPath))
        }
        #expect(f.store.count == 2 * Self.rounds * Self.perRun, "stored \(f.store.count) of \(2 * Self.rounds * Self.perRun) acknowledged")
        func spread(_ v: [Double]) -> Double { (v.max()! - v.min()!) / BenchReport.median(v) }
        let margin = max(0.15, spread(h2), spread(socket))
        let ratio = BenchReport.median(h2) / BenchReport.median(socket)
        #expect(
            ratio >= Self.held * (1 - margin),
            "HTTP/2 \(h2.map { Int($0) })/s against the socket's \(socket.map { Int($0) })/s: median ratio \(String(format: "%.2f", ratio)), below \(Self.held) × (1 − the runs' noise \(String(format: "%.2f", margin)))"
        )
    }

    /// h2load: 16 connections × 1 stream over TLS; requests per second, every one answered 200.
    static func h2load(_ f: PortFixture, body: String, token: String) throws -> Double {
        let run = LoadDrivers.h2load(
            url: f.url, total: perRun, connections: 16, streams: 1, body: body,
            headers: ["-H", "authorization: bearer \(token)", "-H", "apns-topic: dev.pushbox.sample"], directory: f.dir)
        try #require(run.ok == perRun, "h2load: \(run.ok) of \(perRun) answered 200")
        return run.rate
    }

    /// 16 keep-alive libcurl clients on the Unix socket; requests per second, every one answered 200.
    static func socketRate(_ path: String) throws -> Double {
        let run = LoadDrivers.unixSocket(
            socket: path, path: "/3/device/\(PortFixture.deviceToken)", total: perRun, clients: 16, body: Array(PortFixture.payload.utf8),
            headers: [("apns-push-type", "alert"), ("apns-topic", "dev.pushbox.sample")])
        try #require(run.ok == perRun, "the socket: \(run.ok) of \(perRun) answered 200")
        return run.rate
    }
}
