import Foundation
import PushboxDevice
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxPayload

/// `pushbox schedule`: local notification requests into the running pushbox (through its
/// socket), or `--dry-run`: the pending set a schedule file would give, as iOS keeps it.
enum ScheduleCommand {
    static let spec = CommandSpec(
        name: "schedule",
        summary:
            "Local notifications: add a schedule file's requests to the running pushbox (through its socket), or with --dry-run print the pending set it gives (64 at most, soonest first). Exit 1 when a request is refused.",
        operands: "FILE",
        options: [
            Options.socket,
            Options.dryRun,
            Options.json.with(
                help: "With --dry-run: one object per pending request per line, soonest first: identifier, content, nextFire, trigger."),
            Options.clock.with(help: "With --dry-run: the clock, e.g. 2026-12-07T06:09:50 (in --tz). Default: now."),
            Options.timeZone.with(help: "With --dry-run: the time zone, e.g. Europe/Berlin. Default: the system's."),
            Options.device.with(
                help: "Schedule them on an added device of the inbox's fleet, on its own clock (pushbox device list). Default: phone."),
        ],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard args.operands.count == 1, let file = args.operands.first else {
            io.err("pushbox schedule: give one schedule file; see pushbox schedule --help")
            return 2
        }
        let schedule: ScheduleInput
        switch ScheduleInput.read(file, stdin: io.readStdin) {
        case .failure(let problem):
            io.err("pushbox schedule: \(problem)")
            return 1
        case .success(let read): schedule = read
        }
        return args.flag(Options.dryRun)
            ? dryRun(schedule.requests, base: schedule.baseDirectory, args, &io)
            : live(schedule.bytes, base: schedule.baseDirectory, args, &io)
    }

    /// Posts the file to the running instance and prints its answer.
    static func live(_ body: [UInt8], base: String, _ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        for option in [Options.json, Options.clock, Options.timeZone] where args.flag(option) || args.value(option) != nil {
            io.err(
                "pushbox schedule: \(option.name) goes with --dry-run; the running pushbox has its own clock (set with its --clock, --speed, --tz)")
            return 2
        }
        let answer: JSONObject
        switch LocalClient.call(
            "POST", "/pushbox/schedule" + LocalClient.deviceQuery(args), body: body, headers: [("x-pushbox-base-dir", base)], args, io)
        {
        case .failure(let failure):
            io.err("pushbox schedule: \(failure)")
            return 1
        case .success(let o): answer = o
        }
        let scheduled = answer["scheduled"]?.arrayValue?.count ?? 0
        for d in answer["dropped"]?.arrayValue ?? [] { io.err("pushbox schedule: dropped \(LocalClient.refusal(d))") }
        let refused = answer["refused"]?.arrayValue ?? []
        for r in refused { io.err("pushbox schedule: not scheduled: \(LocalClient.refusal(r))") }
        io.out("scheduled \(scheduled); \(answer["pending"]?.intValue ?? 0)/\(answer["limit"]?.intValue ?? PendingSet.limit) pending")
        return refused.isEmpty ? 0 : 1
    }

