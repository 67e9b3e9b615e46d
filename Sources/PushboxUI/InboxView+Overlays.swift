import Foundation
import PushboxDevice
import PushboxLocalization
import PushboxPayload

extension InboxView {
    static func overlay(_ s: inout Screen, _ state: InboxState) {
        switch state.overlay {
        case .help?:
            let lines =
                Keymap.helpLines(Keymap.inbox) + [
                    "",
                    "markers: × rejected or discarded · s stored while offline · ! warnings · @ attachment · * encrypted · ⌁ background · L local",
                ]
            box(&s, title: "Keys", lines: lines.map { ($0, .overlay) }, scroll: state.overlayScroll)
        case .languagePicker(let selection)?:
            var lines = state.device.choices.enumerated().map { i, tag in
                ((i == selection ? "▶ " : "  ") + LanguageNames.describe(tag), i == selection ? Role.selected : Role.overlay)
            }
            if let typed = state.typedLanguage { lines.append(("tag: " + DisplayText.clean(typed) + "▏", Role.selected)) }
            box(&s, title: "Device language", lines: lines, showing: selection)
        case .matrix?:
            box(&s, title: "Every language", lines: matrixLines(state), scroll: state.overlayScroll)
        case .response(let response)?:
            box(&s, title: "Action", lines: response.lines.map { (DisplayText.clean($0), .overlay) }, scroll: state.overlayScroll)
        case .scheduled?:
            box(&s, title: "Scheduled", lines: scheduledLines(state, height: s.height - 4))
        case .requests?:
            box(&s, title: "Requests", lines: requestLines(state, height: s.height - 4), scroll: state.overlayScroll)
        case .device?:
            box(&s, title: "Device", lines: deviceLines(state), scroll: state.overlayScroll)
        case .activities?:
            box(&s, title: "Live Activities", lines: activityLines(state, width: s.width - 6), scroll: state.overlayScroll)
        case .fleet?:
            fleetView(&s, state)
        case .chaos?:
            box(&s, title: "Chaos", lines: chaosLines(state), showing: state.chaos.rules.isEmpty ? nil : state.chaos.selection + 2)
        case .search?, nil:
            break
        }
    }

    /// The device: its tokens, whether it is online and its app installed, and its FCM topics,
    /// each with who set it (its language, the app's profile, FCM's API, the app).
    static func deviceLines(_ state: InboxState) -> [(String, Role)] {
        // The device shown: the default one, or one added to the fleet.
        let member = state.registration.device(named: state.shownDevice)
        let r = member?.state ?? state.registration
        var lines: [(String, Role)] = [
            ("APNs device token       " + (member.map { $0.apnsToken ?? "none: an Android phone" } ?? DeviceIdentity.apnsToken), .overlay),
            ("FCM registration token  " + (member?.fcmToken ?? DeviceIdentity.fcmToken).prefix(40) + "…", .overlay),
            ("Firebase installation   " + (member?.installationID ?? DeviceIdentity.installationID), .overlay),
            ("device                  " + (r.online ? "online" : "offline (O brings it back)"), r.online ? .overlay : .warning),
            ("app                     " + (r.installed ? "installed" : "uninstalled (U installs it)"), r.installed ? .overlay : .warning),
        ]
        // How notifications interrupt (pushbox device focus|summary|previews|silent).
        let a = r.attention
        let focus = a.focus.map { f in
            "on: allows " + (f.allowApps.isEmpty ? "no app" : f.allowApps.map { DisplayText.clean($0) }.joined(separator: ", "))
                + (f.allowTimeSensitive ? " and time-sensitive" : "")
        }
        lines += [
            ("focus                   " + (focus ?? "off"), a.focus == nil ? .overlay : .warning),
            (
                "scheduled summary       " + (a.summaryTimes.map { "at " + $0.joined(separator: ", ") } ?? "off"),
                a.summaryTimes == nil ? .overlay : .warning
            ),
            ("previews                " + a.previews.rawValue, .overlay), ("ring switch             " + (a.silent ? "silent" : "ring"), .overlay),
            ("", .overlay), ("FCM topics", .title),
        ]
        let zone = state.timeZone
        if let member {
            lines.insert(
                ("device                  \(DisplayText.clean(member.name)) (\(member.platform == .android ? "Android" : "iPhone"))", .overlay), at: 0
            )
        }
        for t in DeviceTopics.sources(preferredLanguages: state.device.languages, profileTopics: state.profileTopics, registration: r)
        where member?.state.installed ?? true {
            let by = t.givenBy
            let when = t.at.map { " at " + clockText(Date(timeIntervalSince1970: Double($0) / 1000), zone: zone) } ?? ""
            lines.append(("  " + DisplayText.clean(t.topic).padding(toLength: 20, withPad: " ", startingAt: 0) + by + when, .overlay))
        }
        for (topic, change) in r.unsubscribed.sorted(by: { $0.key < $1.key }) {
            let when = clockText(Date(timeIntervalSince1970: Double(change.at) / 1000), zone: zone)
            lines.append(("  " + DisplayText.clean(topic).padding(toLength: 20, withPad: " ", startingAt: 0) + "unsubscribed at \(when)", .muted))
        }
        return lines
    }

