import Foundation
import PushboxFetch
import PushboxSystem

/// The loads the HTTP/2 benchmark and its guard test drive pushbox with, from real clients:
/// h2load over the TCP port, and keep-alive libcurl clients on the Unix socket.
public enum LoadDrivers {
    /// What one load gave: requests per second, the requests answered 200, and each request's
    /// time in milliseconds (sorted; empty when the client does not report them).
    public struct Run: Sendable {
        /// Requests per second over the whole run.
        public var rate: Double
        /// Requests answered 200.
        public var ok: Int
        /// Each request's time in milliseconds, sorted.
        public var latencies: [Double]

        /// The latency at `percent` (50: the median), 0 when none were measured.
        public func percentile(_ percent: Int) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, latencies.count * percent / 100)]
        }
    }

    /// h2load: `total` POSTs of the file `body` to `url` over `connections` × `streams`, each
    /// request's time read from its log (written in `directory`).
    public static func h2load(
        url: String, total: Int, connections: Int, streams: Int, body: String, headers: [String], directory: String
    ) -> Run {
        let log = directory + "/h2load.log"
        try? FileManager.default.removeItem(atPath: log)  // h2load appends
        let out =
            (try? Subprocess.run(
                "/usr/bin/h2load",
                ["-n", String(total), "-c", String(connections), "-m", String(streams), "-d", body, "--log-file=\(log)"] + headers + [url],
                timeout: 600))?.out ?? ""
        var rate = 0.0
        if let line = out.split(separator: "\n").first(where: { $0.hasPrefix("finished in") }),
            let field = line.split(separator: ",").dropFirst().first
        {
            rate = Double(field.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) ?? 0
        }
        let rows = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.split(separator: "\t") }
        let ok = rows.filter { $0.count == 3 && $0[1] == "200" }.count
        let latencies = rows.compactMap { $0.count == 3 ? Double($0[2]).map { $0 / 1000 } : nil }.sorted()
        return Run(rate: rate, ok: ok, latencies: latencies)
    }

    /// `clients` keep-alive libcurl clients, each POSTing `body` to `path` (`total / clients`
    /// times) on the Unix socket at `socket`.
    public static func unixSocket(socket: String, path: String, total: Int, clients: Int, body: [UInt8], headers: [(String, String)]) -> Run {
        let box = Locked<(latencies: [Double], ok: Int)>(([], 0))
        let group = DispatchGroup()
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let client = UnixHTTPClient(socketPath: socket) else { return }
                var mine: [Double] = []
                var ok = 0
                for _ in 0..<(total / clients) {
                    let t0 = clock.now
                    let r = client.request("POST", url: "http://localhost" + path, headers: headers, body: body, timeoutMs: 10_000)
                    let (s, atto) = (clock.now - t0).components
                    mine.append(Double(s) * 1000 + Double(atto) / 1e15)
                    if case .success(let answer) = r, answer.status == 200 { ok += 1 }
                }
                box.withLock {
                    $0.latencies += mine
                    $0.ok += ok
                }
            }
        }
        group.wait()
        let (s, atto) = (clock.now - start).components
        let (latencies, ok) = box.withLock { $0 }
        return Run(rate: Double(ok) / (Double(s) + Double(atto) / 1e18), ok: ok, latencies: latencies.sorted())
    }
}