    static func dryRun(_ requests: [LocalRequest], base: String, _ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let zone: TimeZone
        let start: Date?
        do {
            zone = try ClockOptions.timeZone(args)
            start = try ClockOptions.start(args, zone: zone)
        } catch {
            io.err("pushbox schedule: \(error)")
            return 2
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var set = PendingSet(calendar: calendar)
        let refused = set.add(requests, now: start ?? Date(), baseDirectory: base)
        let idWidth = set.pending.map { DisplayWidth.of(TerminalText.sanitize($0.request.identifier)) }.max() ?? 0
        for p in set.pending {
            if args.flag(Options.json) {
                io.out(JSONWriter.compact(p.json(timeZone: zone)))
            } else {
                let id = padded(TerminalText.sanitize(p.request.identifier), to: idWidth)
                io.out(
                    "\(LocalClockText.format(p.nextFire, timeZone: zone))  \(id)  \(p.request.trigger?.summary ?? "now")\(p.shifted(timeZone: zone).map { "  ! " + $0 } ?? "")"
                )
            }
        }
        for d in set.dropped { io.err("pushbox schedule: dropped \(TerminalText.sanitize(d.description))") }
        for r in refused { io.err("pushbox schedule: not scheduled: \(TerminalText.sanitize(r.description))") }
        if !args.flag(Options.json) { io.err("pushbox schedule: \(set.pending.count)/\(PendingSet.limit) pending") }
        return refused.isEmpty ? 0 : 1
    }
}

/// `pushbox pending`: the running pushbox's pending local notifications.
enum PendingCommand {
    static let spec = CommandSpec(
        name: "pending",
        summary: "List the running pushbox's pending local notifications, soonest first, with the device clock and what was dropped.",
        options: [
            Options.socket,
            Options.json.with(help: "One object per pending request per line, soonest first: identifier, content, nextFire, trigger."),
            Options.device.with(help: "An added device of the inbox's fleet: its own pending requests and clock. Default: phone."),
        ],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        switch LocalClient.call("GET", "/pushbox/pending" + LocalClient.deviceQuery(args), body: [], headers: [], args, io) {
        case .failure(let failure):
            io.err("pushbox pending: \(failure)")
            return 1
        case .success(let answer):
            let pending = answer["pending"]?.arrayValue ?? []
            let idWidth =
                pending.map { DisplayWidth.of(TerminalText.sanitize($0.objectValue?["identifier"]?.stringValue ?? "?")) }.max() ?? 0
            for p in pending {
                guard let o = p.objectValue else { continue }
                if args.flag(Options.json) {
                    io.out(JSONWriter.compact(p))
                } else {
                    let trigger = o["trigger"].flatMap { try? ScheduleFile.trigger($0, path: "trigger") }
                    let id = padded(TerminalText.sanitize(o["identifier"]?.stringValue ?? "?"), to: idWidth)
                    io.out(
                        "\(o["nextFire"]?.stringValue ?? "?")  \(id)  \(trigger?.summary ?? "now")\(o["finding"]?.stringValue.map { "  ! " + TerminalText.sanitize($0) } ?? "")"
                    )
                }
            }
            for d in answer["dropped"]?.arrayValue ?? [] { io.err("pushbox pending: dropped \(LocalClient.refusal(d))") }
            for r in answer["refused"]?.arrayValue ?? [] { io.err("pushbox pending: not scheduled \(LocalClient.refusal(r))") }
            if !args.flag(Options.json) {
                io.err(
                    "pushbox pending: \(pending.count)/\(PendingSet.limit) pending; device clock \(answer["now"]?.stringValue ?? "?") (\(answer["timeZone"]?.stringValue ?? "?")); \(answer["delivered"]?.intValue ?? 0) delivered"
                )
            }
            return 0
        }
    }
}

/// `pushbox cancel`: removes pending requests by identifier or prefix.
enum CancelCommand {
    static let spec = CommandSpec(
        name: "cancel",
        summary:
            "Cancel pending local notifications in the running pushbox by identifier, or by prefix with a final * (alarm-2-*). Exit 1 when nothing matched.",
        operands: "ID|PREFIX*",
        options: [Options.socket, Options.device.with(help: "Cancel on an added device of the inbox's fleet. Default: phone.")],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard args.operands.count == 1, let pattern = args.operands.first, !pattern.isEmpty else {
            io.err("pushbox cancel: give one identifier or prefix*; see pushbox cancel --help")
            return 2
        }
        let path =
            "/pushbox/pending/" + (pattern.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? pattern) + LocalClient.deviceQuery(args)
        switch LocalClient.call("DELETE", path, body: [], headers: [], args, io) {
        case .failure(let failure):
            io.err("pushbox cancel: \(failure)")
            return 1
        case .success(let answer):
            // In the identifiers' order, numbers as numbers (alarm-2-5 before alarm-2-10).
            let gone = (answer["cancelled"]?.arrayValue?.compactMap(\.stringValue) ?? []).sorted {
                $0.localizedStandardCompare($1) == .orderedAscending
            }
            guard !gone.isEmpty else {
                io.err("pushbox cancel: nothing pending matches \(TerminalText.sanitize(pattern))")
                return 1
            }
            io.out("cancelled \(gone.count): \(gone.map { TerminalText.sanitize($0) }.joined(separator: ", "))")
            return 0
        }
    }
}

/// Calls pushbox's own `/pushbox/…` paths on the running instance's socket.
enum LocalClient {
    /// `?device=NAME` for `--device NAME`, else nothing.
    static func deviceQuery(_ args: ParsedArguments) -> String {
        args.value(Options.device).map { "?device=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? ""
    }

    /// The running instance's JSON object answer to `method path`, or why there is none.
    static func call(
        _ method: String, _ path: String, body: [UInt8], headers: [(String, String)],
        _ args: ParsedArguments, _ io: CommandIO
    ) -> Result<JSONObject, Failure> {
        callJSON(method, path, body: body, headers: headers, args, io).flatMap { value in
            value.objectValue.map { .success($0) } ?? .failure(Failure("pushbox answered something that is not a JSON object"))
        }
    }

    /// The running instance's JSON answer (any value) to `method path`, or why there is none.
    static func callJSON(
        _ method: String, _ path: String, body: [UInt8], headers: [(String, String)],
        _ args: ParsedArguments, _ io: CommandIO
    ) -> Result<JSONValue, Failure> {
        let socket = IntakeOptions.socketPath(args, io)
        guard let client = UnixHTTPClient(socketPath: socket) else { return .failure(Failure("libcurl could not start")) }
        switch client.request(method, url: "http://localhost" + path, headers: headers, body: body) {
        case .failure(let e):
            return .failure(Failure("cannot reach pushbox on \(socket) (\(e)); is pushbox (the TUI) or `pushbox serve` running?"))
        case .success(let answer):
            let value = try? JSONParser.parse(answer.body)
            guard answer.status == 200, let value else {
                let object = value?.objectValue
                let reason = object?["reason"]?.stringValue ?? "HTTP \(answer.status)"
                let detail = object?["detail"]?.stringValue.map { ": " + $0 } ?? ""
                return .failure(Failure("\(answer.status) \(reason)\(TerminalText.sanitize(detail))"))
            }
            return .success(value)
        }
    }

    static func refusal(_ value: JSONValue) -> String {
        let o = value.objectValue
        return TerminalText.sanitize("\(o?["identifier"]?.stringValue ?? "?"): \(o?["reason"]?.stringValue ?? "?")")
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }
}

/// `text` followed by spaces to `width` terminal columns: the identifiers of `schedule` and
/// `pending` line up whatever their script.
private func padded(_ text: String, to width: Int) -> String { text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text))) }
