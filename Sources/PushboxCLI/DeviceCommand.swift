import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxStore

/// `pushbox device`: the simulated device's tokens, its topics and its state — online or
/// offline, its app installed or not, tokens made unregistered or registered — which a running
/// pushbox applies from its next push.
enum DeviceCommand {
    static let spec = CommandSpec(
        name: "device",
        summary:
            "The simulated device: print its APNs device token, its FCM registration token and installation id, its FCM topics (and who subscribed it) and its state; or change it: offline (the push service answers as usual and keeps what it accepted: APNs the latest per app, FCM per ttl and collapse key), online (what was kept is delivered from storage, or discarded as expired), uninstall (APNs answers 410 Unregistered, FCM 404 UNREGISTERED), install, unregister TOKEN, register TOKEN (the token is this device's again, and also in strict mode), subscribe TOPIC, unsubscribe TOPIC (as the app's SDK would), language TAGS (the user changes the device's languages: its language topic follows the first), focus on|off (a Focus: --allow-apps, --allow-people, --allow-time-sensitive, --filter), summary on|off (the app in the scheduled summary, at --times), previews always|when-unlocked|never, ring, silent (the ring/silent switch): how a notification interrupts, judged as each arrives. A running pushbox applies the change from its next push. The inbox can hold a fleet: add NAME adds a device with its own tokens, languages, time zone and state (--platform, --lang, --tz, --apns-environment, --fcm-project), list lists them, remove NAME removes one, and --device NAME makes every other action its own; the inbox's own device is phone.",
        operands:
            "[online|offline|install|uninstall|unregister TOKEN|register TOKEN|subscribe TOPIC|unsubscribe TOPIC|language TAGS|focus on|focus off|summary on|summary off|previews always|previews when-unlocked|previews never|ring|silent|add NAME|remove NAME|list]",
        options: [Options.database, Options.json.with(help: "Print the state as one JSON object (list: one per device, one per line).")]
            + RenderCommand.deviceOptions + [
                Options.apnsEnvironment, Options.device, Options.allowApps, Options.allowPeople, Options.focusFilter, Options.allowTimeSensitive,
                Options.summaryTimes,
            ]
            + FleetCommands.addOptions,
        run: run)

