import PushboxText
import Foundation
import PushboxLocalization

/// Turns a payload into the notification the device shows.
///
/// Validation, FCM targeting, then what the system shows: title, subtitle and body, each the
/// localized `*-loc-key` with its args when one is given (a string alert is the body). The
/// service extension and attachments fill in more of the same model without changing it.
public struct Renderer: Sendable {
    public var context: ValidationContext
    /// The device's preferred languages, most preferred first.
    public var preferredLanguages: [String]
    /// The app's localizations; without one, a `*-loc-key` shows as the key itself.
    public var localizer: Localizer?

    public init(context: ValidationContext, preferredLanguages: [String], localizer: Localizer? = nil) {
        self.context = context
        self.preferredLanguages = preferredLanguages
        self.localizer = localizer
    }

    public func render(_ raw: RawPayload) -> RenderedNotification {
        let clock = ContinuousClock()
        let start = clock.now
        let report = Validator.validate(raw, context: context)
        let validateMs = milliseconds(clock.now - start)

        var out = RenderedNotification(delivered: .original)
        out.file = raw.envelope.fileName
        out.language = localizer?.resolve(preferredLanguages).language ?? preferredLanguages.first
        out.warnings = report.warnings.map(\.message)
        out.status = report.status
        guard let validated = report.validated, report.rejection == nil else {
            let rejection = report.rejection!
            out.delivered = .rejected
            out.reason = rejection.reason
            out.detail = rejection.detail
            out.trace = [TraceEntry(step: "validate", ms: validateMs, outcome: "rejected", detail: "\(rejection.status) \(rejection.reason): \(rejection.detail)")]
            return out
        }
        out.trace.append(TraceEntry(step: "validate", ms: validateMs, outcome: "accepted",
                                    detail: "\(validated.form.name), push type \(validated.pushType.rawValue), \(report.warnings.count) warning(s)"))
        if validated.fcm != nil {
            switch report.targeting {
            case .device:
                out.trace.append(TraceEntry(step: "target", ms: 0, outcome: "delivered", detail: "the message is for this device"))
            case .notTargeted(let why):
                out.trace.append(TraceEntry(step: "target", ms: 0, outcome: "not-targeted", detail: why))
                out.delivered = .rejected
                out.reason = "NotTargeted"
                out.detail = why
                return out
            }
        }
        fill(&out, from: validated.aps)
        return out
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
            var localized = 0, missing = 0
            func field(_ literal: String, _ keyName: String, _ argsName: String) -> String? {
                guard let key = alert[keyName]?.stringValue else { return alert[literal]?.stringValue }
                let args = alert[argsName]?.arrayValue?.map { $0.stringValue ?? JSONWriter.compact($0) } ?? []
                guard let localizer else {
                    missing += 1
                    out.warnings.append("\(keyName) \"\(key)\" is shown as the key itself: no app localizations were given")
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
                out.trace.append(TraceEntry(step: "localize", ms: milliseconds(clock.now - start),
                                            outcome: missing == 0 ? "localized" : "missing-keys",
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
        let level = aps["interruption-level"]?.stringValue
        out.interruptionLevel = PayloadRules.interruptionLevels.contains(level ?? "") ? level : "active"
    }
}

func milliseconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) * 1000 + Double(atto) / 1e15
}
