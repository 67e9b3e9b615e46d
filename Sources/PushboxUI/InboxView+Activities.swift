import Foundation
import PushboxCore
import PushboxLocalization
import PushboxText

/// The Live Activities view: what pushbox can know of an activity whose SwiftUI cannot run
/// here — its phase, times, relevance and Dynamic Island rank, the lock-screen line of the
/// profile's template, its content state and attributes as trees, and every push it received,
/// applied or dropped with the reason.
extension InboxView {
    /// The view's lines, `width` columns wide at most.
    static func activityLines(_ state: InboxState, width: Int) -> [(String, Role)] {
        guard let info = state.activities else { return [("reading the device's Live Activities…", .muted)] }
        let now = info.now
        let island = info.book.island(at: now)
        var lines: [(String, Role)] = [
            ("device clock \(info.clock) · push-to-start token \(ActivityBook.pushToStartToken.prefix(8))…", .accent),
            (
                "Dynamic Island: "
                    + (island.first.map { DisplayText.clean(summary($0, info)) } ?? "nothing running"), island.isEmpty ? .muted : .title
            ),
            ("+ one minute on · > next pending · j/k scroll · Esc close · pushbox activities --json for scripts", .muted),
        ]
        let shown = info.book.ranked(at: now) + info.book.activities.filter { $0.phase(at: now) == .dismissed }.reversed()
        if shown.isEmpty { lines.append(("", .overlay)) }
        if shown.isEmpty { lines.append(("no Live Activity yet: send a start to the push-to-start token, or pushbox activity start", .muted)) }
        for a in shown {
            lines.append(("", .overlay))
            let phase = a.phase(at: now)
            let rank = island.firstIndex { $0.id == a.id }.map { "island #\($0 + 1) · " } ?? ""
            let role: Role = phase == .active ? .title : phase == .stale ? .warning : .muted
            lines.append((DisplayText.clean("\(a.type) — \(phase.rawValue) · \(rank)relevance \(ContentDecoder.shortest(a.relevance))"), role))
            if let template = info.templates[a.type] { lines.append(("  " + DisplayText.clean(a.line(template)), .body)) }
            var times = "  started \(time(info.timeZone, a.startedAt)) by \(a.startedBy)"
            if let stale = a.staleDate { times += " · stale \(now >= stale ? "since" : "at") \(time(info.timeZone, stale))" }
            if let end = a.end(at: now) {
                times += " · ended \(time(info.timeZone, end)) · leaves \(time(info.timeZone, a.dismissAt ?? end + LiveActivity.maxLingering))"
            } else {
                times += " · ends by itself \(time(info.timeZone, a.startedAt + LiveActivity.maxActive))"
            }
            lines.append((times, .muted))
            lines.append(
                ("  id \(a.id)" + (a.pushToken.map { " · token \($0)" } ?? " · no push token") + (a.channel.map { " · channel \($0)" } ?? ""), .muted)
            )
            lines.append(("  content state", .subtitle))
            lines += tree(a.state, indent: 4).map { ($0, .overlay) }
            lines.append(("  attributes", .subtitle))
            lines += tree(a.attributes, indent: 4).map { ($0, .overlay) }
            lines.append(("  pushes", .subtitle))
            for e in a.timeline { lines += eventLines(e, width: width, zone: info.timeZone) }
        }
        if !info.book.unmatched.isEmpty {
            lines.append(("", .overlay))
            lines.append(("reached no activity", .subtitle))
            for e in info.book.unmatched { lines += eventLines(e, width: width, zone: info.timeZone) }
        }
        return lines
    }

    /// An activity in a few words: its template line, else its type.
    static func summary(_ a: LiveActivity, _ info: ActivitiesInfo) -> String {
        info.templates[a.type].map(a.line) ?? a.type
    }

    /// One push of a timeline: time, event, applied or dropped with the reason; the alert it lit.
    static func eventLines(_ e: ActivityEvent, width: Int, zone: TimeZone) -> [(String, Role)] {
        let mark = e.applied ? "✓" : "×"
        let head = "    \(time(zone, e.at, seconds: true)) \(mark) \(e.event) p\(e.priority)"
        var out: [(String, Role)] = [
            (DisplayText.clean(head + (e.applied ? " applied" : " dropped: \(e.drop?.rawValue ?? "")")), e.applied ? .success : .error)
        ]
        for line in DisplayText.wrap(DisplayText.clean(e.detail), width: max(10, width - 8)) { out.append(("      " + line, .muted)) }
        if let alert = e.alert { out.append(("      banner: " + DisplayText.clean(alert), .body)) }
        return out
    }

    /// A JSON value as an indented tree, one field per line.
    static func tree(_ value: JSONValue, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .object(let o):
            if o.isEmpty { return [pad + "{}"] }
            return o.entries.flatMap { entry -> [String] in
                switch entry.value {
                case .object(let inner) where !inner.isEmpty:
                    return [pad + DisplayText.clean(entry.key) + ":"] + tree(entry.value, indent: indent + 2)
                case .array(let items) where !items.isEmpty: return [pad + DisplayText.clean(entry.key) + ":"] + tree(entry.value, indent: indent + 2)
                default: return [pad + DisplayText.clean(entry.key) + ": " + DisplayText.clean(JSONWriter.compact(entry.value))]
                }
            }
        case .array(let items):
            return items.enumerated().flatMap { i, item -> [String] in
                switch item {
                case .object, .array: return [pad + "[\(i)]"] + tree(item, indent: indent + 2)
                default: return [pad + "[\(i)] " + DisplayText.clean(JSONWriter.compact(item))]
                }
            }
        default:
            return [pad + DisplayText.clean(JSONWriter.compact(value))]
        }
    }

    /// A device-clock time in the device's zone, in a few characters.
    static func time(_ zone: TimeZone, _ t: Double, seconds: Bool = false) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = seconds ? "HH:mm:ss" : "MM-dd HH:mm"
        return f.string(from: Date(timeIntervalSince1970: t))
    }
}
