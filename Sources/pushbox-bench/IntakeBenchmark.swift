import Foundation
import PushboxCore
import PushboxFetch
import PushboxIntake
import PushboxLocalization
import PushboxStore

/// `pushbox-bench intake`: concurrent clients post payloads over the Unix socket to a real
/// intake (libmicrohttpd, SQLite WAL, validation, background rendering); every acknowledged
/// payload must be in the store.
enum IntakeBenchmark {
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        var latencies: [Double] = []
        var acknowledged = 0
        var failed = 0
        func add(_ l: [Double], ok: Int, bad: Int) {
            lock.lock()
            latencies += l
            acknowledged += ok
            failed += bad
            lock.unlock()
        }
    }

    static func run(total: Int, clients: Int, samples: String?) {
        let dir = "/tmp/pushbox-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard let store = try? InboxStore(path: dir + "/inbox.sqlite") else { print("error: cannot open the store"); exit(1) }
        let localizer = samples.map { Localizer(app: AppLocalizations(directory: $0 + "/SampleApp")) }
        let processor = NotificationProcessor(renderer: Renderer(context: ValidationContext(), preferredLanguages: ["en"], localizer: localizer), store: store)
        let service = IntakeService(store: store, context: ValidationContext(), processor: processor)
        var options = IntakeServer.Options(socketPath: dir + "/s.sock")
        options.threads = 4
        let server: IntakeServer
        do { server = try IntakeServer(service: service, options: options) } catch { print("error: \(error)"); exit(1) }
        let bodies = (0..<256).map { Array(SyntheticPayloads.make($0).utf8) }
        let results = Results()
        let group = DispatchGroup()
        let perClient = total / clients
        let socket = options.socketPath
        let clock = ContinuousClock()
        let start = clock.now
        for c in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let client = UnixHTTPClient(socketPath: socket) else { return }
                var latencies: [Double] = []
                latencies.reserveCapacity(perClient)
                var ok = 0, bad = 0
                let clock = ContinuousClock()
                for i in 0..<perClient {
                    let t0 = clock.now
                    let r = client.request("POST", url: "http://localhost/3/device/5e1ec7ed", headers: [("apns-push-type", "alert")],
                                           body: bodies[(c * perClient + i) % bodies.count], timeoutMs: 10_000)
                    let (s, atto) = (clock.now - t0).components
                    latencies.append(Double(s) * 1000 + Double(atto) / 1e15)
                    if case .success(let answer) = r, answer.status == 200 { ok += 1 } else { bad += 1 }
                }
                results.add(latencies, ok: ok, bad: bad)
            }
        }
        group.wait()
        let (s, atto) = (clock.now - start).components
        let seconds = Double(s) + Double(atto) / 1e18
        processor.drain()
        server.stop()
        let stored = store.count
        let latencies = results.latencies.sorted()
        let p50 = latencies[latencies.count / 2], p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        print("pushbox-bench intake: \(clients) concurrent clients, \(perClient * clients) payloads of about \(bodies[0].count) bytes over \(socket)")
        print(String(format: "  accepted      %8.0f payloads/s   (%d acknowledged, %d failed, %.2f s)", Double(results.acknowledged) / seconds, results.acknowledged, results.failed, seconds))
        print(String(format: "  latency       p50 %.2f ms   p99 %.2f ms", p50, p99))
        print("  stored        \(stored) (acknowledged \(results.acknowledged): \(stored == results.acknowledged ? "nothing lost" : "MISMATCH"))")
        print("  target: at least 5,000/s sustained → \(Double(results.acknowledged) / seconds >= 5000 ? "met" : "NOT met")")
        if stored != results.acknowledged { exit(1) }
    }
}
