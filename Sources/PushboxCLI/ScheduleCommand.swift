import Foundation
import PushboxCore
import PushboxText

/// `pushbox schedule --dry-run`: the pending set a schedule file would give, as iOS keeps it.
enum ScheduleCommand {
    static let spec = CommandSpec(
        name: "schedule",
        summary: "Local notifications: print the pending set a schedule file gives (64 at most, soonest first, refusals with iOS's reasons). Exit 1 when a request is refused.",
        operands: "FILE",
        options: [
            OptionSpec("--dry-run", help: "Print the pending set instead of scheduling into a running pushbox (required for now)."),
            OptionSpec("--json", help: "One object per pending request per line, soonest first: identifier, content, nextFire."),
            OptionSpec("--clock", value: "DATE", help: "Start the clock here, e.g. 2026-12-07T06:09:50 (local to --tz). Default: now."),
            OptionSpec("--tz", value: "ZONE", help: "The time zone, e.g. Europe/Berlin. Default: the system's."),
        ],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard args.operands.count == 1, let file = args.operands.first else {
            io.err("pushbox schedule: give one schedule file; see pushbox schedule --help")
            return 2
        }
        guard args.flag("--dry-run") else {
            io.err("pushbox schedule: scheduling into a running pushbox is not available yet; use --dry-run to see the pending set")
            return 2
        }
        var calendar = Calendar(identifier: .gregorian)
        if let tz = args.value("--tz") {
            guard let zone = TimeZone(identifier: tz) else {
                io.err("pushbox schedule: --tz \(tz): unknown time zone (e.g. Europe/Berlin, Asia/Seoul, UTC)")
                return 2
            }
            calendar.timeZone = zone
        }
        var now = Date()
        if let clock = args.value("--clock") {
            guard let date = parseClock(clock, zone: calendar.timeZone) else {
                io.err("pushbox schedule: --clock \(clock): expected a date and time like 2026-12-07T06:09:50")
                return 2
            }
            now = date
        }
        guard let data = file == "-" ? Data(io.readStdin()) : FileManager.default.contents(atPath: file) else {
            io.err("pushbox schedule: \(file): cannot be read")
            return 1
        }
        let requests: [LocalRequest]
        do { requests = try ScheduleFile.parse(Array(data)) } catch {
            io.err("pushbox schedule: \(file): \(error)")
            return 1
        }
        var set = PendingSet(calendar: calendar)
        let refused = set.add(requests, now: now, baseDirectory: file == "-" ? nil : (file as NSString).deletingLastPathComponent)
        let iso = ISO8601DateFormatter()
        iso.timeZone = calendar.timeZone
        for p in set.pending {
            if args.flag("--json") {
                io.out(JSONWriter.compact(.object(JSONObject([
                    ("identifier", .string(p.request.identifier)), ("content", .object(p.request.content)), ("nextFire", .string(iso.string(from: p.nextFire))),
                ]))))
            } else {
                io.out("\(iso.string(from: p.nextFire))  \(TerminalText.sanitize(p.request.identifier))\(p.request.trigger?.repeats == true ? "  (repeats)" : "")")
            }
        }
        for d in set.dropped { io.err("pushbox schedule: dropped \(TerminalText.sanitize(d.description))") }
        for r in refused { io.err("pushbox schedule: not scheduled: \(TerminalText.sanitize(r.description))") }
        if !args.flag("--json") { io.err("pushbox schedule: \(set.pending.count)/\(PendingSet.limit) pending") }
        return refused.isEmpty ? 0 : 1
    }

    /// `2026-12-07T06:09:50`, in the given zone.
    static func parseClock(_ text: String, zone: TimeZone) -> Date? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss"] {
            f.dateFormat = format
            if let d = f.date(from: text) { return d }
        }
        return ISO8601DateFormatter().date(from: text)
    }
}
