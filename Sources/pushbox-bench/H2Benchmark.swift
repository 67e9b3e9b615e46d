import Foundation
import PushboxFetch
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxTLS
import PushboxTestSupport

/// `pushbox-bench h2`: h2load (nghttp2-client) against pushbox's port and, in the same run,
/// against nghttpd (nghttp2-server, the reference server, answering a small static file), for
/// 1 connection × 100 streams and 16 connections × 10 streams; then pushbox's HTTP/2 intake
/// against its own Unix-socket intake (16 libcurl clients) on the same payload count. Three
/// rounds of each, alternated; the medians judged against the goals and, with `--markdown`,
/// written into docs/benchmarks.md.
enum H2Benchmark {
    struct Figures {
        var rate: Double
        var p50: Double, p99: Double
        var ok: Int
    }

    // Long on purpose: a benchmark reads as its script: set up, drive, measure, print.
    /// `only` ("1x100"): that shape against pushbox alone, three times (for a profiler).
    /// `markdown`: the file whose `h2` block (`BenchReport`) gets the medians.
    static func run(total: Int, only: (connections: Int, streams: Int)? = nil, markdown: String? = nil) {
        for tool in ["/usr/bin/h2load", "/usr/sbin/nghttpd", "/usr/bin/openssl"] where !FileManager.default.isExecutableFile(atPath: tool) {
            print("error: \(tool) is missing (make bench installs nghttp2-client, nghttp2-server and openssl)")
            exit(1)
        }
        let dir = "/tmp/pushbox-bench-h2-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir + "/www", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let body = dir + "/body.json"
        _ = FileManager.default.createFile(atPath: body, contents: Data(SyntheticPayloads.make(1).utf8))
        _ = FileManager.default.createFile(atPath: dir + "/www/ok", contents: Data())

        // The key and token every pushbox below verifies.
        guard let authority = try? CertificateAuthority(directory: dir + "/tls"),
            let key = try? ES256Key.generate(dir + "/AuthKey_BENCHKEY01.p8"),
            let tls = try? TLSServerContext(authority: authority)
        else {
            print("error: cannot set up the CA or the key")
            exit(1)
        }
        let token = ProviderToken.encode(keyID: "BENCHKEY01", teamID: "BENCHTEAM1", issuedAt: Int(Date().timeIntervalSince1970), sign: key.sign) ?? ""
        let headers = ["-H", "authorization: bearer \(token)", "-H", "apns-push-type: alert"]
        var lost = false
        /// A fresh intake as `serve` runs it (TLS, the key registered, a new store) for each measurement.
        func withIntake(_ body: (IntakeServer) -> Int) {
            let runDir = dir + "/run-\(UUID().uuidString.prefix(6))"
            try? FileManager.default.createDirectory(atPath: runDir, withIntermediateDirectories: true)
            guard let store = try? InboxStore(path: runDir + "/inbox.sqlite") else {
                print("error: cannot open a store")
                exit(1)
            }
            var options = IntakeServer.Options(socketPath: runDir + "/s.sock")
            options.tcp = "127.0.0.1:0"
            options.tls = tls
            options.providerKeys = [RegisteredProviderKey(keyID: "BENCHKEY01", teamID: "BENCHTEAM1", key: key)]
            let server: IntakeServer
            do {
                server = try IntakeServer(service: IntakeService(store: store, context: ValidationContext(), renderings: nil), options: options)
            } catch {
                print("error: \(error)")
                exit(1)
            }
            let acknowledged = body(server)
            server.stop()
            if store.count != acknowledged {
                print("  MISMATCH: stored \(store.count) of \(acknowledged) acknowledged")
                lost = true
            }
        }

        if let (connections, streams) = only {
            for _ in 0..<3 {
                withIntake { server in
                    // h2load is a child process: this process's own CPU time is the intake's.
                    let cpuBefore = IntakeBenchmark.cpuSeconds(getpid())
                    let mine = h2load(
                        url: "https://localhost:\(server.tcpPort ?? 0)/3/device/5e1ec7ed", total: total, connections: connections, streams: streams,
                        body: body, headers: headers, dir: dir)
                    let cpuMicros = (IntakeBenchmark.cpuSeconds(getpid()) - cpuBefore) / Double(max(1, mine.ok)) * 1e6
                    print(
                        String(
                            format: "  pushbox %2d conn × %3d streams  %7.0f/s  p50 %.2f ms  p99 %.2f ms  CPU %.0f µs/request", connections, streams,
                            mine.rate, mine.p50, mine.p99, cpuMicros))
                    return mine.ok
                }
            }
            if lost { exit(1) }
            return
        }
        // nghttpd on its own port with a throw-away certificate.
        let nghttpdPort = 20000 + Int(getpid() % 20000)
        _ = shell(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem", "-subj", "/CN=localhost",
            ])
        let nghttpd: Subprocess.Child
        do {
            nghttpd = try Subprocess.Child("/usr/sbin/nghttpd", ["-d", dir + "/www", String(nghttpdPort), dir + "/key.pem", dir + "/cert.pem"])
        } catch {
            print("error: cannot start nghttpd: \(error)")
            exit(1)
        }
        defer { _ = nghttpd.terminate(grace: 2) }
        usleep(300_000)

