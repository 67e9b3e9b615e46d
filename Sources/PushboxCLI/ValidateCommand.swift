import PushboxJSON
import PushboxPayload

/// `pushbox validate`: APNs/FCM validation only; exit 0 only when every file passes.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        summary: "Validate payloads as APNs answers them (FCM messages by FCM's rules too). Exit status 0 only if every file passes.",
        operands: "FILE…",
        options: [
            Options.json.with(help: "One JSON object per file per line: file, ok, status, reason, detail, warnings."),
            Options.header.with(help: "An APNs request header, e.g. apns-push-type:background."),
            Options.token,
            Options.app.with(help: "Check apns-topic against this app's bundle id and FCM topics against its subscriptions."),
            Options.lang.with(help: "The device's preferred languages (its FCM language topic follows the first). Default en-US."),
        ],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard !args.operands.isEmpty else {
            io.err("pushbox validate: no files given (use - for stdin); see pushbox validate --help")
            return 2
        }
        let input: PayloadInput
        let device: Device
        do {
            input = try PayloadInput(arguments: args)
            device = try Device.from(args, defaultApp: false, io: io)
        } catch {
            io.err("pushbox validate: \(error)")
            return 2
        }
        var allPassed = true
        for path in args.operands {
            switch input.read(path, io: io) {
            case .failure(let error):
                allPassed = false
                io.err("pushbox validate: \(error.message)")
                if args.flag(Options.json) {
                    io.out(
                        JSONWriter.compact(
                            .object(
                                JSONObject([
                                    ("file", .string(path)), ("ok", false), ("status", .null), ("reason", .null),
                                    ("detail", .string(error.message)), ("warnings", .array([])), ("diagnostics", .array([])),
                                ]))))
                }
            case .success(let raw):
                let report = Validator.validate(raw, context: device.validationContext)
                if !report.ok { allPassed = false }
                if args.flag(Options.json) {
                    io.out(JSONWriter.compact(json(path, report)))
                } else {
                    printText(path, report, &io)
                }
            }
        }
        return allPassed ? 0 : 1
    }

    static func json(_ path: String, _ report: ValidationReport) -> JSONValue {
        var detail: JSONValue = .optionalString(report.rejection?.detail)
        if case .notTargeted(let why) = report.targeting { detail = .string("valid, but not for this device: \(why)") }
        return .object(
            JSONObject([
                ("file", .string(path)),
                ("ok", .bool(report.ok)),
                ("status", .optionalInt(report.status)),
                ("reason", .optionalString(report.rejection?.reason.rawValue)),
                ("detail", detail),
                ("cause", .optionalString(report.rejection?.cause?.rawValue)),
                ("warnings", .array(report.warnings.map { .string($0.message) })),
                ("diagnostics", .array(report.warnings.map(\.json))),
            ]))
    }

    static func printText(_ path: String, _ report: ValidationReport, _ io: inout CommandIO) {
        let name = TerminalText.sanitize(path)
        if let r = report.rejection {
            io.out("\(name): \(r.status) \(r.reason): \(TerminalText.sanitize(r.detail))")
        } else if let v = report.validated {
            var line = "\(name): OK (\(v.form.name), push type \(v.pushType.rawValue))"
            if case .notTargeted(let why) = report.targeting { line += "; not for this device: \(TerminalText.sanitize(why))" }
            io.out(line)
        }
        for w in report.warnings { io.out("  warning: \(TerminalText.sanitize(w.message))") }
    }
}
