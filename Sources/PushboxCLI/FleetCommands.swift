import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore

/// `pushbox device add|remove|list` and `--device NAME`: the devices an inbox holds beside its
/// own (`phone`), each with its tokens, languages, time zone and state, kept in the inbox's
/// device file with the default device's.
enum FleetCommands {
    /// The options only `device add` reads.
    static let addOptions = [
        platform,
        Options.timeZone.with(help: "add: the device's time zone, e.g. Asia/Seoul. Default: the inbox's device's."),
        Options.clock.with(
            help:
                "add: the time the device's clock shows now, e.g. 2026-12-07T06:09:50 (in --tz): it runs that far ahead of (or behind) the inbox's device clock."
        ),
        Options.fcmProject,
    ]

    /// `--platform` as `add` reads it.
    static let platform = Options.platform.with(value: "ios|android", help: "add: the device's platform. Default ios.")

    /// Runs `add`, `remove`, `list`, or any other action for `--device NAME` other than the
    /// default device; nil when the action is the default device's (the caller runs it).
    static func run(_ args: ParsedArguments, file: DeviceRegistrationFile, device: Device, database: String, io: inout CommandIO) -> Int32? {
        let operands = args.operands
        switch operands.first {
        case "add": return add(args, operands: operands, file: file, device: device, io: &io)
        case "remove": return remove(operands: operands, file: file, io: &io)
        case "list":
            guard operands.count == 1 else { return usage("list takes no operand", &io) }
            list(file.current(), device: device, json: args.flag(Options.json), io: &io)
            return 0
        default: break
        }
        guard let name = args.value(Options.device), name != FleetDevice.defaultName else { return nil }
        guard let member = file.current().device(named: name) else {
            io.err("pushbox device: no device named \(TerminalText.sanitize(name)) in this inbox (pushbox device list)")
            return 2
        }
        let base = baseTopics(member, device: device)
        let now = Date()
        do {
            switch (operands.first, operands.count) {
            case (nil, _): break
            case ("online", 1):
                let activities = member.platform == .ios ? device.liveActivities(database: database, clock: nil).of(member) : nil
                let back = try file.comeOnline(at: now, store: InboxStore(path: database), activities: activities, device: name)
                if !args.flag(Options.json) {
                    io.out("delivered from storage  \(back.delivered)")
                    io.out("discarded — expired     \(back.discarded)")
                }
            default:
                guard let change = DeviceCommand.change(operands, args: args, attention: member.state.attention, io: &io) else { return 2 }
                _ = try file.apply(change, device: name, baseTopics: base, at: now)
            }
        } catch {
            io.err("pushbox device: \(error)")
            return 1
        }
        guard let now = file.current().device(named: name) else { return 1 }
        printMember(now, device: device, json: args.flag(Options.json), io: &io)
        return 0
    }

    private static func usage(_ message: String, _ io: inout CommandIO) -> Int32 {
        io.err("pushbox device: \(message); see pushbox device --help")
        return 2
    }

