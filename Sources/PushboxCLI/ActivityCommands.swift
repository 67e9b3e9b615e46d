import Foundation
import PushboxDevice
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore

/// `pushbox activities` and `pushbox activity start`: the device's Live Activities, as a
/// running pushbox keeps them beside the inbox, on the device clock it last recorded.
enum ActivitiesCommand {
    static let spec = CommandSpec(
        name: "activities",
        summary:
            "The device's Live Activities: each with its type, phase (active, stale, ended, dismissed), times, relevance, the Dynamic Island order, its lock-screen line (the profile's template), its content state and attributes, and its timeline of pushes, each applied or dropped with the reason; then pushes that reached no activity. Times are on the device clock a running pushbox last recorded (or --clock).",
        options: [
            Options.database,
            Options.json.with(
                help: "Print one JSON object: now, the push-to-start token, the Dynamic Island order, every activity, the unmatched pushes."),
            Options.device.with(help: "An added iPhone of the inbox's fleet: its own Live Activities (pushbox device list). Default: phone."),
        ] + RenderCommand.deviceOptions + ClockOptions.options,
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let activities: LiveActivityDevice
        do { activities = try ActivityCommand.open(args, io) } catch {
            io.err("pushbox activities: \(error)")
            return 2
        }
        let now = activities.now()
        let book = activities.file.current().book
        let island = book.island(at: now)
        let templates = activities.profile.types.mapValues(\.template)
        func line(_ a: LiveActivity) -> String? { templates[a.type].flatMap { $0 }.map(a.line) }
        if args.flag(Options.json) {
            io.out(JSONWriter.compact(activities.shownJSON()))
            return 0
        }
        let clock = DateFormatter()
        clock.dateFormat = "yyyy-MM-dd HH:mm:ss"
        clock.timeZone = (try? ClockOptions.timeZone(args)) ?? .current
        func time(_ t: Double) -> String { clock.string(from: Date(timeIntervalSince1970: t)) }
        io.out("device clock            \(time(now))")
        io.out("push-to-start token     \(book.identity.pushToStart)")
        io.out("Dynamic Island          " + (island.first.map { "\($0.type) \($0.id)" } ?? "nothing"))
        for a in book.ranked(at: now) + book.activities.filter({ $0.phase(at: now) == .dismissed }) {
            io.out("")
            let rank = island.firstIndex { $0.id == a.id }.map { " · island #\($0 + 1)" } ?? ""
            io.out(
                TerminalText.sanitize("\(a.type) \(a.id)  \(a.phase(at: now).rawValue)\(rank) · relevance \(ContentDecoder.shortest(a.relevance))"))
            io.out(
                TerminalText.sanitize(
                    "  started \(time(a.startedAt)) by \(a.startedBy)" + (a.pushToken.map { " · push token \($0)" } ?? "")
                        + (a.channel.map { " · channel \($0)" } ?? "")))
            if let stale = a.staleDate { io.out("  stale from \(time(stale))") }
            if let end = a.end(at: now), let leaves = a.dismissal(at: now) {
                io.out("  ended \(time(end)); leaves the Lock Screen \(time(leaves))")
            }
            if let l = line(a) { io.out(TerminalText.sanitize("  line: \(l)")) }
            io.out(TerminalText.sanitize("  state: \(JSONWriter.compact(a.state))"))
            io.out(TerminalText.sanitize("  attributes: \(JSONWriter.compact(a.attributes))"))
            for e in a.timeline { io.out(TerminalText.sanitize(eventLine(e, time: time))) }
        }
        for c in book.channels {
            io.out("")
            io.out("channel \(c.id) · message-storage-policy \(c.storagePolicy)\(c.latest == nil ? "" : " · keeps its latest message")")
        }
        if !book.unmatched.isEmpty {
            io.out("")
            io.out("reached no activity")
            for e in book.unmatched { io.out(TerminalText.sanitize(eventLine(e, time: time))) }
        }
        return 0
    }

    /// One event of a timeline.
    static func eventLine(_ e: ActivityEvent, time: (Double) -> String) -> String {
        let verdict = e.applied ? "applied" : "dropped \(e.drop?.rawValue ?? "")"
        return "  \(time(e.at)) \(e.event.padding(toLength: 11, withPad: " ", startingAt: 0)) p\(e.priority) \(verdict) — \(e.detail)"
            + (e.alert.map { " · alert: \($0)" } ?? "")
    }
}