    /// The token a file or test names when it gives none: this device's APNs token.
    static let apnsToken = DeviceIdentity.apnsToken
    /// This device's FCM registration token.
    static let fcmToken = DeviceIdentity.fcmToken
    /// This device's Firebase installation id.
    static let installationID = DeviceIdentity.installationID

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let database = args.value(Options.database) ?? InboxStore.defaultPath(environment: io.environment)
        let file = DeviceRegistrationFile(databasePath: database)
        var device: Device
        do { device = try Device.from(args, defaultApp: true, inbox: true, io: io) } catch {
            io.err("pushbox device: \(error)")
            return 2
        }
        if let fleet = FleetCommands.run(args, file: file, device: device, database: database, io: &io) { return fleet }
        let base = device.validationContext.deviceTopics ?? []
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var registration = file.current()
        // Without flags of its own, the environment the inbox's pushbox judges by (kept beside it).
        if device.apnsEnvironment == nil, args.value(Options.app) == nil { device.apnsEnvironment = registration.apnsEnvironment }
        let operands = args.operands
        if operands == ["online"] {
            do {
                let back = try file.comeOnline(
                    at: Date(timeIntervalSince1970: Double(now) / 1000), store: InboxStore(path: database),
                    activities: device.liveActivities(database: database, clock: nil))
                registration = back.registration
                if !args.flag(Options.json) {
                    io.out("delivered from storage  \(back.delivered)")
                    io.out("discarded — expired     \(back.discarded)")
                    if !back.liveActivities.isEmpty {
                        let applied = back.liveActivities.filter { $0.liveActivity?.applied == true }.count
                        io.out("Live Activity pushes    \(applied) applied, \(back.liveActivities.count - applied) dropped (pushbox activities)")
                    }
                }
            } catch {
                io.err("pushbox device: \(error)")
                return 1
            }
        } else if !operands.isEmpty {
            guard let change = change(operands, args: args, attention: registration.attention, io: &io) else { return 2 }
            if case .language(let tags) = change { device.languages = tags }
            do { registration = try file.apply(change, baseTopics: base, at: Date(timeIntervalSince1970: Double(now) / 1000)) } catch {
                io.err("pushbox device: \(error)")
                return 1
            }
        }
        let topics = DeviceTopics.sources(
            preferredLanguages: device.languages, profileTopics: device.profile?.fcmTopics ?? [], registration: registration)
        print(registration, device: device, topics: topics, json: args.flag(Options.json), io: &io)
        return 0
    }

    /// The change an action names (`offline`, `subscribe TOPIC`, …); nil, said on `io`, when it names none.
    static func change(
        _ operands: [String], args: ParsedArguments? = nil, attention: DeviceAttention = DeviceAttention(), io: inout CommandIO
    ) -> DeviceChange? {
        guard let action = operands.first else { return nil }
        let value = operands.count == 2 ? operands[1] : ""
        if ["focus", "summary", "previews", "ring", "silent"].contains(action) {
            return attentionChange(operands, args: args, attention: attention, io: &io).map { .attention($0) }
        }
        switch (action, operands.count) {
        case ("offline", 1): return .offline
        case ("uninstall", 1): return .uninstall
        case ("install", 1): return .install
        case ("unregister", 2): return .unregister(value)
        case ("register", 2): return .register(value)
        case ("language", 2):
            let tags = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !tags.isEmpty,
                tags.allSatisfy({
                    LanguageTag.subtags($0).first.map { (2...3).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } } == true
                })
            else {
                io.err("pushbox device: language takes language tags, most preferred first, e.g. language ko-KR,en")
                return nil
            }
            return .language(tags)
        case ("subscribe", 2), ("unsubscribe", 2):
            let topic = TopicCondition.bareTopicName(value)
            guard TopicCondition.isValidTopicName(topic) else {
                io.err("pushbox device: \(TerminalText.sanitize(value)) is not a topic name (letters, digits and -_.~% only)")
                return nil
            }
            return action == "subscribe" ? .subscribe(topic) : .unsubscribe(topic)
        default:
            io.err(
                "pushbox device: give online, offline, install, uninstall, unregister TOKEN, register TOKEN, subscribe TOPIC, unsubscribe TOPIC, language TAGS, add NAME, remove NAME or list; see pushbox device --help"
            )
            return nil
        }
    }

    /// `focus on|off`, `summary on|off`, `previews always|when-unlocked|never`, `ring`, `silent`:
    /// the device's attention settings after the change; nil, said on `io`, when it cannot be made.
    static func attentionChange(_ operands: [String], args: ParsedArguments?, attention: DeviceAttention, io: inout CommandIO) -> DeviceAttention? {
        var out = attention
        func list(_ option: OptionSpec) -> [String]? {
            args?.value(option).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        }
        switch (operands.first ?? "", operands.count > 1 ? operands[1] : "", operands.count) {
        case ("focus", "on", 2):
            var focus = out.focus ?? DeviceAttention.Focus()
            if let apps = list(Options.allowApps) { focus.allowApps = apps }
            if let people = list(Options.allowPeople) { focus.allowPeople = people }
            if let filter = args?.value(Options.focusFilter) { focus.filter = filter.isEmpty ? nil : filter }
            if let allow = args?.value(Options.allowTimeSensitive) {
                guard allow == "yes" || allow == "no" else {
                    io.err("pushbox device: --allow-time-sensitive takes yes or no")
                    return nil
                }
                focus.allowTimeSensitive = allow == "yes"
            }
            out.focus = focus
        case ("focus", "off", 2): out.focus = nil
        case ("summary", "on", 2):
            guard let times = DeviceAttention.summaryTimes(list(Options.summaryTimes) ?? out.summaryTimes ?? DeviceAttention.defaultSummaryTimes)
            else {
                io.err("pushbox device: --times takes times on the device clock, HH:MM, e.g. 08:00,18:00")
                return nil
            }
            out.summaryTimes = times
        case ("summary", "off", 2): out.summaryTimes = nil
        case ("previews", let value, 2):
            guard let previews = DeviceAttention.Previews(rawValue: value) else {
                io.err("pushbox device: previews takes always, when-unlocked or never")
                return nil
            }
            out.previews = previews
        case ("ring", _, 1): out.silent = false
        case ("silent", _, 1): out.silent = true
        default:
            io.err("pushbox device: give focus on|off, summary on|off, previews always|when-unlocked|never, ring or silent")
            return nil
        }
        return out
    }

    /// The device as text or as one JSON object: the app and languages it runs with (the
    /// inbox's, unless --app or --lang said otherwise), its tokens, state and topics.
    static func print(_ registration: DeviceRegistration, device: Device, topics: [DeviceTopics.Source], json: Bool, io: inout CommandIO) {
        let dates = ISO8601DateFormatter()
        func date(_ ms: Int64) -> String { dates.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)) }
        if json {
            var object = registration.json.objectValue ?? JSONObject()
            object["app"] = .optionalString(device.appFolder)
            object["bundleID"] = .optionalString(device.profile?.bundleID)
            object["languages"] = .array(device.languages.map { .string($0) })
            object["apnsToken"] = .string(apnsToken)
            object["fcmToken"] = .string(fcmToken)
            object["fid"] = .string(DeviceIdentity.installationID)
            object["fcmProject"] = .optionalString(device.profile?.fcmProject ?? registration.fcmProject)
            object["apnsEnvironment"] = .string(device.validationContext.apnsEnvironment.rawValue)
            object["pushToStartToken"] = .string(ActivityBook.pushToStartToken)
            object["topics"] = .array(
                topics.map {
                    .object(JSONObject([("topic", .string($0.topic)), ("by", .string($0.by)), ("at", $0.at.map { .string(date($0)) } ?? .null)]))
                })
            io.out(JSONWriter.compact(.object(object)))
            return
        }
        io.out(
            TerminalText.sanitize(
                "app profile             \(device.profile.map { "\($0.name) (\($0.bundleID ?? "no bundle id")) in \($0.directory)" } ?? "none")"))
        io.out(TerminalText.sanitize("languages               \(device.languages.joined(separator: ", "))"))
        io.out("APNs device token       \(apnsToken)")
        let environment = device.validationContext.apnsEnvironment
        io.out(
            "APNs environment        \(environment.rawValue) (\(environment == .development ? "an Xcode debug build" : "TestFlight or the App Store")): its token is for \(environment.host); the other host answers 400 BadDeviceToken"
        )
        io.out("FCM registration token  \(fcmToken)")
        io.out("Firebase installation   \(DeviceIdentity.installationID)")
        let project =
            device.profile?.fcmProject.map { "\($0) (the app profile's fcmProject)" }
            ?? registration.fcmProject.map { "\($0) (the first project that sent to it)" }
            ?? "none yet: the first project that sends becomes the device's; another's messages to its token get 403 SENDER_ID_MISMATCH"
        io.out(TerminalText.sanitize("Firebase project        \(project)"))
        io.out("Live Activity push-to-start token  \(ActivityBook.pushToStartToken)")
        io.out(
            "device                  "
                + (registration.offlineSince.map {
                    "offline since \(date($0)): the push service keeps what it accepts (pushbox device online delivers it)"
                } ?? "online"))
        io.out(
            "app                     "
                + (registration.uninstalledAt.map { "uninstalled at \(date($0)): APNs answers 410 Unregistered, FCM 404 UNREGISTERED" } ?? "installed")
        )
        let a = registration.attention
        io.out(
            TerminalText.sanitize(
                "focus                   "
                    + (a.focus.map {
                        "on: allows \($0.allowApps.isEmpty ? "no app" : $0.allowApps.joined(separator: ", "))\($0.allowPeople.isEmpty ? "" : ", people \($0.allowPeople.joined(separator: ", "))")\($0.allowTimeSensitive ? " and time-sensitive notifications" : "")"
                    } ?? "off")))
        io.out(
            "scheduled summary       "
                + (a.summaryTimes.map { "the app is in it, at \($0.joined(separator: ", "))" } ?? "off (the app delivers immediately)"))
        io.out("previews                \(a.previews.rawValue)")
        io.out("ring switch             \(a.silent ? "silent" : "ring")")
        for (token, at) in registration.unregistered.sorted(by: { $0.key < $1.key }) {
            io.out("unregistered            \(TerminalText.sanitize(token)) since \(date(at))")
        }
        for (token, at) in registration.registered.sorted(by: { $0.key < $1.key }) {
            io.out("registered              \(TerminalText.sanitize(token)) since \(date(at))")
        }
        for t in topics {
            let by = t.givenBy
            io.out(
                "topic                   \(t.topic.padding(toLength: 16, withPad: " ", startingAt: 0)) \(by)\(t.at.map { " at \(date($0))" } ?? "")")
        }
        for (topic, change) in registration.unsubscribed.sorted(by: { $0.key < $1.key }) {
            io.out(
                "unsubscribed            \(topic.padding(toLength: 16, withPad: " ", startingAt: 0)) \(change.by == "api" ? "through FCM's API" : "by the app") at \(date(change.at))"
            )
        }
    }
}
