import PushboxText
import Foundation

/// Turns a payload into the notification the device shows.
///
/// For now the literal alert: validation, FCM targeting, then title, subtitle and body as sent
/// (a string alert is the body; a `*-loc-key` is shown as the key itself, as a device shows a
/// key it cannot find). Localization, the service extension and attachments fill in more of
/// the same model without changing it.
public struct Renderer: Sendable {
    public var context: ValidationContext
    /// The device's preferred languages, most preferred first.
    public var preferredLanguages: [String]

    public init(context: ValidationContext, preferredLanguages: [String]) {
        self.context = context
        self.preferredLanguages = preferredLanguages
    }

    public func render(_ raw: RawPayload) -> RenderedNotification {
        let clock = ContinuousClock()
        let start = clock.now
        let report = Validator.validate(raw, context: context)
        let validateMs = milliseconds(clock.now - start)

        var out = RenderedNotification(delivered: .original)
        out.file = raw.envelope.fileName
        out.language = preferredLanguages.first
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

    /// Copies what the device shows from `aps`, as sent.
    func fill(_ out: inout RenderedNotification, from aps: JSONObject) {
        switch aps["alert"] {
        case .string(let body):
            out.body = body
        case .object(let alert):
            out.title = literal(alert, "title", key: "title-loc-key")
            out.subtitle = literal(alert, "subtitle", key: "subtitle-loc-key")
            out.body = literal(alert, "body", key: "loc-key")
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

    /// The text shown for one alert field: the `*-loc-key` wins over the literal field.
    private func literal(_ alert: JSONObject, _ field: String, key: String) -> String? {
        if let locKey = alert[key]?.stringValue { return locKey }
        return alert[field]?.stringValue
    }
}

func milliseconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) * 1000 + Double(atto) / 1e15
}
