import CLoadGen
import Foundation
import PushboxIntake
import PushboxPayload
import PushboxStore
import PushboxTestSupport

/// `pushbox-bench intake`: the real `pushbox serve` against the cheapest durable server (the C
/// `pushbox-anchor`: libmicrohttpd + one SQLite WAL insert per request), side by side in one run,
/// under the same C-speed load (keep-alive clients on the Unix socket) for 1, 16 and 64 clients:
/// requests/s, latency, CPU per request, stored = acknowledged, bytes per notification, and how
/// long pushbox's rendering backlog takes to drain after the burst; each the median of rounds.
enum IntakeBenchmark {
    struct Figures {
        var rate = 0.0, p50 = 0.0, p99 = 0.0, max = 0.0, cpuMicros = 0.0, bytesPerNote = 0.0, peakMB = 0.0
        var acknowledged = 0, stored = 0, failed = 0
        var drainSeconds: Double?
    }

    /// The anchor's pool: libmicrohttpd's threads each commit their own request under one
    /// mutex, as many as the clients of the common case (pushbox's own count changed when its
    /// threads stopped waiting for commits; the yardstick did not).
    static let anchorThreads = 16

    /// Runs each client count `rounds` times, the servers alternated within a round (anchor,
    /// pushbox, and `other` — another pushbox build, e.g. the previous commit's — when given), and
    /// prints every round and the medians: one run of either server moves by a tenth on this kind
    /// of machine, so a ratio read from a single pair says little.
    /// `markdown`: the file whose `intake` block (`BenchReport`) gets the medians.
    /// `variants`: more pushbox serves measured beside them, each named, with extra arguments
    /// (a chaos rule, for `pushbox-bench chaos`).
    static func run(
        total: Int, clientCounts: [Int] = [1, 16, 64], rounds: Int = 3, other: String? = nil, markdown: String? = nil,
        variants: [(name: String, arguments: [String])] = []
    ) {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
        let pushbox = bin + "/pushbox"
        let anchor = bin + "/pushbox-anchor"
        for tool in [pushbox, anchor] + (other.map { [$0] } ?? []) where !FileManager.default.isExecutableFile(atPath: tool) {
            print("error: \(tool) is missing; build it first (swift build -c release)")
            exit(1)
        }
        let payloads = (0..<total).map { Array(SyntheticPayloads.make($0).utf8) }
        print("pushbox-bench intake: \(total) different payloads of about \(payloads[0].count) bytes per run, keep-alive clients on the Unix socket,")
        print("  the real pushbox serve (child process) against pushbox-anchor (libmicrohttpd + one SQLite WAL insert, synchronous=NORMAL),")
        print(
            "  the anchor with libmicrohttpd's pool of \(anchorThreads) threads, pushbox with \(IntakeServer.Options.defaultThreads) daemons of one thread; \(rounds) rounds, the servers alternated in each"
        )
        if let other { print("  and \(other) (\"other\") in each round beside them") }
        print("  clients  server          requests/s   p50 ms   p99 ms   max ms   CPU µs/req   bytes/note   peak MB   stored=acked   ratio")
        var lost = false
        var goal: Bool?  // judged at 16 clients, when they run
        var rows: [[String]] = []
        for clients in clientCounts {
            var servers = [anchorServer(anchor), Server(name: "pushbox serve") { socket, db in try serve(pushbox, socket: socket, db: db) }]
            for variant in variants {
                servers.append(Server(name: variant.name) { socket, db in try serve(pushbox, socket: socket, db: db, extra: variant.arguments) })
            }
            if let other { servers.append(Server(name: "other") { socket, db in try serve(other, socket: socket, db: db) }) }
            let (medians, ratios, lostHere) = alternate(servers, total: total, clients: clients, payloads: payloads, rounds: rounds)
            if lostHere { lost = true }
            if clients == 16 { goal = ratios[1] >= 1.0 && medians[1].p99 <= medians[0].p99 }
            if let drain = medians[1].drainSeconds {
                print(String(format: "           pushbox rendered the whole burst %.2f s after the last answer (median)", drain))
            }
            let (anchorRun, serveRun) = (medians[0], medians[1])
            rows.append([
                "\(clients)", BenchReport.rate(anchorRun.rate, p99: anchorRun.p99),
                BenchReport.rate(serveRun.rate, p99: serveRun.p99), String(format: "%.2f×", ratios[1]),
                String(format: "%.0f µs (anchor %.0f)", serveRun.cpuMicros, anchorRun.cpuMicros),
                String(format: "%.0f MB (anchor %.0f)", serveRun.peakMB, anchorRun.peakMB),
                serveRun.drainSeconds.map { String(format: "%.1f s", $0) } ?? "—",
            ])
        }
        let verdict = goal.map { $0 && !lost ? "met" : "NOT met" } ?? "not judged (16 clients were not run)"
        let goalLine =
            "Goal: pushbox serve at 16 clients ≥ 1.0× the anchor (median of the rounds' ratios) with p99 ≤ the anchor's, nothing lost → \(verdict)."
        print("  " + goalLine)
        if let markdown {
            let command = "pushbox-bench intake \(total) \(clientCounts.map(String.init).joined(separator: ",")) \(rounds)"
            writeBlock("intake", into: markdown, command: command, runs: rounds, rows: rows, goals: goalLine)
        }
        if lost {
            print("error: a run lost or failed requests")
            exit(1)
        }
    }

