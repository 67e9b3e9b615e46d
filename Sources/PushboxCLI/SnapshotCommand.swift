import Foundation
import PushboxDevice
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxStore
import PushboxUI

/// `pushbox snapshot`: notifications as golden files — the card as the inbox draws it, the
/// preview's truncation and the findings as text, the rendered fields as a JSON sidecar — one
/// pair per (payload, language, platform), recorded once and verified on every change.
enum SnapshotCommand {
    static let spec = CommandSpec(
        name: "snapshot",
        summary:
            "Golden files of notifications: for each payload × language × platform, the card as the inbox draws it (plain text), the preview's truncation and the findings, and a JSON sidecar of the rendered fields. Verifies by default (a unified diff per changed file, exit 1 on any difference, missing or extra golden); --record writes them.",
        operands: "PAYLOAD…|PAYLOAD_DIR",
        options: [
            Options.golden, Options.record, Options.png, Options.app, Options.lang, Options.allLanguages, Options.platform,
            Options.width, Options.previewProfile, Options.junit, Options.fromInbox, Options.database, Options.noExtension,
        ],
        run: run)

    /// One golden pair's name and contents.
    struct Golden {
        var name: String
        var text: String
        var json: String
        /// The card for its picture (`--png`).
        var card: CardPictures.Card
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard let folder = args.value(Options.golden) else {
            io.err("pushbox snapshot: --golden DIR is required")
            return 2
        }
        let goldens: [Golden]
        do { goldens = try make(args, io) } catch {
            io.err("pushbox snapshot: \(error)")
            return 2
        }
        var pictures: [[UInt8]]? = nil
        if args.flag(Options.png) {
            if let chromium = CardPictures.browser(io.environment) {
                do { pictures = try CardPictures.draw(goldens.map(\.card), with: chromium) } catch {
                    io.err("pushbox snapshot: --png: \(error)")
                    return 2
                }
            } else {
                io.err(
                    "pushbox snapshot: --png needs Chromium (Debian's chromium package, or PUSHBOX_CHROMIUM=PATH): no picture drawn or verified")
            }
        }
        if args.flag(Options.record) { return record(goldens, pictures: pictures, folder: folder, io: &io) }
        return verify(goldens, pictures: pictures, folder: folder, args: args, io: &io)
    }

    /// Every golden pair the arguments ask for.
    static func make(_ args: ParsedArguments, _ io: CommandIO) throws -> [Golden] {
        let device = try Device.from(args, defaultApp: true, io: io)
        let base = try device.renderer(args, io: io)
        let width = try args.wholeNumber(Options.width, minimum: 24) ?? 44
        let profileName = args.value(Options.previewProfile) ?? PreviewProfile.lockScreen.name
        guard let profile = PreviewProfile.named(profileName) else {
            throw UsageError(message: "--profile \(profileName): banner, lock-screen or expanded")
        }
        var languages = device.languages
        if args.flag(Options.allLanguages) {
            languages = device.profile.map { Completions.languages(Device(profile: $0, languages: [])) } ?? languages
        }
        let platform = try RenderCommand.Platform.asked(args)
        let inputs = try payloads(args, io)
        var out: [Golden] = []
        // A phone of the goldens' own (installed, online, no activities), so they do not depend on an inbox.
        let phone = device.phone(database: nil)
        for (name, raw) in inputs {
            let isFCM = raw.isFCMMessage
            let judged = phone.judge(raw, mode: .dryRun)
            let phones: [String] = {
                switch RenderCommand.Platform.shown(platform, isFCM: isFCM) {
                case .ios: ["ios"]
                case .android: ["android"]
                case .both: isFCM ? ["ios", "android"] : ["ios"]
                }
            }()
            for language in languages {
                var renderer = base
                renderer.preferredLanguages = [language]
                let note = renderer.render(raw, validated: judged.report).judged(under: profile)
                for phone in phones {
                    out.append(
                        golden(
                            note, payload: name, language: language, phone: phone, width: width, profile: profile,
                            appName: device.profile?.name ?? "pushbox"))
                }
            }
        }
        return out
    }

