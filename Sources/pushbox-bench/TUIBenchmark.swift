import Foundation
import PushboxFetch
import PushboxPayload
import PushboxStore
import PushboxTerminal
import Synchronization

/// `pushbox-bench tui`: the real `pushbox` binary on a pseudo-terminal (120×40) over an inbox of
/// 100,000 notifications: time to first frame, a language switch's redraw, resident memory, and
/// key latency while 1,000 payloads a second arrive on the socket.
enum TUIBenchmark {
    // Long on purpose: a benchmark reads as its script: set up, drive, measure, print.
    static func run(count: Int) {
        let binary = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/pushbox"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("error: \(binary) not built; run: swift build -c release --product pushbox")
            exit(1)
        }
        let dir = "/tmp/pushbox-tui-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard let store = try? InboxStore(path: dir + "/inbox.sqlite") else {
            print("error: store")
            exit(1)
        }
        // Fill the inbox: concurrent writers share group commits.
        let fillStart = Date()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in stride(from: worker, to: count, by: 8) {
                let raw = RawPayload(
                    bytes: Array(SyntheticPayloads.make(i).utf8),
                    envelope: Envelope(source: .socket, receivedAt: Date(timeIntervalSinceNow: Double(i - count))))
                _ = try? store.insert(raw, apnsID: UUID().uuidString.lowercased(), verdict: .init(status: 200, topic: "dev.pushbox.sample"))
            }
        }
        print(
            "pushbox-bench tui: \(store.count) stored notifications (filled in \(String(format: "%.1f", Date().timeIntervalSince(fillStart))) s); pushbox on a 120×40 pseudo-terminal"
        )

        guard let pty = try? PseudoTerminal(rows: 40, columns: 120), let slave = FileHandle(forUpdatingAtPath: pty.slavePath) else {
            print("error: no pseudo-terminal")
            exit(1)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--socket", dir + "/s.sock", "--db", dir + "/inbox.sqlite", "--lang", "en-US", "--no-extension"]
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm-256color"
        env["XDG_CONFIG_HOME"] = dir + "/config"
        env["XDG_CACHE_HOME"] = dir + "/cache"
        env.removeValue(forKey: "PUSHBOX_TEXT")
        process.environment = env
        process.standardInput = slave
        process.standardOutput = slave
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        let launched = Date()
        do { try process.run() } catch {
            print("error: \(error)")
            exit(1)
        }
        defer { if process.isRunning { process.terminate() } }

        guard pty.waitFor(" notifications", timeout: 20) != nil else {
            print("error: no first frame")
            exit(1)
        }
        let firstFrame = Date().timeIntervalSince(launched) * 1000
        // The header counts every notification once all are loaded: "N notifications", or
        // "k of N" when threads are collapsed.
        let loadDeadline = Date().addingTimeInterval(60)
        var seen = false
        while !seen && Date() < loadDeadline {
            seen = pty.contains("\(count) notifications") || pty.contains("of \(count) ")
            if !seen { usleep(50_000) }
        }
        let loaded = Date().timeIntervalSince(launched)
        usleep(300_000)
        let rss = residentMB(process.processIdentifier)

        // A language switch: en-US → the next of the picker's choices, es (es-ES since the picker keeps regions).
        pty.clear()
        let switchStart = Date()
        pty.type("]")
        let switched = pty.waitFor("(es", timeout: 10).map { _ in Date().timeIntervalSince(switchStart) * 1000 }

        // Key latency while 1,000 payloads a second arrive.
        let stop = CancelFlag()
        let posted = Counter()
        let socket = dir + "/s.sock"
        Thread.detachNewThread {
            guard let client = UnixHTTPClient(socketPath: socket) else { return }
            let body = Array(#"{"aps":{"alert":{"title":"Burst","body":"one of many"}}}"#.utf8)
            let start = Date()
            while !stop.isCancelled {
                let due = start.addingTimeInterval(Double(posted.value) / 1000)
                let wait = due.timeIntervalSinceNow
                if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
                _ = client.request(
                    "POST", url: "http://localhost/3/device/5e1ec7ed", headers: [("apns-topic", "dev.pushbox.sample")], body: body, timeoutMs: 2000)
                posted.increment()
            }
        }
        usleep(300_000)
        let burstStart = Date()
        var latencies: [Double] = []
        for _ in 0..<20 {
            pty.clear()
            let t0 = Date()
            pty.type("?")
            if pty.waitFor("choose the device language", timeout: 5) != nil { latencies.append(Date().timeIntervalSince(t0) * 1000) }
            pty.type("\u{1B}")
            usleep(100_000)
        }
        stop.cancel()
        let burstRate = Double(posted.value) / Date().timeIntervalSince(burstStart)
        pty.type("q")
        for _ in 0..<100 where process.isRunning { usleep(20_000) }
        latencies.sort()

        // Only the cells that change are redrawn, so the header's new count may never be drawn whole.
        let load = seen ? String(format: "all %d loaded after %.2f s", count, loaded) : "the full count not seen drawn within 60 s"
        print(String(format: "  time to first frame   %7.0f ms   (target ≤ 300; %@)", firstFrame, load))
        print(String(format: "  language switch       %7.1f ms   (target ≤ 50)", switched ?? -1))
        print(String(format: "  resident memory       %7.0f MB   (target ≤ 150)", rss))
        if let p50 = latencies.isEmpty ? nil : latencies[latencies.count / 2], let worst = latencies.last {
            print(
                String(
                    format: "  key latency in burst  p50 %.1f ms, worst %.1f ms over %d keys   (target ≤ 50; %.0f payloads/s posted)", p50, worst,
                    latencies.count, burstRate))
        }
        print("  pushbox \(process.isRunning ? "still running" : "quit with status \(process.terminationStatus)")")
    }

    final class Counter: Sendable {
        private let n = Atomic<Int>(0)
        var value: Int { n.load(ordering: .relaxed) }
        func increment() { n.add(1, ordering: .relaxed) }
    }

    static func residentMB(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return -1 }
        let kb = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kb / 1024
    }
}
