import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering

/// Checks payloads against the app's localizations: every `*-loc-key` they use must exist in
/// the development language (else every device shows the raw key), `*-loc-args` must fill the
/// string's arguments, and a literal field beside its loc-key is ignored by devices.
public struct PayloadKeyLinter {
    /// The app's localizations.
    public let app: AppLocalizations
    /// The table the keys are looked up in.
    public let table: String

    /// The app's capabilities (`pushbox.json`); nil: not judged.
    public var capabilities: Set<AppCapability>?
    /// Whether the app's extension donates a communication intent (a `communicate` step).
    public var communicates = true

    /// Checks payloads' keys against `table` of `app`.
    public init(app: AppLocalizations, table: String = "Localizable") {
        self.app = app
        self.table = table
    }

    /// The same linter judging also what the payloads ask of iOS against `profile`'s
    /// capabilities and extension.
    public init(app: AppLocalizations, table: String = "Localizable", profile: AppProfile) {
        self.init(app: app, table: table)
        capabilities = profile.capabilities
        communicates = profile.recipe?.communicateStep != nil
    }

    /// Validation's findings about what the app may ask of iOS: a critical alert without the
    /// entitlement, time-sensitive without the capability, a sound's volume outside 0–1, the
    /// summary arguments iOS ignores.
    static let presentationCodes: Set<Diagnostic.Code> = [.criticalAlertEntitlement, .timeSensitiveCapability, .soundType, .summaryArgIgnored]

    /// Top-level keys a chat backend names its sender with: with one, and no `communicate`
    /// step, the notification cannot become a communication notification.
    static let senderKeys = ["sender", "from", "author"]

    /// Lints the `.json` and `.apns` files at the top of a folder (headers from `NAME.headers`).
    public func lint(folder: String) -> [LintFinding] {
        let paths: [String]
        do { paths = try PayloadFile.paths(in: folder) } catch {
            return [LintFinding(.error, .unreadable, file: folder, message: "cannot read the folder: \(FileErrorText.describe(error))")]
        }
        var findings: [LintFinding] = []
        for path in paths {
            guard let raw = PayloadFile.read(path, source: .commandLine) else {
                findings.append(LintFinding(.error, .unreadable, file: path, message: "cannot be read"))
                continue
            }
            findings += lint(raw, text: String(decoding: raw.bytes, as: UTF8.self), file: path)
        }
        return findings
    }

    func lint(_ raw: RawPayload, text: String, file: String) -> [LintFinding] {
        var context = ValidationContext()
        context.capabilities = capabilities
        let report = Validator.validate(raw, context: context)
        guard let validated = report.validated else {
            guard let r = report.rejection else { return [] }
            return [LintFinding(.warning, .payloadRejected, file: file, message: "\(r.status) \(r.reason): \(r.detail); its keys are not checked")]
        }
        var findings = report.warnings.filter { Self.presentationCodes.contains($0.code) }.map { w in
            LintFinding(w, file: file, line: w.field.flatMap { $0.split(separator: ".").last }.flatMap { Self.line(of: "\"\($0)\"", in: text) })
        }
        if !communicates, validated.aps["mutable-content"]?.intValue == 1,
            let key = Self.senderKeys.first(where: { validated.payload[$0] != nil })
        {
            findings.append(
                LintFinding(
                    .warning, .communicationNoIntent, file: file, line: Self.line(of: "\"\(key)\"", in: text),
                    message:
                        "the payload names its sender (\(key)) but the app's extension has no communicate step: no INSendMessageIntent is donated, so iOS shows an ordinary notification (the app's icon, the payload's title)"
                ))
        }
        guard let alert = validated.aps["alert"]?.objectValue else { return findings }
        let dev = LocalizationLinter(app: app, table: table).developmentLocalization
        let devTable = app.table(table, localization: dev)
        for (literal, keyName, argsName) in [
            ("title", "title-loc-key", "title-loc-args"), ("subtitle", "subtitle-loc-key", "subtitle-loc-args"), ("body", "loc-key", "loc-args"),
        ] {
            guard let key = alert[keyName]?.stringValue else { continue }
            let line = Self.line(of: "\"\(keyName)\"", in: text)
            if alert[literal] != nil {
                findings.append(
                    LintFinding(
                        .warning, .literalAndLocKey, file: file, line: line, key: key,
                        message: "\(literal) is set beside \(keyName): devices show the localized \(keyName) and ignore \(literal)"))
            }
            guard let entry = devTable.entries[key] else {
                // A key missing only because its file is broken is that file's error (lint reports
                // it), not a finding of every payload that uses the file.
                if !devTable.errors.isEmpty { continue }
                findings.append(
                    LintFinding(
                        .error, .payloadKeyMissing, file: file, line: line, language: dev, key: key,
                        message: "\(keyName) \"\(key)\" has no entry in \(dev) (\(table)): every device shows the key itself"))
                continue
            }
            let needed = LocalizationLinter.signature(of: entry.value).arguments.keys.max() ?? 0
            let given = alert[argsName]?.arrayValue?.count ?? 0
            if given < needed {
                findings.append(
                    LintFinding(
                        .warning, .payloadArgs, file: file, line: line, language: dev, key: key,
                        message:
                            "\"\(key)\" uses \(needed) argument(s) but \(argsName) gives \(given): the device shows the rest unfilled (undefined)"))
            }
        }
        return findings
    }

    /// The 1-based line where `needle` first occurs in `text`.
    static func line(of needle: String, in text: String) -> Int? {
        guard let range = text.range(of: needle) else { return nil }
        return text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
}