/// `pushbox activity start`: what the app's `Activity.request` does, on the simulated device.
enum ActivityCommand {
    static let spec = CommandSpec(
        name: "activity",
        summary:
            "Start a Live Activity as the app's Activity.request does: start --type NAME --attributes FILE [--state FILE] [--relevance N] [--stale-date DATE] [--no-token]. The attributes and state are checked against the profile's schema and the 4 KB limits; the new activity's id and push token are printed, and updates sent to that token apply to it.",
        operands: "start",
        options: [
            Options.database, Options.activityType, Options.attributes, Options.state, Options.relevance, Options.staleDate, Options.noToken,
            Options.channel,
            Options.json.with(help: "Print the outcome as one JSON object."),
            Options.device.with(help: "Start it on an added iPhone of the inbox's fleet (pushbox device list). Default: phone."),
        ] + RenderCommand.deviceOptions + ClockOptions.options,
        run: run)

    /// The device's activities for the inbox `--db` names, with the app's profile; on `--clock`
    /// when given, else on the clock the file last recorded.
    static func open(_ args: ParsedArguments, _ io: CommandIO) throws -> LiveActivityDevice {
        let database = args.value(Options.database) ?? InboxStore.defaultPath(environment: io.environment)
        let device = try Device.from(args, defaultApp: true, inbox: true, io: io)
        let clock = args.value(Options.clock) != nil || args.value(Options.speed) != nil ? try ClockOptions.clock(args) : nil
        let own = device.liveActivities(database: database, clock: clock)
        guard let name = args.value(Options.device), name != FleetDevice.defaultName else { return own }
        guard let member = DeviceRegistrationFile(databasePath: database).current().device(named: name) else {
            throw UsageError(message: "no device named \(TerminalText.sanitize(name)) in this inbox (pushbox device list)")
        }
        guard member.platform == .ios else {
            throw UsageError(message: "\(TerminalText.sanitize(name)) is an Android phone: Live Activities are an iPhone's")
        }
        return own.of(member)
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard args.operands == ["start"] else {
            io.err("pushbox activity: give start; see pushbox activity --help")
            return 2
        }
        guard let type = args.value(Options.activityType), let attributesFile = args.value(Options.attributes) else {
            io.err("pushbox activity start: --type NAME and --attributes FILE are required")
            return 2
        }
        let activities: LiveActivityDevice
        let attributes: JSONValue
        var state: JSONValue = .object(JSONObject())
        var stale: Double?
        do {
            activities = try open(args, io)
            attributes = try json(attributesFile, io)
            if let f = args.value(Options.state) { state = try json(f, io) }
            if let s = args.value(Options.staleDate) {
                guard let date = ClockOptions.parseClock(s, zone: try ClockOptions.timeZone(args)) else {
                    throw UsageError(message: "--stale-date \(s): expected a date and time like 2026-12-07T06:09:50")
                }
                stale = date.timeIntervalSince1970
            }
        } catch {
            io.err("pushbox activity start: \(error)")
            return 2
        }
        let relevance = args.value(Options.relevance).flatMap(Double.init)
        let outcome: LiveActivityOutcome
        do {
            outcome = try activities.change { book, now in
                book.startLocally(
                    type: type, attributes: attributes, state: state, staleDate: stale, relevance: relevance, wantsToken: !args.flag(Options.noToken),
                    channel: args.value(Options.channel), now: now, profile: activities.profile)
            }
        } catch {
            io.err("pushbox activity start: \(error)")
            return 1
        }
        if args.flag(Options.json) {
            io.out(JSONWriter.compact(outcome.json))
        } else if outcome.applied {
            io.out("activity     \(outcome.activityID ?? "")")
            io.out("push token   \(outcome.pushToken ?? "none (--no-token)")")
            for note in outcome.notes { io.out(TerminalText.sanitize("note         \(note)")) }
        } else {
            io.err(TerminalText.sanitize("pushbox activity start: Activity.request fails: \(outcome.detail) (\(outcome.drop?.rawValue ?? ""))"))
        }
        return outcome.applied ? 0 : 1
    }

    /// A JSON file's value, or the file:line:column of what is wrong with it.
    static func json(_ path: String, _ io: CommandIO) throws -> JSONValue {
        guard let data = path == "-" ? io.readStdin() : FileManager.default.contents(atPath: path).map(Array.init) else {
            throw UsageError(message: "cannot read \(path)")
        }
        do { return try JSONParser.parse(data) } catch {
            throw UsageError(message: "\(path):\(error.line):\(error.column): \(error.message)")
        }
    }
}
