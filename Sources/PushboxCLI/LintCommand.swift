import Foundation
import PushboxJSON
import PushboxLint
import PushboxLocalization
import PushboxPayload

/// `pushbox lint`: localization problems in an app, and in the payloads that use it.
enum LintCommand {
    static let spec = CommandSpec(
        name: "lint",
        summary:
            "Find localization problems: broken files, missing keys per language, specifier mismatches, skipped arguments, missing plural categories, unfinished units, payload keys with no entry. Exit status 1 when there are errors.",
        options: [
            Options.app.with(help: "The app folder. Default: the bundled sample app."),
            Options.payloads,
            Options.table,
            Options.json.with(help: "One JSON object per finding per line."),
        ],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        if !args.operands.isEmpty {
            io.err("pushbox lint: unexpected \(args.operands[0]); give the folders with --app and --payloads")
            return 2
        }
        let device: Device
        do { device = try Device.from(args, defaultApp: true, io: io) } catch {
            io.err("pushbox lint: \(error)")
            return 2
        }
        guard let profile = device.profile else {
            io.err("pushbox lint: no app folder; pass --app DIR")
            return 2
        }
        let table = args.value(Options.table) ?? "Localizable"
        let app = AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)
        var findings = LocalizationLinter(app: app, table: table).lint()
        // The categories' summary formats and placeholders, and what the profile says iOS presents.
        findings += CategoryLinter(profile: profile, app: app, table: table).lint()
        if let payloads = args.value(Options.payloads) {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: payloads, isDirectory: &isDir), isDir.boolValue else {
                io.err("pushbox lint: --payloads \(payloads): no such folder")
                return 2
            }
            findings += PayloadKeyLinter(app: app, table: table, profile: profile).lint(folder: payloads)
        }
        // The Android build beside the iOS one: its strings.xml, and the payloads' keys on both.
        var androidFolders: [String]?
        if let res = profile.android.resources ?? AndroidResources.find(in: profile.directory) {
            let resources = AndroidResources(res: res)
            let android = AndroidLinter(resources: resources, ios: app, table: table)
            findings += android.lint()
            if let payloads = args.value(Options.payloads) { findings += android.lint(folder: payloads) }
            androidFolders = resources.folders.keys.map(\.name).sorted()
        }
        if args.flag(Options.json) {
            for f in findings { io.out(JSONWriter.compact(json(f))) }
        } else {
            printText(findings, app: app, table: table, androidFolders: androidFolders, io: &io)
        }
        return findings.contains { $0.severity == .error } ? 1 : 0
    }

    static func json(_ f: LintFinding) -> JSONValue {
        .object(
            JSONObject([
                ("severity", .string(f.severity.rawValue)), ("code", .string(f.code.rawValue)), ("file", .string(f.file)),
                ("line", .optionalInt(f.line)), ("language", .optionalString(f.language)), ("key", .optionalString(f.key)),
                ("message", .string(f.message)),
            ]))
    }

    /// Findings grouped by file, each with its line, then a count.
    static func printText(_ findings: [LintFinding], app: AppLocalizations, table: String, androidFolders: [String]?, io: inout CommandIO) {
        let languages = app.localizations(table: table)
        guard !findings.isEmpty else {
            io.out("\(table): no problems in \(languages.count) localization(s) (\(languages.joined(separator: ", ")))")
            if let folders = androidFolders { io.out("strings.xml: no problems in \(folders.count) folder(s) (\(folders.joined(separator: ", ")))") }
            return
        }
        var order: [String] = []
        var byFile: [String: [LintFinding]] = [:]
        for f in findings {
            if byFile[f.file] == nil { order.append(f.file) }
            byFile[f.file, default: []].append(f)
        }
        for file in order {
            io.out(TerminalText.sanitize(file))
            for f in byFile[file, default: []].sorted(by: { ($0.line ?? 0) < ($1.line ?? 0) }) {
                let location = f.line.map { "\(file):\($0)" } ?? file
                io.out("  \(TerminalText.sanitize(location)): \(f.severity.rawValue) [\(f.code)] \(TerminalText.sanitize(f.message))")
            }
        }
        let errors = findings.filter { $0.severity == .error }.count
        io.out("\(errors) error(s) and \(findings.count - errors) warning(s) in \(order.count) file(s)")
    }
}
