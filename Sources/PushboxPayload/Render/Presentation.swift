import Foundation
import PushboxJSON

/// How the device presented a notification when it arrived: shown now (a banner, the screen
/// lit, its sound), quietly in Notification Center, held for the scheduled summary, or silenced
/// by Focus — and the rule that decided it. Decided once, when the device judged the push, and
/// kept with it.
public struct Presentation: Sendable, Equatable {
    /// Where the notification went.
    public enum Outcome: String, Sendable, CaseIterable {
        /// A banner now, the screen lit.
        case shown
        /// Added to Notification Center without a banner, sound or lit screen.
        case quiet
        /// Held for the scheduled summary (`summaryAt`).
        case summary
        /// Delivered quietly because Focus allows neither the app nor the level.
        case silenced
    }

    public var outcome: Outcome
    /// For `summary`: the device-clock time (`18:00`) of the summary it waits for.
    public var summaryAt: String?
    /// `plays`, `vibrates` (the ring switch on silent), `critical` (through silent and Focus), `none`.
    public var sound: String
    /// Whether the screen lit.
    public var screenLit: Bool
    /// Whether the preview (title and body) is shown: `shown`, `when-unlocked`, `hidden`.
    public var preview: String
    /// The rule that decided it, in words.
    public var rule: String
    /// For `summary`: the moment the summary comes (the device clock's next `summaryAt`).
    public var summaryDue: Date?
    /// For `summary`: `aps.relevance-score` (0–1), which orders the summary (the highest featured).
    public var relevance: Double?

    public init(outcome: Outcome, summaryAt: String? = nil, sound: String, screenLit: Bool, preview: String = "shown", rule: String) {
        self.outcome = outcome
        self.summaryAt = summaryAt
        self.sound = sound
        self.screenLit = screenLit
        self.preview = preview
        self.rule = rule
    }

    /// One line for a card's facts: `held for the summary at 18:00 · no sound`.
    public var line: String {
        let destination: String
        switch outcome {
        case .shown: destination = "shown now" + (screenLit ? ", screen lit" : "")
        case .quiet: destination = "quietly in Notification Center"
        case .summary: destination = "held for the summary at \(summaryAt ?? "?")"
        case .silenced: destination = "silenced by Focus"
        }
        return destination + " · sound \(sound)" + (preview == "shown" ? "" : " · preview \(preview)")
    }

    /// As `render --json`, `list --json` and the store write it.
    public var json: JSONValue {
        .object(
            JSONObject(
                [
                    ("outcome", .string(outcome.rawValue)), ("summaryAt", .optionalString(summaryAt)), ("sound", .string(sound)),
                    ("screenLit", .bool(screenLit)), ("preview", .string(preview)), ("rule", .string(rule)),
                ]
                    + (summaryDue.map { [("summaryDue", .string(Self.iso8601($0)))] } ?? [])
                    + (relevance.map { [("relevance", .number(String($0)))] } ?? [])))
    }

    /// One read back from its JSON.
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let outcome = o["outcome"]?.stringValue.flatMap(Outcome.init(rawValue:)) else { return nil }
        self.init(
            outcome: outcome, summaryAt: o["summaryAt"]?.stringValue, sound: o["sound"]?.stringValue ?? "none",
            screenLit: o["screenLit"] == .bool(true), preview: o["preview"]?.stringValue ?? "shown", rule: o["rule"]?.stringValue ?? "")
        summaryDue = o["summaryDue"]?.stringValue.flatMap(Self.date(iso8601:))
        relevance = o["relevance"]?.doubleValue
    }

    /// `2026-12-05T18:00:00Z` (a format style: no formatter made for each row written or read).
    static func iso8601(_ date: Date) -> String { date.formatted(.iso8601) }

    /// A date read from `iso8601(_:)`'s form.
    static func date(iso8601 text: String) -> Date? { try? Date(text, strategy: .iso8601) }
}

extension TraceEntry.Step {
    /// How the device presented it: shown now, quietly, held for the summary, silenced by Focus.
    public static let present = TraceEntry.Step(rawValue: "present")
}

extension RenderedNotification {
    /// The rendering with how the device presented it when it arrived: its `presentation`, and
    /// a `present` step in the trace whose outcome is where it went and whose detail is the rule.
    public func presenting(_ presentation: Presentation?) -> RenderedNotification {
        guard let presentation, self.presentation == nil else { return self }
        var out = self
        out.presentation = presentation
        out.trace.append(
            TraceEntry(step: .present, ms: 0, outcome: TraceEntry.Outcome(rawValue: presentation.outcome.rawValue), detail: presentation.rule))
        return out
    }
}
