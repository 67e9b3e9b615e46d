import PushboxJSON
import PushboxPayload

extension TraceEntry.Step {
    /// A Live Activity push applied to (or dropped by) the device's activities.
    public static let liveActivity = TraceEntry.Step(rawValue: "live-activity")
}

extension TraceEntry.Outcome {
    /// The device applied a Live Activity push.
    public static let applied = TraceEntry.Outcome(rawValue: "applied")
    /// A Live Activity push reached no device's activities (render without one).
    public static let notApplied = TraceEntry.Outcome(rawValue: "not-applied")
}

extension Renderer {
    /// A Live Activity push: what the device did with it (its trace entries), the alert it
    /// lights when applied (title and body may be `{loc-key, loc-args}`, the sound inside the
    /// alert), nothing shown when dropped. No service extension runs for these pushes.
    func renderLiveActivity(_ out: inout RenderedNotification, aps: JSONObject, outcome: LiveActivityOutcome?) {
        var standard = aps
        standard["alert"] = Self.standardAlert(aps["alert"])
        if let sound = aps["alert"]?.objectValue?["sound"] { standard["sound"] = sound } else { standard["sound"] = nil }
        fill(&out, from: standard)
        out.liveActivity = outcome
        guard let outcome else {
            out.trace.append(
                TraceEntry(
                    step: .liveActivity, ms: 0, outcome: .notApplied,
                    detail: "a Live Activity push, not applied to any device's activities here (pushbox activities shows the device's)"))
            return
        }
        let cause = outcome.drop.map { TraceEntry.Cause(rawValue: $0.rawValue) }
        out.trace.append(
            TraceEntry(
                step: .liveActivity, ms: 0, outcome: outcome.applied ? .applied : .dropped, cause: cause,
                detail: "\(outcome.event): \(outcome.detail)"))
        for note in outcome.notes {
            out.trace.append(TraceEntry(step: .liveActivity, ms: 0, outcome: .ok, detail: note))
        }
        if !outcome.applied {
            // Dropped on the device: nothing lights; what it would have shown is kept aside.
            out.intended = AlertContent(title: out.title, subtitle: out.subtitle, body: out.body)
            (out.title, out.subtitle, out.body) = (nil, nil, nil)
            out.delivered = .discarded
            out.reason = outcome.drop?.rawValue
            out.detail = outcome.detail
        } else if out.title == nil, out.body == nil {
            out.trace.append(TraceEntry(step: .liveActivity, ms: 0, outcome: .noBanner, detail: "no alert: the activity changes silently"))
        }
    }

    /// A Live Activity's alert in the shape of an ordinary one: `title: {loc-key, loc-args}`
    /// becomes `title-loc-key`/`title-loc-args`, `body: {…}` `loc-key`/`loc-args`.
    static func standardAlert(_ alert: JSONValue?) -> JSONValue? {
        guard let o = alert?.objectValue else { return alert }
        var out = JSONObject()
        for (key, value) in o.entries where key != "sound" {
            if let inner = value.objectValue, key == "title" || key == "body" || key == "subtitle" {
                let prefix = key == "body" ? "" : key + "-"
                if let k = inner["loc-key"] { out[prefix + "loc-key"] = k }
                if let a = inner["loc-args"] { out[prefix + "loc-args"] = a }
            } else {
                out[key] = value
            }
        }
        return .object(out)
    }
}
