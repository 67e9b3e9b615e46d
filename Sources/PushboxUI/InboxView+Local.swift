import Foundation
import PushboxLocalization
import PushboxPayload

/// The Scheduled view, background events and responses in the trace.
extension InboxView {
    /// The pending local notifications (soonest first, n/64), the clock, what was dropped.
    static func scheduledLines(_ state: InboxState, height: Int) -> [(String, Role)] {
        guard let info = state.scheduled else { return [("this pushbox keeps no local notifications", .muted)] }
        var lines: [(String, Role)] = [
            ("device clock \(info.clock) · \(info.pending.count)/\(info.limit) pending · \(info.delivered) delivered", .accent),
            ("+ one minute on · > jump to the next · Esc close · pushbox schedule FILE adds more", .muted),
            ("", .overlay),
        ]
        if info.pending.isEmpty { lines.append(("nothing pending", .muted)) }
        let idWidth = min(28, info.pending.map { DisplayWidth.of($0.identifier) }.max() ?? 0)
        // The latest five dropped, after a line that counts the earlier ones.
        let droppedShown = 5
        let droppedRows = info.dropped.isEmpty ? 0 : min(info.dropped.count, droppedShown) + 2 + (info.dropped.count > droppedShown ? 1 : 0)
        let room = max(1, height - lines.count - droppedRows)
        for p in info.pending.prefix(room) {
            let id = DisplayText.clean(p.identifier)
            lines.append(
                ("\(p.fire)  \(id.padding(toLength: max(idWidth, DisplayWidth.of(id)), withPad: " ", startingAt: 0))  \(p.trigger)", .overlay))
        }
        if info.pending.count > room { lines[lines.count - 1] = ("… \(info.pending.count - room + 1) more", .muted) }
        if !info.dropped.isEmpty {
            lines.append(("", .overlay))
            lines.append(("dropped or refused (\(info.dropped.count)):", .warning))
            if info.dropped.count > droppedShown { lines.append(("  … and \(info.dropped.count - droppedShown) earlier", .muted)) }
            for d in info.dropped.suffix(droppedShown) { lines.append(("  " + DisplayText.clean(d), .warning)) }
        }
        return lines
    }

    /// A push with no alert: no banner; what the app would be woken for.
    static func backgroundCard(_ s: inout Screen, _ r: RenderedNotification, x: Int, y: Int, width: Int, height: Int) -> Int {
        var row = y
        s.put("Background event — no banner, no sound", x: x, y: row, role: .title, maxWidth: width)
        row += 1
        for t in r.trace where t.step == .background {
            for line in DisplayText.wrap(t.detail, width: width, maxLines: height - 2) where row < y + height {
                s.put(line, x: x, y: row, role: .body, maxWidth: width)
                row += 1
            }
        }
        return row
    }

    /// Taps and actions chosen on this notification, after its processing steps.
    static func responseLines(_ state: InboxState, _ item: InboxItem) -> [TraceEntry] {
        state.card.responses[item.id] ?? []
    }
}
