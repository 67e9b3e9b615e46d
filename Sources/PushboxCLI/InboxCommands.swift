import Foundation
import PushboxDevice
import PushboxFetch
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore

/// `pushbox list`: the inbox as stored.
enum ListCommand {
    static let spec = CommandSpec(
        name: "list",
        summary:
            "List the inbox, newest first (a collapse id shows only the latest of its notifications; --history shows all). Refused pushes are listed with their reason, too large ones included; a request refused for its credentials or its path never reached the device and is in `pushbox requests` only.",
        options: [
            Options.database,
            Options.json.with(help: "One object per notification per line: id, apnsId, receivedAt, source, title, body, delivered, reason, …"),
            Options.limit,
            Options.history,
            Options.device.with(
                help: "Only what this device of the inbox's fleet got (pushbox device list); phone: the inbox's own. Default: every device."),
            Options.query,
            Options.timeZone.with(
                help: "Show times in ZONE. Default: each notification's time on the device's clock, in the zone the device was in then."),
        ]
            + RenderCommand.deviceOptions + RenderCommand.extensionOptions,
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        do {
            let store = try IntakeOptions.openStore(args, io, existing: true)
            let limit = try args.wholeNumber(Options.limit, minimum: 1)
            let (renderings, phone) = try IntakeOptions.renderings(args, store: store, io: io)
            var items: [StoredNotification]
            let device = args.value(Options.device)
            var query: NotificationQuery?
            if let text = args.value(Options.query) {
                do { query = try NotificationQuery(text) } catch { throw UsageError(message: "--query: \(error)") }
            }
            let fleet = DeviceRegistrationFile(databasePath: store.path).current().devices
            if let device, device != FleetDevice.defaultName, !fleet.contains(where: { $0.name == device }) {
                throw UsageError(message: "no device named \(TerminalText.sanitize(device)) in this inbox (pushbox device list)")
            }
            do {
                // With a query, the limit counts what it matches.
                let read = query == nil ? limit : nil
                items = args.flag(Options.history) ? try store.history(limit: read, device: device) : try store.inbox(limit: read, device: device)
            } catch {
                throw UsageError(message: "\(error)")
            }
            if let query {
                let matcher = QueryMatcher(query, renderings: renderings, registration: DeviceRegistrationFile(databasePath: store.path).current())
                items = items.filter(matcher.matches)
                if let limit { items = Array(items.prefix(limit)) }
            }
            let zone = args.value(Options.timeZone) == nil ? nil : try ClockOptions.timeZone(args)
            let time = DateFormatter()
            time.dateFormat = "yyyy-MM-dd HH:mm:ss"
            let dates = InboxListing.dateFormatter()
            // With a fleet, what went wrong across its devices: on the rows concerned (a miss on its campaign's first row).
            let findings =
                fleet.isEmpty
                ? []
                : FleetFindings.findings(
                    items, members: FleetMember.fleet(DeviceRegistrationFile(databasePath: store.path).current(), languages: phone.languages),
                    rendering: { renderings.shown($0) })
            var findingsOf: [Int64: [FleetFinding]] = [:]
            for f in findings {
                for id in f.ids.isEmpty ? [f.campaign] : f.ids { findingsOf[id, default: []].append(f) }
            }
            for n in items {
                let rendered = n.status == 200 ? renderings.shown(n) : nil
                if args.flag(Options.json) {
                    var row = InboxListing.json(n, rendered: rendered, dates: dates).objectValue ?? JSONObject()
                    if !fleet.isEmpty { row["findings"] = .array((findingsOf[n.id] ?? []).map(\.json)) }
                    io.out(JSONWriter.compact(.object(row)))
                    continue
                }
                // The time the phone showed, in its zone then (or --tz).
                time.timeZone = zone ?? n.deviceTimeZone
                var line = "\(time.string(from: n.deviceTime))  \(n.source.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) "
                // With a fleet, whose phone it reached (the widest name sets the column).
                if !fleet.isEmpty && device == nil {
                    let width = fleet.map(\.name.count).max()! + 1
                    line += (n.device ?? FleetDevice.defaultName).padding(toLength: max(width, 6), withPad: " ", startingAt: 0) + " "
                }
                if let reason = n.reason {
                    line += "\(n.status ?? 0) \(reason)"
                } else {
                    let text = [rendered?.title, rendered?.body].compactMap { $0 }.map { TerminalText.sanitize($0) }.joined(separator: " — ")
                    if rendered?.delivered == .rejected {
                        line += "(not for this device: \(TerminalText.sanitize(rendered?.detail ?? "")))"
                    } else if let rendered, rendered.delivered == .stored || rendered.delivered == .discarded, let would = rendered.intended {
                        let text = [would.title, would.body].compactMap { $0 }.map { TerminalText.sanitize($0) }.joined(separator: " — ")
                        line += "(\(InboxListing.deliveryLog(n, rendered: rendered, now: Date()).last?.event ?? "")) " + text
                    } else {
                        line += text.isEmpty ? "(no alert: a background or badge/sound-only push)" : text
                    }
                }
                io.out(line)
            }
            if items.isEmpty && !args.flag(Options.json) {
                io.err(
                    query == nil
                        ? "pushbox list: the inbox at \(store.path) is empty"
                        : "pushbox list: nothing in the inbox at \(store.path) matches the query")
            }
            if !args.flag(Options.json) {
                for f in findings { io.out(TerminalText.sanitize("finding  \(f.kind.rawValue)  \(f.device): \(f.detail)")) }
            }
            return 0
        } catch {
            io.err("pushbox list: \(error)")
            return 2
        }
    }
}

