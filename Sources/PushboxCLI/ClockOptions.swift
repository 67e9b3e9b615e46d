import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxPayload

/// `--clock`, `--speed` and `--tz`: the simulated device clock local notifications fire on.
enum ClockOptions {
    static let options = [
        Options.clock,
        Options.speed,
        Options.timeZone,
    ]

    static func timeZone(_ args: ParsedArguments) throws(UsageError) -> TimeZone {
        guard let tz = args.value(Options.timeZone) else { return .current }
        guard let zone = TimeZone(identifier: tz) else {
            throw UsageError(message: "--tz \(tz): unknown time zone (e.g. Europe/Berlin, Asia/Seoul, UTC)")
        }
        return zone
    }

    static func start(_ args: ParsedArguments, zone: TimeZone) throws(UsageError) -> Date? {
        guard let clock = args.value(Options.clock) else { return nil }
        guard let date = parseClock(clock, zone: zone) else {
            throw UsageError(message: "--clock \(clock): expected a date and time like 2026-12-07T06:09:50")
        }
        return date
    }

    static func clock(_ args: ParsedArguments) throws(UsageError) -> SimulatedClock {
        let zone = try timeZone(args)
        let speed = try args.number(Options.speed, in: 0...1_000_000) ?? 1
        return SimulatedClock(start: try start(args, zone: zone), speed: speed, timeZone: zone)
    }

    /// `2026-12-07T06:09:50` (or without seconds, or with a space) in the given zone, or ISO 8601 with an offset.
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

/// `--schedule FILE` on `serve` and the TUI: requests pending from the start.
enum LocalStartup {
    /// Schedules every `--schedule` file; returns a message when one could not be read or a
    /// request was refused.
    static func load(_ args: ParsedArguments, into scheduler: LocalScheduler) -> String? {
        var problems: [String] = []
        for file in args.all(Options.schedule) {
            switch ScheduleInput.read(file, stdin: { [] }) {
            case .failure(let problem): problems.append("--schedule \(problem)")
            case .success(let schedule):
                for r in scheduler.schedule(schedule.requests, baseDirectory: schedule.baseDirectory).refused {
                    problems.append("not scheduled: \(r)")
                }
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}

/// A schedule file as read from disk (or `-`, stdin): its bytes, its requests, and the folder its
/// relative attachment paths start from.
struct ScheduleInput {
    var bytes: [UInt8]
    var requests: [LocalRequest]
    var baseDirectory: String

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ file: String, stdin: () -> [UInt8]) -> Result<ScheduleInput, Problem> {
        guard let bytes = file == "-" ? stdin() : FileManager.default.contents(atPath: file).map(Array.init) else {
            return .failure(Problem(description: "\(file): cannot be read"))
        }
        do {
            let requests = try ScheduleFile.parse(bytes)
            // Attachment paths are relative to the schedule file, wherever pushbox runs.
            let base =
                file == "-"
                ? FileManager.default.currentDirectoryPath
                : URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().path
            return .success(ScheduleInput(bytes: bytes, requests: requests, baseDirectory: base))
        } catch {
            return .failure(Problem(description: "\(file): \(error)"))
        }
    }
}