    /// The payloads: files and folders named, or the inbox's notifications (`--from-inbox`).
    static func payloads(_ args: ParsedArguments, _ io: CommandIO) throws -> [(String, RawPayload)] {
        if args.flag(Options.fromInbox) {
            let store = try IntakeOptions.openStore(args, io, existing: true)
            return try store.history().enumerated().map { i, n in (String(format: "inbox-%03d", i + 1), n.rawPayload) }
        }
        guard !args.operands.isEmpty else { throw UsageError(message: "give payload files or folders (or --from-inbox)") }
        var files: [String] = []
        for operand in args.operands {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: operand, isDirectory: &isDir), isDir.boolValue {
                files += try PayloadFile.paths(in: operand)
            } else {
                files.append(operand)
            }
        }
        return try files.map { path in
            guard let raw = PayloadFile.read(path, source: .commandLine) else { throw UsageError(message: "\(path): cannot be read") }
            return (((path as NSString).lastPathComponent as NSString).deletingPathExtension, raw)
        }
    }

    /// The text and JSON of one rendering on one phone: stable key order, no times, the payload's
    /// and attachments' paths reduced to their names.
    static func golden(
        _ n: RenderedNotification, payload: String, language: String, phone: String, width: Int, profile: PreviewProfile, appName: String
    )
        -> Golden
    {
        let android = phone == "android"
        let card = CardPictures.Card(
            phone: phone, language: language, app: appName, profile: profile, rendering: android ? n.android?.json ?? .null : n.json)
        var lines = ["\(payload) · \(phone) · \(language) · \(profile.name) · \(width) columns", ""]
        lines += InboxView.cardText(n, appName: appName, language: language, width: width, preview: nil, android: android)
        lines.append("")
        if android {
            // The preview profiles are iPhone's: an Android card is not judged by them.
            lines.append("preview: not judged (pushbox's preview profiles are iPhone's)")
        } else {
            lines.append("preview \(profile.summary):")
            let cuts = profile.cuts(n, language: n.language)
            lines += cuts.isEmpty ? ["  (nothing cut)"] : cuts.map { "  ! " + $0 }
        }
        let findings = android ? n.android?.warnings ?? [] : n.warnings
        lines.append("findings:")
        lines += findings.isEmpty ? ["  (none)"] : findings.map { "  \($0.severity.rawValue) [\($0.code)] \(TerminalText.sanitize($0.message))" }
        var object: JSONObject
        if android, let a = n.android {
            object = a.json.objectValue ?? JSONObject()
        } else {
            object = n.json.objectValue ?? JSONObject()
            object["android"] = nil
        }
        object["trace"] = nil  // durations change from run to run
        // The payload's file by its name in the folder given (snapshot reads a folder's top
        // level): goldens recorded on a laptop verify on CI, from any folder and working directory.
        if let file = object["file"]?.stringValue { object["file"] = .string((file as NSString).lastPathComponent) }
        if case .array(let items)? = object["attachments"] {
            object["attachments"] = .array(items.map(relativePath))
        }
        if let image = object["imageAttachment"] { object["imageAttachment"] = relativePath(image) }
        object.entries.insert(("languageRequested", .string(language)), at: 0)
        let safe = language.replacingOccurrences(of: "/", with: "_")
        return Golden(
            name: "\(payload).\(phone).\(safe)", text: lines.joined(separator: "\n") + "\n", json: JSONWriter.pretty(.object(object)) + "\n",
            card: card)
    }

    static func relativePath(_ value: JSONValue) -> JSONValue {
        guard var o = value.objectValue, let path = o["path"]?.stringValue else { return value }
        o["path"] = .string((path as NSString).lastPathComponent)
        o["fromCache"] = nil  // the second run reads what the first downloaded
        return .object(o)
    }

    static func record(_ goldens: [Golden], pictures: [[UInt8]]?, folder: String, io: inout CommandIO) -> Int32 {
        var changed = 0
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (i, g) in goldens.enumerated() {
                for (ext, content) in [("txt", g.text), ("json", g.json)] {
                    let path = "\(folder)/\(g.name).\(ext)"
                    if (try? String(contentsOfFile: path, encoding: .utf8)) != content {
                        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
                        changed += 1
                    }
                }
                // A picture within the tolerance of the one recorded is kept: no churn from a shade.
                if let png = pictures?[i], pictureDifference(png, recordedAt: "\(folder)/\(g.name).png")?.within(CardPictures.tolerance) != true {
                    try Data(png).write(to: URL(fileURLWithPath: "\(folder)/\(g.name).png"))
                    changed += 1
                }
            }
        } catch {
            io.err("pushbox snapshot: cannot write \(folder): \(FileErrorText.describe(error))")
            return 1
        }
        io.out("recorded \(goldens.count * (pictures == nil ? 2 : 3)) file(s) in \(folder), \(changed) changed")
        return 0
    }

    /// How a drawn picture differs from the PNG recorded at `path`; nil when there is none.
    static func pictureDifference(_ png: [UInt8], recordedAt path: String) -> Picture.Difference? {
        guard let recorded = FileManager.default.contents(atPath: path).flatMap({ Picture(png: Array($0)) }), let now = Picture(png: png) else {
            return nil
        }
        return now.difference(from: recorded)
    }

    static func verify(_ goldens: [Golden], pictures: [[UInt8]]?, folder: String, args: ParsedArguments, io: inout CommandIO) -> Int32 {
        var cases: [(name: String, failure: String?)] = []
        var expected: Set<String> = []
        var drawnFolder: String? = nil
        for (i, g) in goldens.enumerated() {
            if let png = pictures?[i] {
                let file = "\(g.name).png"
                expected.insert(file)
                let difference = pictureDifference(png, recordedAt: "\(folder)/\(file)")
                if difference?.within(CardPictures.tolerance) == true {
                    cases.append((file, nil))
                } else {
                    // The picture drawn now, where a reviewer can open it beside the recorded one (under TMPDIR).
                    let temporary = io.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.temporaryDirectory.path
                    let now = drawnFolder ?? (temporary as NSString).appendingPathComponent("pushbox-snapshot-\(UUID().uuidString)")
                    drawnFolder = now
                    try? FileManager.default.createDirectory(atPath: now, withIntermediateDirectories: true)
                    try? Data(png).write(to: URL(fileURLWithPath: "\(now)/\(file)"))
                    let why =
                        difference.map {
                            $0.sameSize
                                ? String(format: "%.2f%% of its pixels differ (tolerance %.1f%%)", $0.fraction * 100, CardPictures.tolerance * 100)
                                : "its size differs"
                        } ?? "no picture is recorded (run pushbox snapshot --png --record)"
                    cases.append((file, "\(folder)/\(file): \(why); the picture drawn now is \(now)/\(file)"))
                }
            }
            for (ext, content) in [("txt", g.text), ("json", g.json)] {
                let file = "\(g.name).\(ext)"
                expected.insert(file)
                let path = "\(folder)/\(file)"
                guard let golden = try? String(contentsOfFile: path, encoding: .utf8) else {
                    cases.append((file, "missing golden \(path): run pushbox snapshot --record"))
                    continue
                }
                if golden == content {
                    cases.append((file, nil))
                } else {
                    cases.append((file, UnifiedDiff.make(golden, content, from: path, to: path + " (now)")))
                }
            }
        }
        // Pictures are checked only when drawn (--png and Chromium): a text-only run leaves them be.
        let present = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasSuffix(".txt") || $0.hasSuffix(".json") || (pictures != nil && $0.hasSuffix(".png"))
        }
        for extra in present.sorted() where !expected.contains(extra) {
            cases.append((extra, "golden \(folder)/\(extra) has no payload: remove it, or give its payload"))
        }
        for c in cases where c.failure != nil { io.out(TerminalText.sanitize(c.failure!, keepNewlines: true)) }
        let failed = cases.filter { $0.failure != nil }.count
        io.out(
            "\(cases.count - failed) of \(cases.count) golden file(s) match\(failed == 0 ? "" : "; \(failed) differ, are missing or have no payload")"
        )
        if let junit = args.value(Options.junit) {
            do { try Data(JUnitReport.xml(cases).utf8).write(to: URL(fileURLWithPath: junit)) } catch {
                io.err("pushbox snapshot: cannot write \(junit): \(FileErrorText.describe(error))")
                return 1
            }
        }
        return failed == 0 ? 0 : 1
    }
}
