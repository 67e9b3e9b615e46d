import Foundation
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxPayload

/// Turns a payload into the notification the device shows.
///
/// Validation, FCM targeting, what the system shows (title, subtitle and body, each the
/// localized `*-loc-key` with its args when one is given; a string alert is the body), then the
/// service extension when iOS would run it, and the category's actions.
public struct Renderer: Sendable {
    /// What validation knows about the device and app (bundle id, topics).
    public var context: ValidationContext
    /// The device's preferred languages, most preferred first.
    public var preferredLanguages: [String]
    /// The app's localizations; without one, a `*-loc-key` shows as the key itself.
    public var localizer: Localizer?
    /// The app's categories, for action buttons.
    public var categories: [NotificationCategory]
    /// How the service extension runs; nil to never run it.
    public var extensionSetup: ExtensionSetup?
    /// How an FCM message shows on Android (the app's `strings.xml` and `android` profile).
    public var android: AndroidRenderer?

    /// The parts of the extension's environment that do not change between payloads.
    public struct ExtensionSetup: Sendable {
        /// The extension's steps, time limit and fallback.
        public var recipe: ExtensionRecipe
        /// Where attachments are downloaded to and read from.
        public var fetcher: AttachmentFetcher
        /// The app's folder, for attachments named inside it.
        public var appDirectory: String?
        /// The AES-GCM key the extension decrypts with.
        public var keyFile: String?

        /// What the extension runs with: its recipe, where attachments come from, and its key.
        public init(recipe: ExtensionRecipe, fetcher: AttachmentFetcher, appDirectory: String?, keyFile: String?) {
            self.recipe = recipe
            self.fetcher = fetcher
            self.appDirectory = appDirectory
            self.keyFile = keyFile
        }
    }

    /// A renderer for one device: its app's context, languages, localizations, categories and extension.
    public init(
        context: ValidationContext, preferredLanguages: [String], localizer: Localizer? = nil,
        categories: [NotificationCategory] = [], extensionSetup: ExtensionSetup? = nil
    ) {
        self.context = context
        self.preferredLanguages = preferredLanguages
        self.localizer = localizer
        self.categories = categories
        self.extensionSetup = extensionSetup
    }

    /// Android's image download: the extension's fetcher with the SDK's 5-second deadline.
    var androidImageFetch: ((String) -> Result<RenderedAttachment, AttachmentFailure>)? {
        guard let fetcher = extensionSetup?.fetcher else { return nil }
        return { url in
            switch fetcher.fetch(url, timeoutMs: AndroidRenderer.imageTimeoutMs, cancel: CancelFlag()) {
            case .success(let f):
                guard f.type.mime.hasPrefix("image/") else { return .failure(.unsupported("\(f.type.mime) is not an image")) }
                return .success(
                    RenderedAttachment(
                        path: f.path, type: f.type.mime, bytes: f.bytes, width: f.width, height: f.height, source: url, fromCache: f.fromCache))
            case .failure(let e): return .failure(e)
            }
        }
    }