    /// A server the rounds measure: how to start it on a socket and a database, and whether it
    /// keeps what it acknowledges (stored = acknowledged is checked) and renders it (its burst's
    /// renderings are waited for).
    struct Server {
        var name: String
        var stores = true
        var renders = true
        var start: (String, String) throws -> Subprocess.Child
    }

    /// The anchor at `path`, with `anchorThreads` threads.
    static func anchorServer(_ path: String) -> Server {
        Server(name: "anchor", renders: false) { socket, db in try Subprocess.Child(path, [socket, db, String(anchorThreads)]) }
    }

    /// Runs `rounds` rounds of `servers` alternated, the first the yardstick, printing each round
    /// and then each server's medians with the median of its rounds' ratios to the yardstick;
    /// gives those, and whether a run failed a request or stored other than it acknowledged.
    static func alternate(_ servers: [Server], total: Int, clients: Int, payloads: [[UInt8]], rounds: Int) -> (
        medians: [Figures], ratios: [Double], lost: Bool
    ) {
        var figures = Array(repeating: [Figures](), count: servers.count)
        var lost = false
        for round in 1...rounds {
            for (i, server) in servers.enumerated() {
                let f = measure(total: total, clients: clients, payloads: payloads, renders: server.renders, start: server.start)
                figures[i].append(f)
                if f.failed > 0 || (server.stores && f.stored != f.acknowledged) { lost = true }
            }
            let yardstick = figures[0][round - 1].rate
            for (i, server) in servers.enumerated() {
                printRow(clients: clients, name: "\(server.name) #\(round)", figures[i][round - 1], ratio: figures[i][round - 1].rate / yardstick)
            }
        }
        let medians = figures.map(median)
        let ratios = figures.map { runs in BenchReport.median(zip(runs, figures[0]).map { $0.rate / $1.rate }) }
        for (i, server) in servers.enumerated() {
            printRow(clients: clients, name: "\(server.name) median", medians[i], ratio: ratios[i])
        }
        return (medians, ratios, lost)
    }

    /// A pushbox serve on the socket and database, with data and cache folders of its own.
    static func serve(_ pushbox: String, socket: String, db: String, extra: [String] = []) throws -> Subprocess.Child {
        var env = ProcessInfo.processInfo.environment
        let dir = (db as NSString).deletingLastPathComponent
        env["XDG_DATA_HOME"] = dir + "/data"
        env["XDG_CACHE_HOME"] = dir + "/cache"
        return try Subprocess.Child(pushbox, ["serve", "--socket", socket, "--db", db, "--listen", "off", "--quiet"] + extra, environment: env)
    }

    static func printRow(clients: Int, name: String, _ f: Figures, ratio: Double) {
        let label = name.padding(toLength: 20, withPad: " ", startingAt: 0)
        print(
            String(format: "  %7d  ", clients) + label
                + String(
                    format: "%10.0f  %7.2f  %7.2f  %7.1f  %11.0f  %11.0f  %8.0f   ", f.rate, f.p50, f.p99, f.max, f.cpuMicros, f.bytesPerNote,
                    f.peakMB)
                + (f.stored == f.acknowledged ? "yes" : "NO ") + "            " + String(format: "%.2f×", ratio))
    }