    /// `device add NAME`: a new device with fresh tokens.
    private static func add(_ args: ParsedArguments, operands: [String], file: DeviceRegistrationFile, device: Device, io: inout CommandIO) -> Int32 {
        guard operands.count == 2 else { return usage("add takes the new device's NAME", &io) }
        let name = operands[1]
        guard FleetDevice.isValidName(name) else {
            return usage("\(TerminalText.sanitize(name)) cannot name a device: 1–32 letters, digits, - _ or ., not starting with -", &io)
        }
        let platformName = args.value(platform) ?? DevicePlatform.ios.rawValue
        guard let platform = DevicePlatform(rawValue: platformName) else {
            return usage("--platform is ios or android, not \(TerminalText.sanitize(platformName))", &io)
        }
        let zone = args.value(Options.timeZone)
        if let zone, TimeZone(identifier: zone) == nil {
            return usage("--tz \(TerminalText.sanitize(zone)) is not a time zone (an IANA name such as Asia/Seoul)", &io)
        }
        var offset: Double?
        if let text = args.value(Options.clock) {
            guard let shown = ClockOptions.parseClock(text, zone: zone.flatMap(TimeZone.init(identifier:)) ?? .current) else {
                return usage("--clock \(TerminalText.sanitize(text)): expected a date and time like 2026-12-07T06:09:50", &io)
            }
            offset = shown.timeIntervalSinceNow
        }
        let project = args.value(Options.fcmProject)
        let languages = args.value(Options.lang) != nil ? device.languages : nil
        var member = FleetDevice(
            name: name, platform: platform, languages: languages, timeZone: zone, apnsEnvironment: device.apnsEnvironment, fcmProject: project)
        member.clockOffset = offset
        do {
            switch try file.add(member) {
            case .done: break
            case .defaultDevice: return usage("phone is the inbox's own device: it is always there", &io)
            default: return usage("the inbox has a device named \(name) already (pushbox device remove \(name) first)", &io)
            }
        } catch {
            io.err("pushbox device: \(error)")
            return 1
        }
        printMember(member, device: device, json: args.flag(Options.json), io: &io)
        return 0
    }

    /// `device remove NAME`: the device goes; what it received stays in the inbox under its name.
    private static func remove(operands: [String], file: DeviceRegistrationFile, io: inout CommandIO) -> Int32 {
        guard operands.count == 2 else { return usage("remove takes the device's NAME", &io) }
        do {
            switch try file.remove(operands[1]) {
            case .done: return 0
            case .defaultDevice: return usage("phone is the inbox's own device: it cannot be removed (pushbox device uninstall)", &io)
            default: return usage("no device named \(TerminalText.sanitize(operands[1])) in this inbox (pushbox device list)", &io)
            }
        } catch {
            io.err("pushbox device: \(error)")
            return 1
        }
    }

    /// An added device's own topics: its language's (else the inbox's device's) and the app's.
    static func baseTopics(_ member: FleetDevice, device: Device) -> Set<String> {
        DeviceTopics.topics(preferredLanguages: member.languages ?? device.languages, profileTopics: device.profile?.fcmTopics ?? [])
    }

    /// Every device of the inbox, its own first: a table, or one JSON object per line.
    static func list(_ registration: DeviceRegistration, device: Device, json: Bool, io: inout CommandIO) {
        let environment = device.validationContext.apnsEnvironment
        var rows: [JSONObject] = [
            summary(
                name: FleetDevice.defaultName, platform: "ios", languages: device.languages, zone: nil, apnsToken: DeviceIdentity.apnsToken,
                fcmToken: DeviceIdentity.fcmToken, fid: DeviceIdentity.installationID, environment: environment, state: registration,
                topics: DeviceTopics.sources(
                    preferredLanguages: device.languages, profileTopics: device.profile?.fcmTopics ?? [], registration: registration
                )
                .map(\.topic))
        ]
        for member in registration.devices {
            rows.append(
                summary(
                    name: member.name, platform: member.platform.rawValue, languages: member.languages ?? device.languages, zone: member.timeZone,
                    apnsToken: member.apnsToken, fcmToken: member.fcmToken, fid: member.installationID,
                    environment: member.apnsEnvironment ?? environment, state: member.state,
                    topics: member.state.installed ? member.state.topics(base: baseTopics(member, device: device)).sorted() : [],
                    clockOffset: member.clockOffset))
        }
        if json {
            for row in rows { io.out(JSONWriter.compact(.object(row))) }
            return
        }
        io.out("NAME          PLATFORM  LANGUAGES      STATE                  APNS TOKEN        TOPICS")
        for row in rows {
            let languages = row["languages"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ",") ?? ""
            let state = [row["online"] == .bool(false) ? "offline" : "online", row["installed"] == .bool(false) ? "uninstalled" : nil]
                .compactMap { $0 }.joined(separator: ", ")
            let token = row["apnsToken"]?.stringValue.map { String($0.prefix(12)) + "…" } ?? "—"
            let topics = row["topics"]?.arrayValue?.compactMap(\.stringValue).joined(separator: " ") ?? ""
            io.out(
                TerminalText.sanitize(
                    [
                        pad(row["name"]?.stringValue ?? "", 13), pad(row["platform"]?.stringValue ?? "", 9), pad(languages, 14), pad(state, 22),
                        pad(token, 17), topics,
                    ].joined(separator: " ")))
        }
    }

