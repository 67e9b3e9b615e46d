import Foundation
import PushboxCrypto
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxPayload

/// The three kinds of extension step. Each records one trace entry and tells whether it succeeded.
enum ExtensionSteps {
    static func run(
        _ planned: ExtensionRecipe.PlannedStep, attempt: ExtensionAttempt, env: ExtensionEnvironment,
        deadline: ContinuousClock.Instant
    ) -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        let name = planned.step.name
        attempt.update { $0.running.insert(name) }
        let remainingMs = max(0, Int(milliseconds(deadline - start)))
        let (ok, outcome, detail) = perform(planned.step, attempt: attempt, env: env, remainingMs: remainingMs)
        let ms = milliseconds(clock.now - start)
        attempt.update {
            $0.running.remove(name)
            $0.trace.append(
                TraceEntry(
                    step: TraceEntry.Step(rawValue: name), ms: ms, outcome: outcome, cause: detail.cause,
                    detail: (planned.critical ? "critical; " : "optional; ") + detail.text))
        }
        return ok
    }

    /// (succeeded, outcome, detail)
    /// Whether the step may wait on something outside (a download or a file to copy): only an
    /// attach step whose payload has a media URL.
    static func mayWait(_ step: ExtensionRecipe.Step, payload: JSONObject) -> Bool {
        switch step {
        case .attach(let candidates): return candidates.contains { payload.value(atPath: $0)?.stringValue != nil }
        case .communicate(let spec): return spec.avatar.flatMap { payload.value(atPath: $0)?.stringValue } != nil
        default: return false
        }
    }

    static func perform(_ step: ExtensionRecipe.Step, attempt: ExtensionAttempt, env: ExtensionEnvironment, remainingMs: Int) -> (
        Bool, TraceEntry.Outcome, StepNote
    ) {
        switch step {
        case .decrypt(let field, let keyFile, let replaces):
            return decrypt(
                field: field, keyFile: env.keyFile ?? keyFile.map { resolve($0, in: env.appDirectory) }, replaces: replaces, attempt: attempt)
        case .localize(let spec):
            return localize(spec, attempt: attempt, env: env)
        case .attach(let candidates):
            return attach(candidates, attempt: attempt, env: env, remainingMs: remainingMs)
        case .communicate(let spec):
            return communicate(spec, attempt: attempt, env: env, remainingMs: remainingMs)
        }
    }

    static func resolve(_ path: String, in directory: String?) -> String {
        guard !path.hasPrefix("/"), let directory else { return path }
        return (directory as NSString).appendingPathComponent(path)
    }

    static func decrypt(field: String, keyFile: String?, replaces: [String]?, attempt: ExtensionAttempt) -> (Bool, TraceEntry.Outcome, StepNote) {
        let payload = attempt.read().payload
        guard let value = payload.value(atPath: field) else { return (true, .skipped, "the payload has no \(field)") }
        guard let text = value.stringValue else {
            return (false, .failed, StepNote("\(field) is \(value.typeDescription), not a base64 string", cause: .badValue))
        }
        guard let keyFile else { return (false, .failed, StepNote("no key: give --key FILE or keyFile in the recipe", cause: .noKey)) }
        do {
            let key = try KeyFile.load(keyFile)
            guard let combined = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw CryptoError.badBase64(field)
            }
            let plaintext = try AESGCM.open(Array(combined), key: key)
            guard let object = (try? JSONParser.parse(plaintext))?.objectValue else {
                return (false, .failed, StepNote("the plaintext of \(field) is not a JSON object", cause: .badValue))
            }
            var replaced: [String] = []
            attempt.update { state in
                for (k, v) in object.entries where replaces?.contains(k) ?? true {
                    let s = v.stringValue
                    switch k {
                    case "title":
                        state.content.title = s
                        replaced.append(k)
                    case "subtitle":
                        state.content.subtitle = s
                        replaced.append(k)
                    case "body":
                        state.content.body = s
                        replaced.append(k)
                    default:
                        state.payload[k] = v
                        replaced.append(k)
                    }
                }
            }
            return (
                true, .ok,
                "decrypted \(field) (\(plaintext.count) bytes) with \((keyFile as NSString).lastPathComponent); replaced \(replaced.isEmpty ? "nothing" : replaced.joined(separator: ", "))"
            )
        } catch let error as CryptoError {
            return (false, .failed, StepNote("\(field): \(error)", cause: error.traceCause))
        } catch {
            return (false, .failed, "\(field): \(error)")
        }
    }

    static func localize(_ spec: ExtensionRecipe.LocalizeStep, attempt: ExtensionAttempt, env: ExtensionEnvironment) -> (
        Bool, TraceEntry.Outcome, StepNote
    ) {
        let payload = attempt.read().payload
        guard let localizer = env.localizer else { return (true, .skipped, "no app localizations to look the keys up in") }
        var done: [String] = []
        var missing: [String] = []
        var warnings: [Diagnostic] = []
        var content = attempt.read().content
        func args(_ path: String?) -> [String] {
            guard let path else { return [] }
            guard let array = payload.value(atPath: path)?.arrayValue else {
                if payload.value(atPath: path) != nil {
                    warnings.append(Diagnostic(.argsNotArray, "\(path) is not an array; no arguments used", field: path))
                }
                return []
            }
            return array.map { $0.stringValue ?? JSONWriter.compact($0) }
        }
        for (field, keyPath, argPath) in [
            ("title", spec.titleKey, spec.titleArgs ?? spec.args), ("subtitle", spec.subtitleKey, spec.subtitleArgs ?? spec.args),
            ("body", spec.bodyKey, spec.bodyArgs ?? spec.args),
        ] {
            guard let keyPath, let key = payload.value(atPath: keyPath)?.stringValue else { continue }
            let result = localizer.localize(key, args: args(argPath), preferred: env.preferredLanguages)
            warnings += result.warnings
            if result.found { done.append("\(field) ← \(key)") } else { missing.append(key) }
            switch field {
            case "title": content.title = result.text
            case "subtitle": content.subtitle = result.text
            default: content.body = result.text
            }
        }
        if done.isEmpty && missing.isEmpty { return (true, .skipped, "none of the recipe's key paths is in the payload") }
        attempt.update {
            $0.content = content
            $0.warnings += warnings
        }
        let language = localizer.resolve(env.preferredLanguages).language
        let found = done.isEmpty ? [] : [done.joined(separator: ", ")]
        let shownAsKeys = missing.isEmpty ? [] : ["missing (shown as the key): \(missing.joined(separator: ", "))"]
        return (true, missing.isEmpty ? .ok : .missingKeys, "in \(language): \((found + shownAsKeys).joined(separator: "; "))")
    }

    static func attach(_ candidates: [String], attempt: ExtensionAttempt, env: ExtensionEnvironment, remainingMs: Int) -> (
        Bool, TraceEntry.Outcome, StepNote
    ) {
        let payload = attempt.read().payload
        guard let (path, value) = candidates.lazy.compactMap({ p in payload.value(atPath: p)?.stringValue.map { (p, $0) } }).first else {
            return (true, .skipped, "no media URL at \(candidates.joined(separator: ", "))")
        }
        guard let fetcher = env.fetcher else { return (false, .failed, "attachments are not fetched in this run") }
        var url = value
        if URL(string: value)?.scheme == nil, let dir = env.payloadDirectory {
            url = URL(fileURLWithPath: (dir as NSString).appendingPathComponent(value)).absoluteString
            attempt.update {
                $0.warnings.append(
                    Diagnostic(
                        .mediaUrlNoScheme,
                        "\(path) \"\(value)\" has no scheme; pushbox reads it beside the payload file, but a device needs an absolute URL",
                        field: path))
            }
        }
        switch fetcher.fetch(url, timeoutMs: remainingMs, cancel: attempt.cancel) {
        case .success(let a):
            attempt.update {
                $0.attachments.append(a)
                $0.warnings += a.warnings.map { Diagnostic(.attachment, $0, field: path) }
            }
            let size = a.width.map { " \($0)×\(a.height ?? 0)" } ?? ""
            return (
                true, .ok,
                "\(path): \(a.type.mime), \(a.bytes) bytes\(size)\(a.fromCache ? ", from the cache" : "") → \((a.path as NSString).lastPathComponent)"
            )
        case .failure(let failure):
            let outcome: TraceEntry.Outcome
            switch failure {
            case .download(.cancelled): outcome = .cancelled
            case .download(.timedOut):
                outcome = .timeout
                attempt.update { $0.cutByBudget.insert("attach") }
            case .unsupported, .corrupt, .tooLarge: outcome = .dropped
            case .cacheUnwritable(let why):
                // Not the payload's fault and easy to miss in the trace: said as a warning too.
                outcome = .failed
                attempt.update {
                    $0.warnings.append(Diagnostic(.attachmentCache, "\(why); the notification is shown without its attachment", field: path))
                }
            default: outcome = .failed
            }
            // Said where people look (the card, render's text) as well as in the trace.
            if case .cacheUnwritable = failure {
            } else {
                attempt.update { $0.warnings.append(Diagnostic(.attachment, "\(path) not attached: \(failure)", field: path)) }
            }
            return (false, outcome, "\(path) \(value): \(failure)")
        }
    }
}