    /// The selected notification in every language; missing keys and text that overflows a
    /// lock-screen banner flagged.
    static func matrixLines(_ state: InboxState) -> [(String, Role)] {
        guard !state.matrix.isEmpty else { return [("rendering every language…", .muted)] }
        let width = (state.matrix.map { $0.language.count }.max() ?? 2) + (state.matrix.contains { $0.note.android != nil } ? 10 : 0)
        var lines: [(String, Role)] = []
        for (language, note) in state.matrix {
            var flags: [String] = []
            if note.trace.contains(where: { $0.outcome == .missingKeys }) { flags.append("missing key") }
            if DisplayWidth.of(note.title ?? "") > phoneWidth { flags.append("title overflows") }
            if DisplayText.wrap(note.body ?? "", width: phoneWidth).count > 4 { flags.append("body over 4 lines") }
            let text = [note.title, note.body].compactMap { $0 }.map { DisplayText.line($0) }.joined(separator: " — ")
            let label = note.android == nil ? language : language + " iPhone"
            let line =
                label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + (flags.isEmpty ? "" : "[\(flags.joined(separator: ", "))] ") + text
            lines.append((line, flags.isEmpty ? .overlay : .warning))
            // An FCM message: the Android phone's row for the same device locale, with its folder.
            if let a = note.android {
                var flags: [String] = []
                if a.delivered != .shown { flags.append("not shown: \(a.reason ?? "")") }
                if a.title == nil && a.delivered == .shown { flags.append("no title") }
                if a.warnings.contains(where: { $0.code == .androidMissingResource || $0.code == .androidNoDefault }) {
                    flags.append("missing resource")
                }
                if a.warnings.contains(where: { $0.severity == .error }) { flags.append("app throws") }
                let text = [a.title, a.body].compactMap { $0 }.map { DisplayText.line($0) }.joined(separator: " — ")
                let label = language + " Android"
                let line =
                    label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "(\(a.language ?? "literal")) "
                    + (flags.isEmpty ? "" : "[\(flags.joined(separator: ", "))] ") + text
                lines.append((line, flags.isEmpty ? .overlay : .warning))
            }
        }
        return lines
    }

    /// The chaos rules, each on or off with how often it fired, the selected one marked; the
    /// rule being typed last.
    static func chaosLines(_ state: InboxState) -> [(String, Role)] {
        let panel = state.chaos
        var lines: [(String, Role)] = [
            (
                panel.armed
                    ? "pushes meet these faults · injected answers are marked chaos in Requests"
                    : "no rule on: pushes are answered as the services answer them", .muted
            ),
            ("", .overlay),
        ]
        if panel.rules.isEmpty {
            lines.append(("no rule · a adds one: fcm 503 UNAVAILABLE next=2, apns 429 TooManyRequests retry-after=30, goaway Shutdown", .muted))
        }
        for (i, rule) in panel.rules.enumerated() {
            let mark = i == panel.selection ? "▶ " : "  "
            let state = rule.spent ? "spent" : rule.active ? "on   " : "off  "
            let text = "\(mark)#\(rule.id) \(state) fired \(rule.fired) of \(rule.matched)  \(DisplayText.clean(rule.text))"
            lines.append((text, i == panel.selection ? .selected : rule.active && !rule.spent ? .warning : .overlay))
        }
        if let typed = panel.typed { lines.append(("add: " + DisplayText.clean(typed) + "▏", .selected)) }
        lines.append(("", .overlay))
        lines.append((Keymap.footer(Keymap.chaos), .muted))
        return lines
    }

