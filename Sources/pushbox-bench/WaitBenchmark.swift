import Foundation
import PushboxFetch
import PushboxInbox
import PushboxIntake
import PushboxPayload
import PushboxSystem

/// `pushbox-bench wait [ROUNDS] [WAITERS]`: how soon `GET /api/v1/wait` returns after the push it
/// waits for is answered, over pushbox's socket with libcurl as a test's HTTP client: one waiter,
/// then WAITERS (default 100) at once, parked, each round; p50 and p99 of ROUNDS (default 100)
/// against a push's own round trip measured in the same run.
enum WaitBenchmark {
    static func run(rounds: Int, waiters: Int, samples: String?) {
        let inbox = BenchInbox.make("wait", samples: samples)
        defer { inbox.remove() }
        let (folder, service) = (inbox.folder, inbox.service)
        let socket = folder + "/s.sock"
        guard let server = try? IntakeServer(service: service, options: IntakeServer.Options(socketPath: socket)) else {
            print("error: cannot listen on \(socket)")
            exit(1)
        }
        defer { server.stop() }
        let clock = ContinuousClock()
        let origin = clock.now
        @Sendable func now() -> Double {
            let d = clock.now - origin
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        /// Sends push `i` (title `Round i`); the moment its answer arrived.
        func push(_ client: UnixHTTPClient, _ i: Int) -> Double {
            let body = Array(#"{"aps":{"alert":{"title":"Round \#(i)","body":"wait benchmark"}}}"#.utf8)
            _ = client.request("POST", url: "http://localhost/3/device/\(String(repeating: "ab", count: 32))", headers: [], body: body)
            return now()
        }
        guard let sender = UnixHTTPClient(socketPath: socket) else { exit(1) }
        var roundTrips: [Double] = []
        for i in 0..<rounds {
            let start = now()
            roundTrips.append(push(sender, -1 - i) - start)
        }
        print("pushbox-bench wait: \(rounds) rounds over the socket (libcurl), a push answered, then how long until the waiters return")
        print(row("baseline: a push's own round trip", roundTrips))
        var round = 0
        for count in [1, waiters] {
            var latencies: [Double] = []
            for _ in 0..<rounds {
                round += 1
                let returned = Locked<[Double]>([])
                let group = DispatchGroup()
                let parked = DispatchSemaphore(value: 0)
                for _ in 0..<count {
                    group.enter()
                    Thread.detachNewThread { [round] in
                        defer { group.leave() }
                        guard let client = UnixHTTPClient(socketPath: socket) else { return }
                        parked.signal()
                        let answer = client.request(
                            "GET", url: "http://localhost/api/v1/wait?query=title:%22Round%20\(round)%22&timeout=20", headers: [], body: [])
                        if case .success(let r) = answer, r.status == 200 { returned.withLock { $0.append(now()) } }
                    }
                }
                for _ in 0..<count { parked.wait() }
                // Every waiter's request is parked before the push goes (they are cheap to wait for).
                usleep(count == 1 ? 5_000 : 50_000)
                let answered = push(sender, round)
                group.wait()
                let times = returned.withLock { $0 }
                guard times.count == count else {
                    print("error: \(count - times.count) of \(count) waiters did not return the push")
                    exit(1)
                }
                latencies.append((times.max() ?? answered) - answered)
            }
            print(row("\(count) waiter\(count == 1 ? "" : "s"): the push answered → the last returned", latencies, baseline: roundTrips))
        }
    }

    static func row(_ name: String, _ samples: [Double], baseline: [Double]? = nil) -> String {
        let sorted = samples.sorted()
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        var text = name.padding(toLength: 58, withPad: " ", startingAt: 0) + String(format: "p50 %7.2f ms   p99 %7.2f ms", p50 * 1000, p99 * 1000)
        if let baseline {
            let b = baseline.sorted()[baseline.count / 2]
            text += String(format: "   %.1f× a push's round trip", p50 / b)
        }
        return text
    }
}