    /// Each figure's median over the runs (the counts are summed: stored = acknowledged holds for
    /// the whole when it held for each run).
    static func median(_ runs: [Figures]) -> Figures {
        var m = Figures()
        m.rate = BenchReport.median(runs.map(\.rate))
        m.p50 = BenchReport.median(runs.map(\.p50))
        m.p99 = BenchReport.median(runs.map(\.p99))
        m.max = BenchReport.median(runs.map(\.max))
        m.cpuMicros = BenchReport.median(runs.map(\.cpuMicros))
        m.bytesPerNote = BenchReport.median(runs.map(\.bytesPerNote))
        m.peakMB = BenchReport.median(runs.map(\.peakMB))
        m.acknowledged = runs.reduce(0) { $0 + $1.acknowledged }
        m.stored = runs.reduce(0) { $0 + $1.stored }
        m.failed = runs.reduce(0) { $0 + $1.failed }
        let drains = runs.compactMap(\.drainSeconds)
        m.drainSeconds = drains.isEmpty ? nil : BenchReport.median(drains)
        return m
    }

    /// One run: start the server, load it, read its CPU time, stop it, count what it stored;
    /// `renders`: wait for pushbox's renderings of the burst before stopping it.
    static func measure(
        total: Int, clients: Int, payloads: [[UInt8]], renders: Bool = true, start: (String, String) throws -> Subprocess.Child
    ) -> Figures {
        let dir = "/tmp/pbi-\(getpid())-\(UUID().uuidString.prefix(6))"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socket = dir + "/s.sock"
        let db = dir + "/inbox.sqlite"
        guard let child = try? start(socket, db) else {
            print("error: cannot start the server")
            exit(1)
        }
        for _ in 0..<400 where !FileManager.default.fileExists(atPath: socket) { usleep(25_000) }
        usleep(200_000)
        var latencies = [Double](repeating: 0, count: total)
        let cpuBefore = cpuSeconds(child.pid)
        // Every payload in one buffer, so each pointer handed to C stays valid for the whole run.
        let joined = payloads.flatMap { $0 }.map { CChar(bitPattern: $0) }
        var lengths = payloads.map { Int32($0.count) }
        let result: pb_load_result = joined.withUnsafeBufferPointer { buffer in
            var offset = 0
            var pointers: [UnsafePointer<CChar>?] = payloads.map { p in
                defer { offset += p.count }
                return buffer.baseAddress! + offset
            }
            return pb_load_run(socket, Int32(clients), Int32(total), &pointers, &lengths, Int32(payloads.count), &latencies, nil)
        }
        var figures = Figures()
        figures.cpuMicros = (cpuSeconds(child.pid) - cpuBefore) / Double(max(1, total)) * 1e6
        figures.acknowledged = Int(result.acknowledged)
        figures.failed = Int(result.failed)
        figures.rate = Double(result.acknowledged) / result.seconds
        let sorted = latencies.sorted()
        figures.p50 = sorted[sorted.count / 2]
        figures.p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        figures.max = sorted.last ?? 0
        // pushbox renders in the background: wait for every notification to be rendered.
        if renders, let store = try? InboxStore(path: db), store.schemaVersion > 0, (try? store.history(limit: 1)) != nil {
            let clock = ContinuousClock()
            let began = clock.now
            while store.renderCount < store.count && clock.now - began < .seconds(120) { usleep(20_000) }
            let (s, atto) = (clock.now - began).components
            figures.drainSeconds = Double(s) + Double(atto) / 1e18
        }
        figures.peakMB = peakMegabytes(child.pid)
        child.terminate()
        let size = ["", "-wal"].reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: db + $1)[.size] as? Int) ?? 0) }
        figures.stored = storedCount(db)
        figures.bytesPerNote = Double(size) / Double(max(1, figures.stored))
        return figures
    }

    /// Rows in `notifications`, read with SQLite through the store when it is pushbox's, else
    /// counted from the anchor's own table.
    static func storedCount(_ db: String) -> Int {
        if let store = try? InboxStore(path: db), store.schemaVersion >= 1, store.count > 0 { return store.count }
        return
            (try? Subprocess.run(
                "/usr/bin/env",
                [
                    "python3", "-c",
                    "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from notifications').fetchone()[0])", db,
                ]))
            .flatMap { Int($0.out.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
    }

    /// The most memory the process has held (`VmHWM`), in megabytes.
    static func peakMegabytes(_ pid: pid_t) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return kb / 1024
    }

    /// User + system CPU seconds of a process so far.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
