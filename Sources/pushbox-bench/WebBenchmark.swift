import Foundation
import PushboxJSON
import PushboxPayload
import PushboxTestSupport

/// `pushbox-bench web [COUNT] [ROUNDS]`: the inbox in a browser, in Chromium driven by Selenium
/// (`Tests/Clients/web_bench.py`), against the real `pushbox serve`: the page's first contentful
/// paint and its first list with COUNT stored notifications (default 10,000) against an empty
/// inbox; and, ROUNDS times (default 50), the time from a push's answer to its card on the page
/// against the push's own round trip.
enum WebBenchmark {
    static func run(count: Int, rounds: Int, samples: String?) {
        let binary = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/pushbox"
        let root = ((samples ?? "") as NSString).deletingLastPathComponent
        let python = root + "/.build/pyclients/web/bin/python"
        let script = root + "/Tests/Clients/web_bench.py"
        for (file, why) in [
            (binary, "run: swift build -c release --product pushbox"), (python, "run: make pyclients (Selenium)"),
            ("/usr/bin/chromium", "install chromium and chromium-driver (make deps)"), (script, "run from the project root"),
        ] where !FileManager.default.isExecutableFile(atPath: file) && !FileManager.default.fileExists(atPath: file) {
            print("error: \(file) is missing; \(why)")
            exit(1)
        }
        let inbox = BenchInbox.make("web", samples: samples)
        defer { inbox.remove() }
        for start in stride(from: 0, to: count, by: 500) {
            for (_, arrival) in inbox.service.receiveBeforeAnswer(batch: (start..<min(count, start + 500)).map { SyntheticPayloads.raw($0) }) {
                arrival?.publish()
            }
        }
        inbox.service.drain()
        print("pushbox-bench web: the page in headless Chromium against pushbox serve; \(rounds) pushes each, medians")
        var rows: [(name: String, result: JSONObject)] = []
        for (name, db) in [("empty inbox", inbox.folder + "/empty.sqlite"), ("\(count) notifications", inbox.store.path)] {
            guard let result = measure(binary: binary, python: python, script: script, db: db, folder: inbox.folder, rounds: rounds) else { exit(1) }
            rows.append((name, result))
        }
        func number(_ o: JSONObject, _ key: String) -> Double { o[key]?.stringValue.flatMap(Double.init) ?? o[key].flatMap(value) ?? .nan }
        func median(_ o: JSONObject, _ key: String) -> Double {
            let all = (o[key]?.arrayValue ?? []).compactMap(value).sorted()
            return all.isEmpty ? .nan : all[all.count / 2]
        }
        func p99(_ o: JSONObject, _ key: String) -> Double {
            let all = (o[key]?.arrayValue ?? []).compactMap(value).sorted()
            return all.isEmpty ? .nan : all[min(all.count - 1, all.count * 99 / 100)]
        }
        let base = rows[0].result
        for (name, o) in rows {
            print(
                name.padding(toLength: 22, withPad: " ", startingAt: 0)
                    + String(
                        format: "first paint %6.0f ms (%.2f× empty)   first list %6.0f ms (%.2f× empty), %d listed", number(o, "firstPaint"),
                        number(o, "firstPaint") / number(base, "firstPaint"), number(o, "listed"), number(o, "listed") / number(base, "listed"),
                        Int(number(o, "items"))))
            print(
                "".padding(toLength: 22, withPad: " ", startingAt: 0)
                    + String(
                        format: "a push answered → its card on the page p50 %5.1f ms p99 %5.1f ms (the push's round trip %4.1f ms: %.0f×)",
                        median(o, "toCard"), p99(o, "toCard"), median(o, "roundTrip"), median(o, "toCard") / median(o, "roundTrip")))
        }
    }

    static func value(_ v: JSONValue) -> Double? {
        if case .number(let n) = v { return Double(n) }
        return nil
    }

    /// Serves `db` with the release binary and runs the browser half against it; its JSON.
    static func measure(binary: String, python: String, script: String, db: String, folder: String, rounds: Int) -> JSONObject? {
        let socket = folder + "/\(UUID().uuidString.prefix(6)).sock"
        let log = folder + "/serve-\(UUID().uuidString.prefix(6)).err"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: binary)
        serve.arguments = ["serve", "--socket", socket, "--db", db, "--listen", "127.0.0.1:0", "--no-extension", "--quiet", "--lang", "en-US"]
        serve.standardError = FileHandle(forWritingAtPath: log)
        do { try serve.run() } catch {
            print("error: \(error)")
            return nil
        }
        defer { serve.terminate() }
        var port = 0
        for _ in 0..<400 where port == 0 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"127\.0\.0\.1:(\d+) \("#, options: .regularExpression) {
                port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast(2)) ?? 0
            } else {
                usleep(25_000)
            }
        }
        guard port > 0, let run = try? Subprocess.run(python, [script, "http://127.0.0.1:\(port)", socket, String(rounds)], timeout: 600),
            run.status == 0, let o = try? JSONParser.parse(Array(run.out.utf8)).objectValue
        else {
            print("error: the browser half failed")
            return nil
        }
        return o
    }
}
