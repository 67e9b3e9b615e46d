import Foundation
import PushboxDevice
import PushboxJSON
import PushboxLocalization
import PushboxPayload

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
        let time = Times(info.timeZone)
        var lines: [(String, Role)] = [
            ("device clock \(info.clock) · push-to-start token \(info.book.identity.pushToStart.prefix(8))…", .accent),
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
            var times = "  started \(time(a.startedAt)) by \(a.startedBy)"
            if let stale = a.staleDate { times += " · stale \(now >= stale ? "since" : "at") \(time(stale))" }
            if let end = a.end(at: now), let leaves = a.dismissal(at: now) {
                times += " · ended \(time(end)) · leaves \(time(leaves))"
            } else {
                times += " · ends by itself \(time(a.startedAt + LiveActivity.maxActive))"
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
            for e in a.timeline { lines += eventLines(e, width: width, time: time) }
        }
        if !info.book.unmatched.isEmpty {
            lines.append(("", .overlay))
            lines.append(("reached no activity", .subtitle))
            for e in info.book.unmatched { lines += eventLines(e, width: width, time: time) }
        }
        return lines
    }

    /// An activity in a few words: its template line, else its type.
    static func summary(_ a: LiveActivity, _ info: ActivitiesInfo) -> String {
        info.templates[a.type].map(a.line) ?? a.type
    }

    /// One push of a timeline: time, event, applied or dropped with the reason; the alert it lit.
    static func eventLines(_ e: ActivityEvent, width: Int, time: Times) -> [(String, Role)] {
        let mark = e.applied ? "✓" : "×"
        let head = "    \(time(e.at, seconds: true)) \(mark) \(e.event) p\(e.priority)"
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

    /// Device-clock times in the device's zone, in a few characters: one formatter for every
    /// line of the view (`MM-dd HH:mm`, or `HH:mm:ss` with `seconds`).
    struct Times {
        let minutes: DateFormatter
        let seconds: DateFormatter

        init(_ zone: TimeZone) {
            func formatter(_ format: String) -> DateFormatter {
                let f = DateFormatter()
                f.locale = Locale(identifier: "en_US_POSIX")
                f.timeZone = zone
                f.dateFormat = format
                return f
            }
            minutes = formatter("MM-dd HH:mm")
            seconds = formatter("HH:mm:ss")
        }

        func callAsFunction(_ t: Double, seconds withSeconds: Bool = false) -> String {
            (withSeconds ? seconds : minutes).string(from: Date(timeIntervalSince1970: t))
        }
    }
}