extension ExtensionSteps {
    /// The communication step (Apple, "Implementing communication notifications"): an
    /// `INSendMessageIntent` from the payload's sender, group and avatar, donated, and the content
    /// updated from it — the sender as the title, the group as the subtitle, the avatar badged
    /// with the app's icon. Without the Communication Notifications capability the notification
    /// stays as it was (home-assistant/iOS #5570); an avatar from a `file://` URL does not persist
    /// (use image data); an avatar download the budget cuts leaves the intent undonated
    /// (bluesky-social/social-app #10326); a group name for a one-to-one conversation is a mistake.
    static func communicate(_ spec: ExtensionRecipe.CommunicateStep, attempt: ExtensionAttempt, env: ExtensionEnvironment, remainingMs: Int) -> (
        Bool, TraceEntry.Outcome, StepNote
    ) {
        let payload = attempt.read().payload
        func text(_ path: String?) -> String? {
            guard let path, let value = payload.value(atPath: path) else { return nil }
            return value.stringValue ?? value.intValue.map(String.init)
        }
        guard let sender = text(spec.sender), !sender.isEmpty else { return (true, .skipped, "no sender at \(spec.sender)") }
        if let capabilities = env.capabilities, !capabilities.contains(.communicationNotifications) {
            attempt.update {
                $0.warnings.append(
                    Diagnostic(
                        .communicationCapability,
                        "the extension donates a communication intent, but pushbox.json's capabilities lack communication-notifications: iOS shows the notification as it was, without the sender's avatar",
                        field: spec.sender))
            }
            return (false, .failed, "the app lacks the Communication Notifications capability: the content stays as it was")
        }
        var communication = Communication(sender: sender, handle: text(spec.handle), group: text(spec.group), conversation: text(spec.conversation))
        var warnings: [Diagnostic] = []
        if communication.group != nil, let path = spec.recipients, let value = payload.value(atPath: path),
            let count = value.arrayValue?.count ?? value.intValue, count <= 1
        {
            warnings.append(
                Diagnostic(
                    .communicationGroupOneToOne,
                    "a group name (speakableGroupName) for a conversation with \(count) recipient: iOS shows it as a group's; leave it out for one-to-one",
                    field: spec.group))
        }
        if text(spec.direction)?.lowercased() == "outgoing" {
            // Apple's guide donates a received message (INInteraction.direction .incoming).
            communication.direction = "outgoing"
            warnings.append(
                Diagnostic(
                    .communicationOutgoing,
                    "the payload marks the message outgoing (the user's own, sent from another device): Apple's guide donates received messages as incoming; what iOS shows for an outgoing interaction is unconfirmed — pushbox updates the content as for an incoming one",
                    field: spec.direction))
        }
        var notes = ["from \(sender)" + (communication.group.map { " in \($0)" } ?? "")]
        var avatar: FetchedAttachment? = nil
        if let path = spec.avatar, let url = text(path) {
            let scheme = URL(string: url)?.scheme?.lowercased()
            if scheme == "http" || scheme == "https" {
                guard let fetcher = env.fetcher else { return (false, .failed, "avatars are not fetched in this run") }
                switch fetcher.fetch(url, timeoutMs: remainingMs, cancel: attempt.cancel) {
                case .success(let a):
                    avatar = a
                    notes.append("avatar \(a.width.map { "\($0)×\(a.height ?? 0)" } ?? a.type.mime)")
                case .failure(.download(.timedOut)):
                    attempt.update {
                        $0.cutByBudget.insert("communicate")
                        $0.warnings.append(
                            Diagnostic(
                                .communicationAvatarFailed,
                                "the avatar \(url) was still downloading when the extension's time ran out: the intent was never donated, so the notification is no communication notification",
                                field: path))
                    }
                    return (false, .timeout, "the avatar download outlived the extension's budget; no intent donated")
                case .failure(let failure):
                    warnings.append(
                        Diagnostic(.communicationAvatarFailed, "the avatar \(url) could not be had (\(failure)): shown without it", field: path))
                    notes.append("no avatar")
                }
            } else {
                warnings.append(
                    Diagnostic(
                        .communicationAvatarFileURL,
                        "the avatar is \(url): an INImage made from a file URL does not persist once the extension ends; give it the image's data",
                        field: path))
                notes.append("no avatar (a file URL)")
            }
        }
        communication.avatar = nil
        let donated = communication
        attempt.update {
            $0.communication = donated
            $0.avatar = avatar
            $0.content.title = donated.sender
            if let group = donated.group { $0.content.subtitle = group }
            $0.warnings += warnings
        }
        return (true, .ok, "INSendMessageIntent donated, content updated from it: \(notes.joined(separator: ", "))")
    }
}

/// A step's sentence and, when the outcome alone does not say why, its cause; a plain string
/// literal is a sentence without one.
struct StepNote: ExpressibleByStringInterpolation, Sendable {
    /// The sentence.
    var text: String
    /// Why, as a code.
    var cause: TraceEntry.Cause?

    init(_ text: String, cause: TraceEntry.Cause?) {
        self.text = text
        self.cause = cause
    }

    init(stringLiteral value: String) { self.init(value, cause: nil) }

    init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation), cause: nil) }
}

extension CryptoError {
    /// The trace's cause for this failure.
    var traceCause: TraceEntry.Cause {
        switch self {
        case .badBase64: return .badBase64
        case .truncated: return .truncated
        case .authenticationFailed: return .authenticationFailed
        case .keyLength: return .keyLength
        case .keyFilePermissions: return .keyFilePermissions
        case .keyFileUnreadable: return .keyFileUnreadable
        case .openssl: return .openssl
        }
    }
}