    private static func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }

    /// One device as `list --json` prints it.
    private static func summary(
        name: String, platform: String, languages: [String], zone: String?, apnsToken: String?, fcmToken: String, fid: String,
        environment: APNsEnvironment, state: DeviceRegistration, topics: [String], clockOffset: Double? = nil
    ) -> JSONObject {
        JSONObject([
            ("name", .string(name)), ("platform", .string(platform)), ("languages", .array(languages.map { .string($0) })),
            ("timeZone", .optionalString(zone)), ("apnsToken", .optionalString(apnsToken)), ("fcmToken", .string(fcmToken)), ("fid", .string(fid)),
            ("apnsEnvironment", .string(environment.rawValue)), ("fcmProject", .optionalString(state.fcmProject)),
            ("installed", .bool(state.installed)), ("online", .bool(state.online)), ("topics", .array(topics.map { .string($0) })),
            ("clockOffset", clockOffset.map { .number(String(format: "%.0f", $0)) } ?? .null),
        ])
    }

    /// An added device as `pushbox device --device NAME` prints it.
    static func printMember(_ member: FleetDevice, device: Device, json: Bool, io: inout CommandIO) {
        let languages = member.languages ?? device.languages
        let environment = member.apnsEnvironment ?? device.validationContext.apnsEnvironment
        let topics = DeviceTopics.sources(preferredLanguages: languages, profileTopics: device.profile?.fcmTopics ?? [], registration: member.state)
        if json {
            var object = summary(
                name: member.name, platform: member.platform.rawValue, languages: languages, zone: member.timeZone, apnsToken: member.apnsToken,
                fcmToken: member.fcmToken, fid: member.installationID, environment: environment, state: member.state,
                topics: member.state.installed ? topics.map(\.topic) : [], clockOffset: member.clockOffset)
            object["fcmProject"] = .optionalString(device.profile?.fcmProject ?? member.state.fcmProject)
            if member.platform == .ios { object["pushToStartToken"] = .string(member.activityIdentity.pushToStart) }
            io.out(JSONWriter.compact(.object(object)))
            return
        }
        io.out(TerminalText.sanitize("device                  \(member.name) (\(member.platform == .ios ? "an iPhone" : "an Android phone"))"))
        io.out(
            TerminalText.sanitize(
                "languages               \(languages.joined(separator: ", "))\(member.languages == nil ? " (the inbox's device's)" : "")"))
        if let zone = member.timeZone { io.out(TerminalText.sanitize("time zone               \(zone)")) }
        if let offset = member.clockOffset {
            io.out(String(format: "clock                   %.0f s %@ the inbox's device clock", abs(offset), offset >= 0 ? "ahead of" : "behind"))
        }
        if let token = member.apnsToken {
            io.out("APNs device token       \(token)")
            io.out("Live Activity push-to-start token  \(member.activityIdentity.pushToStart)")
            io.out("APNs environment        \(environment.rawValue): its token is for \(environment.host)")
        }
        io.out("FCM registration token  \(member.fcmToken)")
        io.out("Firebase installation   \(member.installationID)")
        let project = device.profile?.fcmProject ?? member.state.fcmProject
        io.out(TerminalText.sanitize("Firebase project        \(project ?? "none yet: the first project that sends becomes the device's")"))
        io.out("state                   \(member.state.online ? "online" : "offline"), \(member.state.installed ? "installed" : "uninstalled")")
        for t in topics where member.state.installed {
            io.out(TerminalText.sanitize("topic                   \(pad(t.topic, 16)) \(t.givenBy)"))
        }
    }
}