    /// `validated` is the intake's report for the same payload and context, when it has one:
    /// validation is then not done a second time.
    public func render(_ raw: RawPayload, validated: ValidationReport? = nil) -> RenderedNotification {
        if raw.envelope.source == .local { return renderLocal(raw) }
        let clock = ContinuousClock()
        let start = clock.now
        let report = validated ?? Validator.validate(raw, context: context)
        let validateMs = milliseconds(clock.now - start)

        var out = RenderedNotification(delivered: .original)
        out.file = raw.envelope.fileName
        out.language = localizer?.resolve(preferredLanguages).language ?? preferredLanguages.first
        out.warnings = report.warnings
        out.status = report.status
        if let arrival = raw.envelope.arrival {
            out.trace.append(TraceEntry(step: .receive, ms: 0, outcome: .received(over: arrival.protocolName), detail: arrival.summary))
        }
        guard let validated = report.validated, report.rejection == nil else {
            let rejection = report.rejection ?? Rejection(.internalServerError, "the payload was neither accepted nor refused")
            out.delivered = .rejected
            out.reason = rejection.reason.rawValue
            out.detail = rejection.detail
            out.intended = AlertContent.literal(of: raw.bytes)
            if rejection.reason == .unregistered || rejection.reason == .fcmUnregistered {
                out.trace.append(
                    TraceEntry(
                        step: .deliver, ms: 0, outcome: .discarded, cause: .tokenUnregistered,
                        detail: "discarded — token unregistered: \(rejection.detail); answered \(rejection.status) \(rejection.reason)"))
                return out
            }
            out.trace.append(
                TraceEntry(
                    step: .validate, ms: validateMs, outcome: .rejected, detail: "\(rejection.status) \(rejection.reason): \(rejection.detail)"))
            return out
        }
        out.trace.append(
            TraceEntry(
                step: .validate, ms: validateMs, outcome: .accepted,
                detail: "\(validated.form.name), push type \(validated.pushType.rawValue), \(report.warnings.count) warning(s)"))
        if validated.fcm == nil, let target = report.targetDescription {
            // With a fleet: which device took an APNs push, and why.
            out.trace.append(TraceEntry(step: .target, ms: 0, outcome: .delivered, detail: target))
        }
        if let message = validated.fcm {
            out.addressedTo = report.addressee
            out.trace.append(
                TraceEntry(step: .fcm, ms: 0, outcome: .mapped, detail: "FCM sends APNs: " + JSONWriter.compact(.object(validated.payload))))
            switch report.targeting {
            case .device:
                out.trace.append(
                    TraceEntry(
                        step: .target, ms: 0, outcome: .delivered,
                        detail: report.targetDescription
                            ?? FCMRules.describeTarget(message, deviceTopics: context.deviceTopics ?? [], isOwn: DeviceIdentity.isBuiltIn)))
            case .notTargeted(let why):
                out.trace.append(TraceEntry(step: .target, ms: 0, outcome: .notTargeted, detail: why))
                out.delivered = .rejected
                out.reason = "NotTargeted"
                out.detail = why
                var would = out
                fill(&would, from: validated.aps)
                out.intended = AlertContent(title: would.title, subtitle: would.subtitle, body: would.body)
                if var a = android?.render(message, preferred: preferredLanguages) {
                    (a.delivered, a.reason) = (.rejected, "NotTargeted")
                    out.android = a
                }
                return out
            }
        }
        if validated.pushType == .liveactivity {
            renderLiveActivity(&out, aps: validated.aps, outcome: report.liveActivity)
            return out
        }
        fill(&out, from: validated.aps)
        noteBackground(&out, aps: validated.aps, payload: validated.payload)
        runExtension(&out, validated: validated, payloadFile: raw.envelope.fileName)
        fillActions(&out)
        if let message = validated.fcm, let android {
            let a = android.render(message, preferred: preferredLanguages, ios: out, fetchImage: androidImageFetch)
            // Where the phones differ is a finding on both cards.
            out.warnings += a.warnings.filter { $0.code == .platformDivergence }
            out.android = a
        }
        // One broken file read for the title, the body and the actions is one finding, not three.
        var seen = Set<String>()
        out.warnings = out.warnings.filter { seen.insert($0.code.rawValue + "\u{0}" + $0.message).inserted }
        return out
    }

    /// Runs the service extension when iOS would, and takes what it hands over.
    func runExtension(_ out: inout RenderedNotification, validated: ValidatedPayload, payloadFile: String?) {
        let (run, reason, cause) = ExtensionPipeline.shouldRun(validated.aps)
        guard run else {
            out.trace.append(TraceEntry(step: .`extension`, ms: 0, outcome: .notRun, cause: cause, detail: reason))
            return
        }
        guard let setup = extensionSetup else {
            out.trace.append(
                TraceEntry(step: .`extension`, ms: 0, outcome: .notRun, cause: .switchedOff, detail: "the extension is switched off for this run"))
            return
        }
        let payloadDirectory = payloadFile.flatMap { $0 == "-" ? nil : ($0 as NSString).deletingLastPathComponent }
        var env = ExtensionEnvironment(
            recipe: setup.recipe, localizer: localizer, preferredLanguages: preferredLanguages,
            fetcher: setup.fetcher, appDirectory: setup.appDirectory, keyFile: setup.keyFile,
            payloadDirectory: payloadDirectory.map { $0.isEmpty ? "." : $0 })
        env.capabilities = context.capabilities
        out.trace.append(
            TraceEntry(
                step: .`extension`, ms: 0, outcome: .started,
                detail:
                    "\(reason); \(setup.recipe.isDefault ? "default recipe" : "the app's recipe"): \(setup.recipe.steps.map { "\($0.step.name)\($0.critical ? "" : " (optional)")" }.joined(separator: ", ")), \(ExtensionPipeline.formatSeconds(setup.recipe.timeLimit)) s, fallback \(setup.recipe.fallback.rawValue)"
            ))
        let outcome = ExtensionPipeline.run(
            payload: validated.payload, content: AlertContent(title: out.title, subtitle: out.subtitle, body: out.body), environment: env)
        out.title = outcome.content.title
        out.subtitle = outcome.content.subtitle
        out.body = outcome.content.body
        out.delivered = outcome.delivered
        out.trace += outcome.trace
        out.warnings += outcome.warnings
        let rendered = { (a: FetchedAttachment) in
            RenderedAttachment(
                path: a.path, type: a.type.mime, bytes: a.bytes, width: a.width, height: a.height, source: a.sourceURL, fromCache: a.fromCache)
        }
        out.attachments = outcome.attachments.map(rendered)
        if var communication = outcome.communication {
            communication.avatar = outcome.avatar.map(rendered)
            out.communication = communication
        }
    }

