import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxTestSupport

/// pushbox-bench: speed figures printed as rates and as ratios to a baseline measured in the
/// same run, never asserted in tests. `pushbox-bench validate [COUNT]`.

/// Runs `body` `rounds` times and returns the best wall time in seconds (the least disturbed run).
func best(of rounds: Int, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var bestTime = Double.infinity
    for _ in 0..<rounds {
        let start = clock.now
        body()
        let (s, atto) = (clock.now - start).components
        bestTime = min(bestTime, Double(s) + Double(atto) / 1e18)
    }
    return bestTime
}

/// Prints each step's time per item and its ratio to the first (the baseline); with `markdown`,
/// writes them into that file's block `block` too.
func printSteps(_ steps: [(name: String, seconds: Double)], count: Int, block: String? = nil, command: String = "", markdown: String? = nil) {
    guard let baseline = steps.first?.seconds else { return }
    let width = (steps.map(\.name.count).max() ?? 0) + 4
    var rows: [[String]] = []
    for (name, seconds) in steps {
        let micros = seconds / Double(count) * 1e6
        print(
            name.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: "%8.2f µs each   %5.1f× the baseline", micros, seconds / baseline))
        rows.append([name, String(format: "%.1f µs", micros), String(format: "%.1f×", seconds / baseline)])
    }
    if let block, let markdown {
        writeBlock(
            block, into: markdown, command: command, runs: 3, taking: "the best", rows: rows,
            goals: "Each step over \(BenchReport.whole(Double(count))) payloads, on one thread, in one process.")
    }
}

func validateBenchmark(count: Int) {
    let payloads = (0..<count).map { Array(SyntheticPayloads.make($0).utf8) }
    let datas = payloads.map { Data($0) }
    let raws = payloads.map { RawPayload(bytes: $0, envelope: Envelope(source: .commandLine)) }
    let averageSize = payloads.reduce(0) { $0 + $1.count } / count
    print("pushbox-bench validate: \(count) generated payloads, \(averageSize) bytes on average")

    var sink = 0
    let foundation = best(of: 3) {
        for d in datas where (try? JSONSerialization.jsonObject(with: d)) != nil { sink &+= 1 }
    }
    let parseOnly = best(of: 3) {
        for p in payloads where (try? JSONParser.parse(p)) != nil { sink &+= 1 }
    }
    let validate = best(of: 3) {
        for r in raws where Validator.validate(r).ok { sink &+= 1 }
    }
    guard sink == count * 9 else {
        print("error: not every generated payload passed (\(sink) of \(count * 9))")
        exit(1)
    }
    func row(_ name: String, _ seconds: Double) {
        let rate = Double(count) / seconds
        let line = name.padding(toLength: 44, withPad: " ", startingAt: 0)
        print(
            "\(line)\(String(format: "%8.3f s  %10.0f payloads/s  %6.2f µs each  ratio %.2f×", seconds, rate, seconds / Double(count) * 1e6, seconds / foundation))"
        )
    }
    row("baseline: JSONSerialization.jsonObject", foundation)
    row("pushbox: strict JSON parse only", parseOnly)
    row("pushbox: parse + validate (Validator)", validate)
    print(
        "target: validation at most 1.3× bare parsing → \(validate / foundation <= 1.3 ? "met" : "NOT met") (\(String(format: "%.2f", validate / foundation))×)"
    )
}

/// Writes a benchmark's block into the benchmarks page (`--markdown`), or stops with the reason.
func writeBlock(
    _ name: String, into markdown: String, command: String, runs: Int, taking statistic: String = "medians", rows: [[String]], goals: String
) {
    do throws(BenchReport.WriteError) {
        try BenchReport.write(name, into: markdown, command: command, runs: runs, taking: statistic, rows: rows, goals: goals)
        print("  wrote the figures into \(markdown)")
    } catch {
        print("error: \(error)")
        exit(1)
    }
}

