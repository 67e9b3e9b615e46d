import Foundation
import PushboxFetch
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// The guard the benchmark's HTTP/2 goal needs in every run: at 16 requests in flight, the
/// path real clients use (h2load, HTTP/2 over TLS with a provider token) must not fall below
/// pushbox's own Unix socket (16 libcurl clients) by more than this machine's noise. Both are
/// measured three times, alternately, on one intake; the medians are compared, with the runs'
/// own spread as the margin — a ratio in the same run, not a speed.
@Suite(
    "HTTP/2 keeps up with the socket", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/h2load"), "h2load is missing (make test installs nghttp2-client)"))
struct HTTP2GuardTests {
    static let perRun = 2400

    @Test("16 in flight: HTTP/2 over TLS at least the socket's rate, within the runs' noise; every request stored")
    func http2KeepsUp() throws {
        let f = try PortFixture()
        let body = f.dir + "/body.json"
        try Data(PortFixture.payload.utf8).write(to: URL(fileURLWithPath: body))
        let token = f.token()
        var h2: [Double] = []
        var socket: [Double] = []
        for _ in 0..<3 {
            h2.append(try Self.h2load(f, body: body, token: token))
            socket.append(Self.socketRate(f.server.options.socketPath))
        }
        #expect(f.store.count == 6 * Self.perRun, "stored \(f.store.count) of \(6 * Self.perRun) acknowledged")
        func median(_ v: [Double]) -> Double { v.sorted()[1] }
        func spread(_ v: [Double]) -> Double { (v.max()! - v.min()!) / median(v) }
        let margin = max(0.15, spread(h2), spread(socket))
        let ratio = median(h2) / median(socket)
        #expect(
            ratio >= 1 - margin,
            "HTTP/2 \(h2.map { Int($0) })/s against the socket's \(socket.map { Int($0) })/s: median ratio \(String(format: "%.2f", ratio)), below 1 − the runs' noise \(String(format: "%.2f", margin))"
        )
    }

    /// h2load: 16 connections × 1 stream over TLS; requests per second.
    static func h2load(_ f: PortFixture, body: String, token: String) throws -> Double {
        let r = try Subprocess.run(
            "/usr/bin/h2load",
            [
                "-n", String(perRun), "-c", "16", "-m", "1", "-d", body, "-H", "authorization: bearer \(token)", "-H",
                "apns-topic: dev.pushbox.sample",
                f.url,
            ], timeout: 120)
        try #require(r.out.contains("\(perRun) succeeded"), "\(r.out)")
        let line = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("finished in") })
        let field = try #require(line.split(separator: ",").dropFirst().first)
        return try #require(Double(field.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]))
    }

    /// 16 keep-alive libcurl clients on the Unix socket; requests per second.
    static func socketRate(_ path: String) -> Double {
        let clients = 16
        let ok = Locked(0)
        let group = DispatchGroup()
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let client = UnixHTTPClient(socketPath: path) else { return }
                var mine = 0
                for _ in 0..<(perRun / clients) {
                    let r = client.request(
                        "POST", url: "http://localhost/3/device/\(PortFixture.deviceToken)",
                        headers: [("apns-push-type", "alert"), ("apns-topic", "dev.pushbox.sample")], body: Array(PortFixture.payload.utf8),
                        timeoutMs: 10_000)
                    if case .success(let answer) = r, answer.status == 200 { mine += 1 }
                }
                ok.withLock { $0 += mine }
            }
        }
        group.wait()
        let (s, atto) = (clock.now - start).components
        return Double(ok.withLock { $0 }) / (Double(s) + Double(atto) / 1e18)
    }
}