    /// The requests on record, newest first; a refused one marked ×, with its reason and why.
    static func requestLines(_ state: InboxState, height: Int) -> [(String, Role)] {
        var lines: [(String, Role)] = [
            ("\(state.requests.count) on record, \(state.requests.filter(\.refused).count) refused · Esc close · pushbox requests --json", .muted),
            ("", .overlay),
        ]
        if state.requests.isEmpty { lines.append(("no request yet", .muted)) }
        for r in state.requests.prefix(max(1, height - lines.count)) {
            let mark = r.refused ? "×" : " "
            var text = "\(mark) \(r.time) \(r.status)\(r.reason.map { " " + $0 } ?? "") \(r.request) · \(r.via)"
            if let cause = r.cause { text += " — \(cause)" }
            if let chaos = r.chaos { text = "chaos " + text.dropFirst(2) + " [\(chaos)]" }
            lines.append((DisplayText.clean(text), r.refused || r.chaos != nil ? .warning : .overlay))
        }
        return lines
    }

    /// A centered box over the screen.
    /// A centred box of lines that scrolls: `scroll` lines are skipped (clamped to what there
    /// is), or, for a picker, the lines around `showing` are shown; the borders say how many
    /// lines are above and below.
    static func box(_ s: inout Screen, title: String, lines given: [(String, Role)], scroll: Int = 0, showing: Int? = nil) {
        let maxText = given.map { DisplayWidth.of($0.0) }.max() ?? 0
        let w = min(s.width - 2, max(DisplayWidth.of(title) + 6, maxText + 4))
        // A line wider than the box wraps (indented), so nothing is cut where it cannot be seen;
        // the picker's lines stay one each, so its selection keeps its index.
        let inner = max(1, w - 4)
        let lines: [(String, Role)] =
            showing != nil
            ? given
            : given.flatMap { line, role -> [(String, Role)] in
                guard DisplayWidth.of(line) > inner else { return [(line, role)] }
                let wrapped = DisplayText.wrap(line, width: inner)
                return [(wrapped.first ?? "", role)]
                    + TextLayout.wrap(wrapped.dropFirst().joined(separator: " "), width: max(1, inner - 2)).map { ("  " + $0, role) }
            }
        let h = min(s.height - 2, lines.count + 2)
        let x = (s.width - w) / 2
        let y = max(1, (s.height - h) / 2)
        let rows = max(0, h - 2)
        var first = min(scroll, max(0, lines.count - rows))
        if let showing { first = min(max(0, showing - rows + 1), max(0, lines.count - rows)) }
        s.fill(x: x, y: y, width: w, height: h, role: .overlay)
        let above = first > 0 ? " ↑ \(first) more " : " "
        s.put(
            "┌ " + title + above + String(repeating: "─", count: max(0, w - DisplayWidth.of(title) - DisplayWidth.of(above) - 3)) + "┐", x: x, y: y,
            role: .border, maxWidth: w)
        for (i, (line, role)) in lines.dropFirst(first).prefix(rows).enumerated() {
            s.put("│", x: x, y: y + 1 + i, role: .border)
            s.put(line, x: x + 2, y: y + 1 + i, role: role, maxWidth: w - 4)
            s.put("│", x: x + w - 1, y: y + 1 + i, role: .border)
        }
        let below = lines.count - first - rows
        let more = below > 0 ? " ↓ \(below) more (j, PgDn) " : ""
        s.put("└" + more + String(repeating: "─", count: max(0, w - 2 - DisplayWidth.of(more))) + "┘", x: x, y: y + h - 1, role: .border, maxWidth: w)
    }
}