    /// The category's action buttons, titles localized for the device.
    func fillActions(_ out: inout RenderedNotification) {
        guard let id = out.category else { return }
        guard let category = categories.first(where: { $0.identifier == id }) else {
            if !categories.isEmpty {
                out.warnings.append(
                    Diagnostic(
                        .unknownCategory, "category \"\(id)\" is not one of the app's categories; the device shows no action buttons",
                        field: "aps.category"))
            }
            return
        }
        out.actions = category.actions.map { action in
            var title = action.title ?? action.identifier
            if let key = action.titleLocKey {
                if let localizer {
                    let r = localizer.localize(key, args: [], preferred: preferredLanguages)
                    title = r.text
                    out.warnings += r.warnings
                } else {
                    title = key
                }
            }
            return RenderedAction(identifier: action.identifier, title: title, options: action.options)
        }
    }

    /// Fills what the device shows from `aps`: each alert field is the localized `*-loc-key`
    /// when one is given (the literal field is then ignored, as on a device), else the literal.
    func fill(_ out: inout RenderedNotification, from aps: JSONObject) {
        switch aps["alert"] {
        case .string(let body):
            out.body = body
        case .object(let alert):
            let clock = ContinuousClock()
            let start = clock.now
            var localized = 0
            var missing = 0
            func field(_ literal: String, _ keyName: String, _ argsName: String) -> String? {
                guard let key = alert[keyName]?.stringValue else { return alert[literal]?.stringValue }
                let args = alert[argsName]?.arrayValue?.map { $0.stringValue ?? JSONWriter.compact($0) } ?? []
                guard let localizer else {
                    missing += 1
                    out.warnings.append(
                        Diagnostic(
                            .noLocalizations, "\(keyName) \"\(key)\" is shown as the key itself: no app localizations were given", key: key,
                            field: "aps.alert.\(keyName)"))
                    return key
                }
                let result = localizer.localize(key, args: args, preferred: preferredLanguages)
                if result.found { localized += 1 } else { missing += 1 }
                out.warnings += result.warnings
                return result.text
            }
            out.title = field("title", "title-loc-key", "title-loc-args")
            out.subtitle = field("subtitle", "subtitle-loc-key", "subtitle-loc-args")
            out.body = field("body", "loc-key", "loc-args")
            if localized + missing > 0 {
                let how = localizer.map { $0.resolve(preferredLanguages).match.reason } ?? "no app localizations"
                out.trace.append(
                    TraceEntry(
                        step: .localize, ms: milliseconds(clock.now - start),
                        outcome: missing == 0 ? .localized : .missingKeys,
                        detail: "\(localized) localized, \(missing) missing; \(how)"))
            }
        default:
            break
        }
        out.badge = aps["badge"]?.intValue
        switch aps["sound"] {
        case .string(let name): out.sound = name
        case .object(let dict): out.sound = dict["name"]?.stringValue
        default: break
        }
        out.category = aps["category"]?.stringValue
        out.threadId = aps["thread-id"]?.stringValue
        // The level iOS presents at: one the app may not use is delivered as active (PresentationRules).
        out.interruptionLevel = PresentationRules.level(aps, capabilities: context.capabilities)
    }
}

func milliseconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) * 1000 + Double(atto) / 1e15
}
