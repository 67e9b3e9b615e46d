import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxSystem

/// The pure view: state in, a screen of cells out. No curses, no I/O.
public enum InboxView {
    /// Columns of an iPhone lock-screen banner's text at the default text size: about 40
    /// Latin characters per line (a 6.1" iPhone in portrait).
    public static let phoneWidth = 40
    /// Below this many columns the card replaces the list instead of standing beside it.
    public static let splitWidth = 100

    /// The whole screen for `state`: header, list, card, footer and any overlay.
    public static func screen(_ state: InboxState) -> Screen {
        var s = Screen(width: state.width, height: state.height)
        guard state.width >= 20, state.height >= 5 else {
            s.put("too small: pushbox needs 20×5", x: 0, y: 0, role: .warning)
            return s
        }
        header(&s, state)
        let bodyHeight = state.height - 2
        if state.width >= splitWidth {
            let listWidth = max(36, state.width * 2 / 5)
            list(&s, state, x: 0, y: 1, width: listWidth, height: bodyHeight)
            for y in 1...bodyHeight { s.put("│", x: listWidth, y: y, role: .border) }
            card(&s, state, x: listWidth + 1, y: 1, width: state.width - listWidth - 1, height: bodyHeight)
        } else if state.card.open {
            card(&s, state, x: 0, y: 1, width: state.width, height: bodyHeight)
        } else {
            list(&s, state, x: 0, y: 1, width: state.width, height: bodyHeight)
        }
        footer(&s, state)
        overlay(&s, state)
        return s
    }

    static func header(_ s: inout Screen, _ state: InboxState) {
        s.fill(x: 0, y: 0, width: s.width, height: 1, role: .header)
        var parts = ["pushbox", DisplayText.clean(state.appName), LanguageNames.describe(state.device.languages.first ?? "en")]
        // With a fleet, whose phone this is comes before its language (v shows the next).
        if state.hasFleet {
            let names = state.fleetNames
            let at = (names.firstIndex(of: state.shownDevice) ?? 0) + 1
            let platform = state.registration.device(named: state.shownDevice).map { $0.platform == .android ? " (Android)" : " (iPhone)" } ?? ""
            parts.insert("device \(DisplayText.clean(state.shownDevice))\(platform) \(at)/\(names.count)", at: 2)
        }
        // What the search and filter let through, a collapsed thread's notifications included.
        let shown = state.rows.reduce(0) { total, row in
            switch row {
            case .item: return total + 1
            // A collapsed thread lists its newest; a collapsed summary, none.
            case .thread(_, let count, let collapsed): return total + (collapsed ? count - 1 : 0)
            case .summary(_, _, let count, let collapsed): return total + (collapsed ? count : 0)
            }
        }
        // With a fleet, the shown device's notifications are the whole it is counted against.
        let total =
            state.list.device.map { device in
                state.list.items.reduce(0) { $0 + (($1.verdict.device ?? FleetDevice.defaultName) == device ? 1 : 0) }
            } ?? state.list.items.count
        parts.append(shown == total ? "\(total) notifications" : "\(shown) of \(total)")
        // What narrows the list matters more than where the socket is: it comes first.
        if state.list.filter != .all { parts.append("filter: \(state.list.filter.label)") }
        if !state.list.search.isEmpty { parts.append("search: \(DisplayText.clean(state.list.search))") }
        // Never mistaken for the real services: while a chaos rule is on, the header says so first.
        if state.chaos.armed { parts.insert("chaos on", at: 1) }
        // A device that refuses every push is the first thing to know.
        if !state.appInstalled { parts.append("app uninstalled") }
        if !state.deviceOnline { parts.append("device offline") }
        if let sched = state.scheduled, sched.simulated || !sched.pending.isEmpty {
            parts.append("clock \(sched.clock) · \(sched.pending.count)/\(sched.limit) scheduled")
        }
        // The port is what a backend is pointed at, and short: it comes before the socket's path.
        if let port = state.intake.port { parts.append("port \(port)") }
        parts.append(state.intake.socket.map { "socket \($0)" } ?? "no socket")
        if !state.intake.watched.isEmpty {
            parts.append("watching \(state.intake.watched.count) folder\(state.intake.watched.count == 1 ? "" : "s")")
        }
        s.put(" " + parts.joined(separator: " · "), x: 0, y: 0, role: .header)
    }

    static func footer(_ s: inout Screen, _ state: InboxState) {
        let y = s.height - 1
        s.fill(x: 0, y: y, width: s.width, height: 1, role: .footer)
        if state.overlay == .search {
            s.put(" /" + DisplayText.clean(state.list.search) + "▏   Enter keep · Esc clear", x: 0, y: y, role: .input)
        } else if let status = state.status {
            s.put(" " + status.text, x: 0, y: y, role: .footer)
        } else {
            s.put(" " + Keymap.footer(Keymap.table(for: state.overlay)), x: 0, y: y, role: .footer)
        }
    }