/// `pushbox replay`: post stored (or saved) payloads again, with their original spacing.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        summary: "Re-deliver stored payloads (or the .json/.apns files of DIR) to a running pushbox, with the original spacing divided by --speed.",
        operands: "[DIR]",
        options: [
            Options.database, Options.socket,
            Options.speed.with(help: "Spacing divided by X; 0 sends as fast as possible. Default 1."),
        ]
            + IntakeOptions.providerOptions,
        run: run)

    // Long on purpose: read the payloads, then send them paced; one screen.
    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let speed: Double
        do { speed = try args.number(Options.speed, in: 0...1_000_000) ?? 1 } catch {
            io.err("pushbox replay: \(error)")
            return 2
        }
        var payloads: [RawPayload] = []
        if let dir = args.operands.first {
            guard args.value(Options.database) == nil else {
                io.err("pushbox replay: give --db or DIR, not both")
                return 2
            }
            let paths: [String]
            do { paths = try PayloadFile.paths(in: dir) } catch {
                io.err("pushbox replay: cannot read the folder \(dir): \(FileErrorText.describe(error))")
                return 2
            }
            for path in paths {
                let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
                guard let raw = PayloadFile.read(path, source: .replay, receivedAt: modified) else {
                    io.err("pushbox replay: cannot read \(TerminalText.sanitize(path)); skipped")
                    continue
                }
                payloads.append(raw)
            }
            payloads.sort { $0.envelope.receivedAt < $1.envelope.receivedAt }
        } else {
            do {
                let stored = try IntakeOptions.openStore(args, io, existing: true).history()
                // Local notifications are not pushes: their schedule makes them again.
                let local = stored.filter { $0.source == .local }.count
                if local > 0 { io.err("pushbox replay: skipping \(local) local notification(s); schedule them again with pushbox schedule") }
                payloads = stored.filter { $0.source != .local }.map(\.rawPayload)
            } catch {
                io.err("pushbox replay: \(error)")
                return 2
            }
        }
        let socket = IntakeOptions.socketPath(args, io)
        let topic: String?
        do { topic = try IntakeOptions.providerTopic(args, io) } catch {
            io.err("pushbox replay: \(error)")
            return 2
        }
        guard let client = UnixHTTPClient(socketPath: socket) else { return 1 }
        var failed = false
        for (i, raw) in payloads.enumerated() {
            if i > 0, speed > 0 {
                let gap = raw.envelope.receivedAt.timeIntervalSince(payloads[i - 1].envelope.receivedAt) / speed
                if gap > 0 { usleep(useconds_t(min(gap, 3600) * 1_000_000)) }
            }
            switch SendCommand.post(raw, client: client, topic: topic, extraHeaders: [(APNsEndpoint.sourceHeader, "replay")]) {
            case .failure(let e):
                io.err("pushbox replay: cannot reach pushbox on \(socket) (\(e)); is `pushbox serve` running?")
                return 1
            case .success(let answer):
                if answer.status != 200 { failed = true }
                io.out("\(TerminalText.sanitize(raw.envelope.fileName ?? "#\(i + 1)")): \(SendCommand.describe(answer))")
            }
        }
        io.err("pushbox replay: \(payloads.count) payload(s) re-delivered")
        return failed ? 1 : 0
    }
}