        let rounds = 3
        let size = SyntheticPayloads.make(1).utf8.count
        print("pushbox-bench h2: \(total) POSTs of \(size) bytes per run, h2load over TLS on loopback, \(rounds) rounds")
        print("  shape                    nghttpd (static)        pushbox (validated, stored)   ratio")
        var rows: [[String]] = []
        var ratios: [String: Double] = [:]
        for (connections, streams) in [(1, 100), (16, 10)] {
            var reference: [Figures] = []
            var mine: [Figures] = []
            for round in 1...rounds {
                reference.append(
                    h2load(
                        url: "https://localhost:\(nghttpdPort)/ok", total: total, connections: connections, streams: streams, body: body, headers: [],
                        dir: dir))
                withIntake { server in
                    mine.append(
                        h2load(
                            url: "https://localhost:\(server.tcpPort ?? 0)/3/device/5e1ec7ed", total: total, connections: connections,
                            streams: streams, body: body, headers: headers, dir: dir))
                    return mine[mine.count - 1].ok
                }
                printShape("#\(round)", connections, streams, reference[round - 1], mine[round - 1], mine[round - 1].rate / reference[round - 1].rate)
            }
            let (ref, own) = (median(reference), median(mine))
            let ratio = BenchReport.median(zip(mine, reference).map { $0.rate / $1.rate })
            printShape("median", connections, streams, ref, own, ratio)
            ratios["\(connections)x\(streams)"] = ratio
            rows.append([
                "\(connections) connection\(connections == 1 ? "" : "s") × \(streams) streams", "\(BenchReport.whole(ref.rate))/s",
                BenchReport.rate(own.rate, p99: own.p99), String(format: "%.2f×", ratio),
            ])
        }
        // The intake over HTTP/2 and over the socket at the same concurrency (16 requests in flight), alternately.
        var h2: [Figures] = []
        var socket: [Figures] = []
        for round in 1...rounds {
            withIntake { server in
                socket.append(
                    socketIntake(path: server.options.socketPath, total: total, clients: 16, body: Array(SyntheticPayloads.make(1).utf8)))
                return socket[socket.count - 1].ok
            }
            withIntake { server in
                h2.append(
                    h2load(
                        url: "https://localhost:\(server.tcpPort ?? 0)/3/device/5e1ec7ed", total: total, connections: 16, streams: 1, body: body,
                        headers: headers, dir: dir))
                return h2[h2.count - 1].ok
            }
            printInFlight("#\(round)", h2[round - 1], socket[round - 1], ratio: h2[round - 1].rate / socket[round - 1].rate)
        }
        let (h2m, socketm) = (median(h2), median(socket))
        let inFlight = BenchReport.median(zip(h2, socket).map { $0.rate / $1.rate })
        printInFlight("median", h2m, socketm, ratio: inFlight)
        let p99Ratio = h2m.p99 / socketm.p99
        rows.append([
            "16 in flight: HTTP/2 (16 × 1) ÷ the socket (16 libcurl clients)", "—",
            BenchReport.rate(h2m.rate, p99: h2m.p99) + " ÷ " + BenchReport.rate(socketm.rate, p99: socketm.p99),
            String(format: "%.2f×", inFlight),
        ])
        let oneConnection = ratios["1x100"] ?? 0
        func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }
        let goals =
            String(format: "Goals: HTTP/2 at 16 × 1 at least the socket's rate (%.2f×) → ", inFlight) + verdict(inFlight >= 1)
            + String(format: "; its p99 at most 2× the socket's (%.2f×) → ", p99Ratio) + verdict(p99Ratio <= 2)
            + String(format: "; 1 × 100 at least 0.25× nghttpd (%.2f×) → ", oneConnection) + verdict(oneConnection >= 0.25)
            + "; stored = acknowledged in every run → \(verdict(!lost))."
        print("  " + goals)
        if let markdown { writeBlock("h2", into: markdown, command: "pushbox-bench h2 \(total)", runs: rounds, rows: rows, goals: goals) }
        if lost { exit(1) }
    }

    static func printShape(_ label: String, _ connections: Int, _ streams: Int, _ reference: Figures, _ mine: Figures, _ ratio: Double) {
        print(
            String(
                format: "  %2d conn × %3d streams %-6@ %7.0f/s p99 %6.2f ms    %7.0f/s p99 %6.2f ms       %.2f×", connections, streams, label,
                reference.rate, reference.p99, mine.rate, mine.p99, ratio))
    }

    static func printInFlight(_ label: String, _ h2: Figures, _ socket: Figures, ratio: Double) {
        print(
            String(format: "  16 in flight %-6@  HTTP/2 16 × 1 %7.0f/s p50 %.2f ms p99 %.2f ms", label, h2.rate, h2.p50, h2.p99)
                + String(
                    format: "   socket (16 libcurl clients) %7.0f/s p50 %.2f ms p99 %.2f ms   %.2f×", socket.rate, socket.p50, socket.p99, ratio))
    }

    /// Each figure's median over the runs.
    static func median(_ runs: [Figures]) -> Figures {
        Figures(
            rate: BenchReport.median(runs.map(\.rate)), p50: BenchReport.median(runs.map(\.p50)), p99: BenchReport.median(runs.map(\.p99)),
            ok: runs.reduce(0) { $0 + $1.ok })
    }

    /// Runs h2load and reads its per-request log for the percentiles.
    static func h2load(url: String, total: Int, connections: Int, streams: Int, body: String, headers: [String], dir: String) -> Figures {
        figures(LoadDrivers.h2load(url: url, total: total, connections: connections, streams: streams, body: body, headers: headers, directory: dir))
    }

    /// The same payloads posted by `clients` keep-alive libcurl clients over the Unix socket.
    static func socketIntake(path: String, total: Int, clients: Int, body: [UInt8]) -> Figures {
        figures(
            LoadDrivers.unixSocket(
                socket: path, path: "/3/device/5e1ec7ed", total: total, clients: clients, body: body, headers: [("apns-push-type", "alert")]))
    }

    static func figures(_ run: LoadDrivers.Run) -> Figures { Figures(rate: run.rate, p50: run.percentile(50), p99: run.percentile(99), ok: run.ok) }

    /// Runs a tool to its end and returns its standard output.
    static func shell(_ tool: String, _ arguments: [String]) -> String {
        (try? Subprocess.run(tool, arguments, timeout: 600))?.out ?? ""
    }
}