    static func list(_ s: inout Screen, _ state: InboxState, x: Int, y: Int, width: Int, height: Int) {
        let rows = state.rows
        if rows.isEmpty {
            s.put(
                state.list.items.isEmpty ? "No notifications yet. Send one: pushbox send FILE" : "Nothing matches.", x: x + 1, y: y + 1, role: .muted,
                maxWidth: width - 2)
            return
        }
        for (offset, row) in rows[state.list.top..<min(rows.count, state.list.top + height)].enumerated() {
            let line = y + offset
            let isSelected = state.list.top + offset == state.list.selected
            let base: Role = isSelected ? .selected : .normal
            if isSelected { s.fill(x: x, y: line, width: width, height: 1, role: .selected) }
            switch row {
            case .thread, .summary:
                s.put(
                    DisplayText.fitted(groupHeader(row, after: state.list.top + offset, in: rows, state), width: width - 2, bidi: state.bidi),
                    x: x + 1,
                    y: line, role: isSelected ? .selected : .accent, maxWidth: width - 2)
            case .item(let i):
                let item = state.list.items[i]
                let r = state.shown(item)
                var col = x + 1 + (isInThread(item, rows) ? 2 : 0)
                col += s.put(clockText(item.receivedAt, zone: state.timeZone) + " ", x: col, y: line, role: isSelected ? .selected : .muted)
                col += s.put(markers(item, r), x: col, y: line, role: isSelected ? .selected : .marker, maxWidth: 3)
                let room = x + width - col - 1
                s.put(
                    DisplayText.fitted(summary(item, r, now: state.now ?? item.receivedAt), width: room, bidi: state.bidi), x: col, y: line,
                    role: base, maxWidth: room)
            }
        }
    }

    /// One "HH:mm" formatter per zone (an ICU formatter per frame is costly), used only under its lock.
    private static let formatters = Locked<[TimeZone: DateFormatter]>([:])

    /// `date` as "HH:mm" in `zone`.
    static func clockText(_ date: Date, zone: TimeZone) -> String {
        formatters.withLock { formatters in
            let f =
                formatters[zone]
                ?? {
                    let f = DateFormatter()
                    f.dateFormat = "HH:mm"
                    f.timeZone = zone
                    return f
                }()
            formatters[zone] = f
            return f.string(from: date)
        }
    }

    /// A group's header: a thread's id and size, or, collapsed, "N more …" in the category's
    /// summary format (the newest notification's, shown under it); a summary's time and
    /// whether it came yet on the device clock.
    static func groupHeader(_ row: Row, after index: Int, in rows: [Row], _ state: InboxState) -> String {
        switch row {
        case .thread(let id, let count, let collapsed):
            guard collapsed else { return "▾ \(DisplayText.clean(id)) (\(count))" }
            var category: String?
            if index + 1 < rows.count, case .item(let i) = rows[index + 1] { category = state.renders[state.list.items[i].id]?.category }
            let more =
                state.stackWording?.summary(category: category, count: count, preferred: state.device.languages).text
                ?? StackWording.defaultSummary(more: count - 1)
            return "▸ \(DisplayText.clean(id)) · \(DisplayText.clean(more))"
        case .summary(let at, let due, let count, let collapsed):
            // Before its time it waits in Notification Center as the upcoming summary.
            let came = due.map { $0 <= (state.now ?? .distantFuture) } ?? true
            return "\(collapsed ? "▸" : "▾") \(came ? "Scheduled Summary" : "Upcoming Summary") · \(at) (\(count))"
        case .item: return ""
        }
    }

    static func isInThread(_ item: InboxItem, _ rows: [Row]) -> Bool {
        if item.isHeld { return true }
        guard let t = item.threadID else { return false }
        return rows.contains { if case .thread(let id, _, _) = $0 { return id == t } else { return false } }
    }

    /// × rejected or discarded, s stored while the device is offline, ! warnings, @ attachment,
    /// * encrypted, ⌁ background event, L local.
    static func markers(_ item: InboxItem, _ r: RenderedNotification?) -> String {
        var m = item.kind == .background ? "⌁" : item.kind == .local ? "L" : ""
        if item.isRejected || r?.delivered == .rejected || r?.delivered == .discarded { m += "×" }
        if r?.delivered == .stored { m += "s" }
        if !(r?.warnings.isEmpty ?? true) { m += "!" }
        if !(r?.attachments.isEmpty ?? true) { m += "@" }
        if item.encrypted { m += "*" }
        return String(m.prefix(2)).padding(toLength: 2, withPad: " ", startingAt: 0) + " "
    }

    static func summary(_ item: InboxItem, _ r: RenderedNotification?, now: Date) -> String {
        if item.isRejected { return "\(item.status) \(item.reason ?? "")" }
        guard let r else { return "…" }
        if r.delivered == .rejected { return "not for this device: \(r.reason ?? "")" }
        if r.delivered == .stored || r.delivered == .discarded, let would = r.intended {
            let text = [would.title, would.body].compactMap { $0 }.filter { !$0.isEmpty }.map { DisplayText.clean($0) }.joined(separator: " — ")
            if let la = r.liveActivity { return DisplayText.clean("(Live Activity \(la.event) dropped: \(la.drop?.rawValue ?? "")) ") + text }
            return "(\(item.delivery?.state(at: now).phrase ?? "")) " + text
        }
        let parts = [r.title, r.body].compactMap { $0 }.filter { !$0.isEmpty }.map { DisplayText.clean($0) }
        if let la = r.liveActivity, parts.isEmpty { return DisplayText.clean("Live Activity \(la.event) applied, no alert") }
        if item.kind == .background { return "background event: " + (parts.first ?? "no banner") }
        return parts.isEmpty ? "(no alert: background or badge/sound only)" : parts.joined(separator: " — ")
    }
}