/// `pushbox export`: the inbox as `.apns` files the Simulator accepts.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        summary:
            "Write the accepted notifications of the inbox as .apns files that Xcode's Simulator accepts as they are (xcrun simctl push, or drag and drop).",
        operands: "DIR",
        options: [
            Options.database,
            Options.app.with(help: "The app whose bundle id goes into \"Simulator Target Bundle\" when a notification has no apns-topic."),
            Options.bundleID,
        ],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard args.operands.count == 1, let dir = args.operands.first else {
            io.err("pushbox export: give one folder to write into; see pushbox export --help")
            return 2
        }
        do {
            let store = try IntakeOptions.openStore(args, io, existing: true)
            let profileBundle = try args.value(Options.app).flatMap { dir throws(UsageError) -> String? in
                do { return try AppProfile.load(directory: dir).bundleID } catch { throw UsageError(message: "--app: \(error)") }
            }
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw UsageError(message: "cannot create the folder \(dir): \(FileErrorText.describe(error))")
            }
            // Without --app, a push with no apns-topic (an FCM message) is for the bundled sample app, as the inbox showed it.
            let defaultBundle =
                ResourceLocator.sampleAppDirectory(environment: io.environment).flatMap { try? AppProfile.load(directory: $0).bundleID }
                ?? "com.example.app"
            var written = 0
            let items: [StoredNotification]
            do { items = try store.history() } catch { throw UsageError(message: "\(error)") }
            let local = items.filter { $0.source == .local }.count
            if local > 0 { io.err("pushbox export: skipping \(local) local notification(s): a .apns file holds a push") }
            for n in items where n.status == 200 && n.source != .local {
                guard let validated = Validator.validate(n.rawPayload).validated else { continue }
                var document = validated.simulatorFile(fallbackBundleID: profileBundle ?? defaultBundle)
                if let bundle = args.value(Options.bundleID) { document[PayloadForm.simulatorTargetKey] = .string(bundle) }
                let text = JSONWriter.pretty(.object(document)) + "\n"
                guard text.utf8.count <= 4096 else {
                    io.err("pushbox export: \(n.apnsID) is \(text.utf8.count) bytes as a .apns file, over the Simulator's 4096; skipped")
                    continue
                }
                let name = String(format: "%04d-%@.apns", n.id, String(n.apnsID.prefix(8)))
                let path = (dir as NSString).appendingPathComponent(name)
                do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                    io.out("wrote \(written) .apns file(s) to \(dir)")
                    io.err("pushbox export: cannot write \(path): \(FileErrorText.describe(error)); stopped")
                    return 1
                }
                written += 1
            }
            io.out("wrote \(written) .apns file(s) to \(dir)")
            return 0
        } catch {
            io.err("pushbox export: \(error)")
            return 2
        }
    }
}
