import Foundation

/// A benchmark's figures as a Markdown block that `docs/benchmarks.md` keeps between two markers,
/// written by `pushbox-bench … --markdown` (`make bench-markdown`) and never typed: a figure
/// there is what the benchmark printed on the day and the machine it says.
public enum BenchReport {
    /// The page's blocks, by name, each with its table's header row.
    public static let blocks: [(name: String, header: [String])] = [
        ("intake", ["clients", "anchor", "pushbox serve", "ratio", "pushbox CPU / request", "peak memory", "rendered after the burst"]),
        ("intake-stages", ["server (16 clients)", "requests/s", "ratio to the anchor", "CPU / request", "the stage adds"]),
        ("h2", ["shape", "nghttpd (static)", "pushbox (validated, token checked, stored)", "ratio"]),
        ("request", ["step", "each", "× the baseline"]),
        ("render", ["step", "each", "× the baseline"]),
    ]

    /// The header row of the block named `name`.
    public static func header(_ name: String) -> [String] { blocks.first { $0.name == name }?.header ?? [] }

    /// The line that opens the block named `name`.
    public static func begin(_ name: String) -> String {
        "<!-- pushbox-bench \(name): written by `make bench-markdown`; change the benchmark, not this block -->"
    }

    /// The line that closes the block named `name`.
    public static func end(_ name: String) -> String { "<!-- /pushbox-bench \(name) -->" }

    /// `text` with the block named `name` holding `body` instead; nil when the text has no such
    /// block (both markers, in order, each on a line of its own).
    public static func splice(_ text: String, name: String, body: String) -> String? {
        var lines = text.components(separatedBy: "\n")
        guard let inside = inside(lines, name: name) else { return nil }
        let inner = body.hasSuffix("\n") ? String(body.dropLast()) : body
        lines.replaceSubrange(inside, with: inner.components(separatedBy: "\n"))
        return lines.joined(separator: "\n")
    }

    /// The body of the block named `name` in `text`; nil when there is none.
    public static func block(_ text: String, name: String) -> String? {
        let lines = text.components(separatedBy: "\n")
        return inside(lines, name: name).map { lines[$0].joined(separator: "\n") }
    }

    /// The lines between the block's markers (both found, in order).
    private static func inside(_ lines: [String], name: String) -> Range<Int>? {
        guard let first = lines.firstIndex(of: begin(name)), let last = lines[(first + 1)...].firstIndex(of: end(name)) else { return nil }
        return (first + 1)..<last
    }

    /// A file's block that could not be written, and why.
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `body` into the block named `name` of the file at `path`.
    public static func update(file path: String, name: String, body: String) throws(WriteError) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw WriteError(description: "cannot read \(path)") }
        guard let spliced = splice(text, name: name, body: body) else {
            throw WriteError(description: "\(path) has no block \(begin(name)) … \(end(name))")
        }
        do {
            try spliced.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw WriteError(description: "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Writes the block named `name` of the file at `path`: the command and day, the table of
    /// `rows` under the block's header, then the goals as judged.
    public static func write(
        _ name: String, into path: String, command: String, runs: Int, taking statistic: String = "medians", rows: [[String]], goals: String
    ) throws(WriteError) {
        let text = [provenance(runs: runs, taking: statistic, command: command), "", table(header(name), rows), "", goals].joined(separator: "\n")
        try update(file: path, name: name, body: text)
    }

    /// A Markdown table: the header row, its rule, then the rows.
    public static func table(_ header: [String], _ rows: [[String]]) -> String {
        ([header, header.map { _ in "---" }] + rows).map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }

    /// A rate or count rounded to a whole number, with thousands separated: `17,483`.
    public static func whole(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 && c != "-" { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    /// A table cell for a measured rate: `17,483/s, p99 5.8 ms`.
    public static func rate(_ perSecond: Double, p99 milliseconds: Double) -> String {
        "\(whole(perSecond))/s, p99 \(String(format: "%.1f", milliseconds)) ms"
    }

    /// The page the blocks are in, in the project.
    public static let page = "docs/benchmarks.md"

    /// The line above a block's table: when, on what machine, what of how many runs (`medians`,
    /// `the best`).
    public static func provenance(runs: Int, taking statistic: String = "medians", command: String) -> String {
        let day = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        return "`\(command)` on \(day), \(machine()), \(statistic) of \(runs) runs:"
    }

    /// The machine in a few words: its processor, cores, memory and kernel
    /// (`Intel Xeon … · 2 cores · 24 GiB · Linux 6.1.0`), read from `/proc`.
    public static func machine() -> String {
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        func field(_ text: String, _ name: String) -> String? {
            text.split(separator: "\n").first { $0.hasPrefix(name) }.flatMap { $0.split(separator: ":", maxSplits: 1).last }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        var parts: [String] = []
        if let model = field(read("/proc/cpuinfo"), "model name") { parts.append(model) }
        parts.append("\(ProcessInfo.processInfo.activeProcessorCount) cores")
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        parts.append("\(Int(memory.rounded())) GiB")
        let kernel = read("/proc/sys/kernel/osrelease").trimmingCharacters(in: .whitespacesAndNewlines)
        if !kernel.isEmpty { parts.append("Linux \(kernel)") }
        return parts.joined(separator: " · ")
    }

    /// The middle value (the mean of the two middle ones for an even count); 0 for none.
    public static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let half = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
    }
}
