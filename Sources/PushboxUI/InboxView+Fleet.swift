import PushboxDevice
import PushboxPayload

/// The fleet view: one push across every device of the inbox, side by side — each device's card
/// in its languages (an Android phone's as Android draws it), or why it did not get the push —
/// with the campaign's findings under each.
extension InboxView {
    /// Lines of one device's cell: name, state, title, subtitle, four of body, two of findings.
    static let fleetCellHeight = 10
    /// Columns between two cells.
    static let fleetGap = 2

    static func fleetView(_ s: inout Screen, _ state: InboxState) {
        guard let summary = state.fleet, !summary.cells.isEmpty else {
            box(&s, title: "Fleet", lines: [("reading this push on every device…", .muted)])
            return
        }
        let w = s.width - 2
        let inner = max(1, w - 4)
        let count = summary.cells.count
        let cellWidth = max(20, min(phoneWidth, (inner - fleetGap * (count - 1)) / count))
        let perRow = max(1, (inner + fleetGap) / (cellWidth + fleetGap))
        let cellRows = (count + perRow - 1) / perRow
        let h = min(s.height - 2, 2 + cellRows * (fleetCellHeight + 1) + 2)
        // The frame: as wide as the screen allows, as tall as the cells need.
        let blank = [(String(repeating: " ", count: inner), Role.overlay)] + Array(repeating: ("", Role.overlay), count: max(0, h - 3))
        box(&s, title: "Fleet — this push on every device", lines: blank)
        let x0 = (s.width - (inner + 4)) / 2 + 2
        let y0 = max(1, (s.height - h) / 2) + 1
        let reached = summary.cells.filter(\.reached).count
        _ = s.put(DisplayText.fitted(summary.push, width: inner), x: x0, y: y0, role: .title, maxWidth: inner)
        let findings = summary.cells.reduce(0) { $0 + $1.findings.count }
        let tally = "\(reached) of \(count) devices got it" + (findings > 0 ? " · \(findings) finding\(findings == 1 ? "" : "s")" : "")
        _ = s.put(tally, x: x0, y: y0 + 1, role: findings > 0 ? .warning : .muted, maxWidth: inner)
        let visibleRows = max(1, (h - 4) / (fleetCellHeight + 1))
        let firstRow = min(state.overlayScroll, max(0, cellRows - visibleRows))
        for (i, cell) in summary.cells.enumerated() {
            let row = i / perRow - firstRow
            guard row >= 0, row < visibleRows else { continue }
            let x = x0 + (i % perRow) * (cellWidth + fleetGap)
            let y = y0 + 3 + row * (fleetCellHeight + 1)
            fleetCell(&s, cell, x: x, y: y, width: cellWidth, shown: cell.device == state.shownDevice, bidi: state.bidi)
        }
    }

    /// One device's cell at (x, y), `width` columns wide.
    static func fleetCell(_ s: inout Screen, _ cell: FleetCell, x: Int, y: Int, width: Int, shown: Bool, bidi: Bool) {
        let platform =
            switch cell.platform {
            case .ios?: "iPhone"
            case .android?: "Android"
            case nil: "iPhone"
            }
        let name = "\(cell.device) · \(cell.languages.first ?? "?") · \(platform)"
        _ = s.put(DisplayText.fitted(name, width: width), x: x, y: y, role: shown ? .selected : .accent, maxWidth: width)
        // Why it did not get the push is all the cell has to say: it takes the card's lines.
        let stateLines = cell.rendering == nil ? DisplayText.wrap(cell.state, width: width, maxLines: fleetCellHeight - 4) : [cell.state]
        for (i, line) in stateLines.enumerated() {
            _ = s.put(DisplayText.fitted(line, width: width), x: x, y: y + 1 + i, role: cell.reached ? .success : .muted, maxWidth: width)
        }
        var lines: [(String, Role)] = []
        if let r = cell.rendering {
            // An Android phone shows the message as the FCM Android SDK builds it.
            let android = cell.platform == .android ? r.android : nil
            let title = android?.title ?? r.title
            let body = android?.body ?? r.body
            if let title { lines.append((DisplayText.fitted(title, width: width, bidi: bidi), .title)) }
            if android == nil, let subtitle = r.subtitle { lines.append((DisplayText.fitted(subtitle, width: width, bidi: bidi), .subtitle)) }
            let language = android?.language ?? r.language
            for line in DisplayText.wrap(body ?? "", width: width, maxLines: 4, language: language) {
                lines.append((bidi ? DisplayText.line(line) : line, .body))
            }
        }
        lines = Array(lines.prefix(fleetCellHeight - 4))
        for (i, (text, role)) in lines.enumerated() { _ = s.put(text, x: x, y: y + 2 + i, role: role, maxWidth: width) }
        for (i, finding) in cell.findings.prefix(2).enumerated() {
            _ = s.put(DisplayText.fitted("⚠ " + finding, width: width), x: x, y: y + fleetCellHeight - 2 + i, role: .warning, maxWidth: width)
        }
    }
}
