import PushboxJSON
import PushboxLocalization

/// How much of a notification a given presentation shows: Apple documents no line limits, so
/// these are pushbox's, measured with the system font at its default size on the three iPhone
/// widths (size classes: small 375 points, regular 393, large 430), and named and versioned so
/// a finding says which it was judged under. They are approximate; every display says so.
public struct PreviewProfile: Sendable, Equatable {
    /// The iPhone width a profile is measured on.
    public enum SizeClass: String, Sendable, CaseIterable {
        /// iPhone SE, mini: 375 points.
        case small
        /// iPhone 15, 16: 393 points.
        case regular
        /// iPhone Plus, Pro Max: 430 points.
        case large

        /// The iPhone's width in points (a browser draws its card at this width less its margins).
        public var points: Int {
            switch self {
            case .small: return 375
            case .regular: return 393
            case .large: return 430
            }
        }

        /// Extra columns over the regular width (a column is about 9 points of body text).
        var extraColumns: Int {
            switch self {
            case .small: return -2
            case .regular: return 0
            case .large: return 4
            }
        }
    }

    /// The size class it is measured on.
    public var sizeClass: SizeClass = .regular
    /// `banner`, `lock-screen` or `expanded`.
    public var name: String
    /// The measurements' version.
    public var version: String
    /// Lines of title and of body shown (nil: all of them).
    public var titleLines: Int?
    public var bodyLines: Int?
    /// Columns of text a line holds on a regular-width iPhone.
    public var regularColumns: Int
    /// Columns of text a line holds on this profile's size class.
    public var columns: Int { regularColumns + sizeClass.extraColumns }
    /// Action buttons shown (nil: every one).
    public var actions: Int?

    /// A banner as it slides in: one title line, two body lines, the first two actions on a long press.
    public static let banner = PreviewProfile(name: "banner", version: "2026.1", titleLines: 1, bodyLines: 2, regularColumns: 40, actions: 2)
    /// A notification on the lock screen or in Notification Center: one title line, four body lines.
    public static let lockScreen = PreviewProfile(
        name: "lock-screen", version: "2026.1", titleLines: 1, bodyLines: 4, regularColumns: 40, actions: nil)
    /// Expanded with a long press: everything, in a wider card.
    public static let expanded = PreviewProfile(
        name: "expanded", version: "2026.1", titleLines: nil, bodyLines: nil, regularColumns: 44, actions: nil)
    /// Every profile, in the order the inbox's `p` steps through them.
    public static let all = [banner, lockScreen, expanded]

    /// The profile called `name`, optionally on a size class (`banner:small`, `lock-screen:large`).
    public static func named(_ name: String) -> PreviewProfile? {
        let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
        guard var profile = all.first(where: { $0.name == parts.first }) else { return nil }
        if parts.count == 2 {
            guard let size = SizeClass(rawValue: parts[1]) else { return nil }
            profile.sizeClass = size
        }
        return profile
    }

    /// The profile on another size class.
    public func on(_ size: SizeClass) -> PreviewProfile {
        var out = self
        out.sizeClass = size
        return out
    }

    /// The profile as the browser inbox draws by it: its name, lines and actions (null: all),
    /// the card's width in points on its size class, and its summary.
    public var json: JSONValue {
        func count(_ n: Int?) -> JSONValue { n.map { .number(String($0)) } ?? .null }
        return .object(
            JSONObject([
                ("name", .string(name)), ("version", .string(version)), ("sizeClass", .string(sizeClass.rawValue)),
                ("titleLines", count(titleLines)), ("bodyLines", count(bodyLines)), ("actions", count(actions)),
                ("cardWidth", .number(String(sizeClass.points - 16))), ("summary", .string(summary)),
            ]))
    }

    /// "lock-screen (approximate, 2026.1): title 1 line, body 4 lines at 40 columns".
    public var summary: String {
        let title = titleLines.map { "title \($0) line\($0 == 1 ? "" : "s")" } ?? "title whole"
        let body = bodyLines.map { "body \($0) lines" } ?? "body whole"
        let buttons = actions.map { ", the first \($0) actions" } ?? ""
        return "\(name) (approximate, \(version), \(sizeClass.rawValue) iPhone): \(title), \(body) at \(columns) columns\(buttons)"
    }

    /// What the profile cuts of a rendering in `language`: a sentence each for the title, the
    /// body and the actions that do not fit (empty when everything shows).
    public func cuts(_ note: RenderedNotification, language: String?) -> [String] {
        var out: [String] = []
        if let limit = titleLines, let title = note.title {
            let lines = TextLayout.wrap(TerminalText.sanitize(title), width: columns, language: language).count
            if lines > limit { out.append("the title takes \(lines) lines; \(name) shows \(limit)") }
        }
        if let limit = bodyLines, let body = note.body {
            let lines = TextLayout.wrap(TerminalText.sanitize(body, keepNewlines: true), width: columns, language: language).count
            if lines > limit { out.append("the body takes \(lines) lines; \(name) shows \(limit)") }
        }
        if let limit = actions, note.actions.count > limit {
            out.append("\(note.actions.count) actions; \(name) shows the first \(limit)")
        }
        return out
    }
}

extension Diagnostic.Code {
    public static let truncated = Self("truncated", .warning, "Text or actions a presentation profile cuts (the lock screen's four body lines, …).")
}

extension TraceEntry.Step {
    /// How the notification fits a presentation (banner, lock screen, expanded).
    public static let preview = TraceEntry.Step(rawValue: "preview")
}

extension TraceEntry.Outcome {
    /// Something does not fit the presentation.
    public static let truncated = TraceEntry.Outcome(rawValue: "truncated")
}

extension RenderedNotification {
    /// The rendering with what `profile` cuts as a `truncated` finding and a `preview` step.
    public func judged(under profile: PreviewProfile) -> RenderedNotification {
        guard delivered != .rejected, delivered != .stored, delivered != .discarded else { return self }
        let cuts = profile.cuts(self, language: language)
        var out = self
        out.trace.append(
            TraceEntry(
                step: .preview, ms: 0, outcome: cuts.isEmpty ? .ok : .truncated,
                detail: profile.summary + (cuts.isEmpty ? ": everything shows" : ": " + cuts.joined(separator: "; "))))
        for cut in cuts { out.warnings.append(Diagnostic(.truncated, cut + " (\(profile.name), approximate)", field: "aps.alert")) }
        return out
    }
}