// `--markdown [FILE]`, anywhere: intake, h2, request and render write their figures into FILE's
// block (BenchReport), docs/benchmarks.md when no FILE follows.
var args = Array(CommandLine.arguments.dropFirst())
var markdown: String?
if let at = args.firstIndex(of: "--markdown") {
    let file = at + 1 < args.count && args[at + 1].hasSuffix(".md") ? args[at + 1] : nil
    markdown = file ?? BenchReport.page
    args.removeSubrange(at...(file == nil ? at : at + 1))
}
switch args.first {
case "validate":
    let count = args.count > 1 ? Int(args[1]) ?? 100_000 : 100_000
    validateBenchmark(count: count)
case "localize":
    let count = args.count > 1 ? Int(args[1]) ?? 200_000 : 200_000
    let corpus = ["../shared/corpus", "../../shared/corpus"].first { FileManager.default.fileExists(atPath: $0) }
    LocalizeBenchmark.run(iterations: count, corpus: corpus)
case "intake":
    let count = args.count > 1 ? Int(args[1]) ?? 50_000 : 50_000
    let clients = args.count > 2 ? args[2].split(separator: ",").compactMap { Int($0) } : []
    let rounds = args.count > 3 ? max(1, Int(args[3]) ?? 3) : 3
    IntakeBenchmark.run(
        total: count, clientCounts: clients.isEmpty ? [1, 16, 64] : clients, rounds: rounds, other: args.count > 4 ? args[4] : nil, markdown: markdown
    )
case "intake-stages":
    let count = args.count > 1 ? Int(args[1]) ?? 20_000 : 20_000
    let rounds = args.count > 2 ? max(1, Int(args[2]) ?? 5) : 5
    IntakeStages.run(total: count, rounds: rounds, markdown: markdown)
case "stage-server" where args.count == 4:
    IntakeStages.serveStage(args[1], socket: args[2], db: args[3])
case "chaos":
    // What chaos costs the intake: pushbox with no rule, and with a rule on that matches no push
    // (every push is judged), beside the anchor and OTHER (a build without chaos in the path).
    let count = args.count > 1 ? Int(args[1]) ?? 20_000 : 20_000
    let rounds = args.count > 2 ? max(1, Int(args[2]) ?? 3) : 3
    print("pushbox-bench chaos: \"pushbox serve\" has no chaos rule; \"rule on\" judges every push against a rule no push matches")
    IntakeBenchmark.run(
        total: count, clientCounts: [1, 16], rounds: rounds, other: args.count > 3 ? args[3] : nil,
        variants: [("rule on", ["--chaos", "apns 500 InternalServerError token=no-such-token"])])
case "h2":
    let count = args.count > 1 ? Int(args[1]) ?? 20_000 : 20_000
    let shape = args.count > 2 ? args[2].split(separator: "x").compactMap { Int($0) } : []
    H2Benchmark.run(total: count, only: shape.count == 2 ? (shape[0], shape[1]) : nil, markdown: markdown)
case "tui":
    let count = args.count > 1 ? Int(args[1]) ?? 100_000 : 100_000
    TUIBenchmark.run(count: count)
case "request":
    let count = args.count > 1 ? Int(args[1]) ?? 20_000 : 20_000
    RequestBenchmark.run(count: count, markdown: markdown)
case "render":
    let count = args.count > 1 ? Int(args[1]) ?? 20_000 : 20_000
    RenderBenchmark.run(count: count, samples: ResourceLocator.samplesDirectory(), markdown: markdown)
case "android":
    guard args.count >= 3 else {
        print("usage: pushbox-bench android IOS-APP ANDROID-RES [LANG] [IOS-TITLE-KEY IOS-BODY-KEY ANDROID-TITLE-KEY ANDROID-BODY-KEY]")
        exit(2)
    }
    let keys = args.count >= 8 ? args[4...7].map { $0 } : ["action.generic.edit", "action.generic.show", "attach_file", "open_camera"]
    AndroidBenchmark.run(
        ios: args[1], res: args[2], language: args.count > 3 ? args[3] : "de-DE", keys: (Array(keys[0...1]), Array(keys[2...3])))
case "query":
    let count = args.count > 1 ? max(1, Int(args[1]) ?? 100_000) : 100_000
    QueryBenchmark.run(count: count, samples: ResourceLocator.samplesDirectory())
case "wait":
    let rounds = args.count > 1 ? max(1, Int(args[1]) ?? 100) : 100
    let waiters = args.count > 2 ? max(1, Int(args[2]) ?? 100) : 100
    WaitBenchmark.run(rounds: rounds, waiters: waiters, samples: ResourceLocator.samplesDirectory())
case "web":
    let count = args.count > 1 ? max(0, Int(args[1]) ?? 10_000) : 10_000
    let rounds = args.count > 2 ? max(1, Int(args[2]) ?? 50) : 50
    WebBenchmark.run(count: count, rounds: rounds, samples: ResourceLocator.samplesDirectory())
case "fleet":
    let devices = args.count > 1 ? max(2, Int(args[1]) ?? 1000) : 1000
    let messages = args.count > 2 ? max(1, Int(args[2]) ?? 20) : 20
    FleetBenchmark.run(devices: devices, messages: messages, samples: ResourceLocator.samplesDirectory())
case "extension":
    let count = args.count > 1 ? Int(args[1]) ?? 1000 : 1000
    ExtensionBenchmark.run(count: count, samples: ResourceLocator.samplesDirectory())
default:
    print("usage: pushbox-bench validate [COUNT]   (default 100000 payloads of about 500 bytes)")
    print("       pushbox-bench intake [COUNT] [CLIENTS] [ROUNDS] [OTHER]  (default 50000 payloads per run: pushbox serve against pushbox-anchor,")
    print("                                        clients 1,16,64, 3 rounds, medians; OTHER: another pushbox binary measured beside them)")
    print("       pushbox-bench intake-stages [COUNT] [ROUNDS]  (default 20000, 5 rounds: at 16 clients, the anchor, pushbox serve, and")
    print("                                        servers that take a push only so far: answered, validated, judged, stored, routed, rendered)")
    print("       pushbox-bench chaos [COUNT] [ROUNDS] [OTHER]  (default 20000: the intake with no chaos rule, with a rule on that")
    print("                                        matches nothing, the anchor, and OTHER, a build without chaos in the path)")
    print("       pushbox-bench h2 [COUNT] [SHAPE]  (default 20000 POSTs per run: h2load against pushbox's port and nghttpd, and the socket,")
    print("                                        3 rounds, medians; SHAPE, e.g. 1x100: that shape against pushbox alone, for a profiler)")
    print(
        "       … --markdown [FILE]              (intake, intake-stages, h2, request, render: write the figures into FILE's block, docs/benchmarks.md by default; make bench-markdown)"
    )
    print("       pushbox-bench tui [COUNT]        (default 100000 stored notifications; needs the release pushbox binary)")
    print("       pushbox-bench request [COUNT]    (default 20000: what one push costs serve's own code, step by step, without HTTP)")
    print("       pushbox-bench render [COUNT]     (default 20000: what serve's background rendering costs per notification, step by step)")
    print(
        "       pushbox-bench android IOS-APP ANDROID-RES [LANG] [KEYS…]  (an FCM message on the Android card, cold and warm, against an iOS render)")
    print(
        "       pushbox-bench fleet [DEVICES] [MESSAGES]  (default 1000 devices, 20 topic messages: answer time and time to every rendering, against one device)"
    )
    print(
        "       pushbox-bench web [COUNT] [ROUNDS]  (default 10000 notifications, 50 pushes: the browser inbox's first paint and push → card, in Chromium)"
    )
    print("       pushbox-bench wait [ROUNDS] [WAITERS]  (default 100 rounds, 100 waiters: a push answered → GET /api/v1/wait returned)")
    print("       pushbox-bench extension [COUNT]  (default 1000 notifications with attachments from a loopback server)")
    print("       pushbox-bench localize [COUNT]   (default 200000 formatted strings, plus corpus .strings parsing)")
    exit(args.isEmpty ? 0 : 2)
}
