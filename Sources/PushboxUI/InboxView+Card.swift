import Foundation
import PushboxLocalization
import PushboxPayload

extension InboxView {
    static func card(_ s: inout Screen, _ state: InboxState, x: Int, y: Int, width: Int, height: Int) {
        var col = x + 1
        for tab in Tab.allCases {
            col += s.put(" \(tab.title) ", x: col, y: y, role: tab == state.card.tab ? .tabActive : .tabInactive) + 1
        }
        guard let item = state.selectedItem else {
            s.put("Select a notification.", x: x + 2, y: y + 2, role: .muted, maxWidth: width - 4)
            return
        }
        let top = y + 2
        let h = height - 2
        let inner = width - 2
        switch state.card.tab {
        case .card: platformCards(&s, state, item, x: x + 1, y: top, width: inner, height: h)
        case .trace: trace(&s, state, item, x: x + 1, y: top, width: inner, height: h)
        case .compare: compare(&s, state, item, x: x + 1, y: top, width: inner, height: h)
        case .raw:
            for (i, line) in state.list.rawText(of: item).split(separator: "\n", omittingEmptySubsequences: false).prefix(h).enumerated() {
                s.put(DisplayText.clean(String(line)), x: x + 1, y: top + i, role: .body, maxWidth: inner)
            }
        }
    }

    /// The notification as iOS draws it: app and time, bold title, subtitle, body, the
    /// attachment, the action buttons; with the lock-screen preview, a banner's truncation.
    static func notificationCard(_ s: inout Screen, _ state: InboxState, _ item: InboxItem, x: Int, y: Int, width: Int, height: Int) {
        if item.isRejected {
            return notShown(
                &s, "Not delivered: \(item.status) \(item.reason ?? "")", role: .error, detail: item.detail, x: x, y: y, width: width, height: height)
        }
        guard let r = state.shown(item) else {
            s.put("rendering…", x: x, y: y, role: .muted)
            return
        }
        if r.delivered == .rejected {
            return notShown(&s, "Not shown on this device", role: .warning, detail: r.detail, x: x, y: y, width: width, height: height)
        }
        if r.delivered == .stored || r.delivered == .discarded {
            let would = [r.intended?.title, r.intended?.subtitle, r.intended?.body].compactMap { $0 }.map { DisplayText.line($0) }.joined(
                separator: " — ")
            let headline =
                r.liveActivity.map { "The Live Activity ignores this \($0.event): \($0.drop?.rawValue ?? "")" }
                ?? (r.delivered == .stored ? "Not delivered yet: the device is offline" : "Never delivered")
            return notShown(
                &s, DisplayText.line(headline), role: .warning,
                detail: (r.detail ?? "") + (would.isEmpty ? "" : "\n\nWould show: " + would), x: x, y: y, width: width, height: height)
        }
        var row: Int
        if item.kind == .background {
            row = backgroundCard(&s, r, x: x, y: y, width: width, height: height)
        } else {
            let boxWidth = cardBoxWidth(state, available: width)
            row = cardBox(&s, state, item, r, lines: cardLines(state, r, textWidth: boxWidth - 4), x: x, y: y, boxWidth: boxWidth, height: height)
            var facts = ["\(r.delivered.rawValue)", "language \(r.language ?? "-")"]
            if let b = r.badge { facts.append("badge \(b)") }
            if let snd = r.sound { facts.append("sound \(DisplayText.clean(snd))") }
            if let level = r.interruptionLevel { facts.append(level) }
            s.put(facts.joined(separator: " · "), x: x, y: row, role: .muted, maxWidth: width)
            row += 1
            // A communication notification: who sent it, in which group, with what avatar.
            if let c = r.communication {
                let avatar = c.avatar.map { a in "avatar " + (a.width.map { "\($0)×\(a.height ?? 0)" } ?? a.type) } ?? "no avatar"
                let from =
                    "from \(c.sender)\(c.handle.map { " (\($0))" } ?? "")\(c.group.map { " in \($0)" } ?? "") · \(avatar), badged with the app's icon"
                s.put(DisplayText.line(from), x: x, y: row, role: .muted, maxWidth: width)
                row += 1
            }
            // How the phone presented it when it arrived: only when it was not simply shown.
            if let p = r.presentation, p.outcome != .shown || p.sound != "plays" && p.sound != "none" || p.preview != "shown" {
                s.put(p.line, x: x, y: row, role: p.outcome == .shown ? .muted : .warning, maxWidth: width)
                row += 1
            }
            if let preview = state.card.preview {
                let cuts = preview.cuts(r, language: r.language)
                s.put("preview " + preview.summary, x: x, y: row, role: .muted, maxWidth: width)
                row += 1
                for cut in cuts where row < y + height {
                    s.put("! " + cut, x: x, y: row, role: .warning, maxWidth: width)
                    row += 1
                }
            }
            if let to = r.addressedTo {
                s.put("to " + DisplayText.line(to), x: x, y: row, role: .muted, maxWidth: width)
                row += 1
            }
            if let la = r.liveActivity {
                let what = "Live Activity \(la.event) applied" + (la.activityType.map { " to \($0)" } ?? "") + " · A: the Live Activities view"
                s.put(DisplayText.line(what), x: x, y: row, role: .accent, maxWidth: width)
                row += 1
            }
        }
        for w in r.warnings where row < y + height {
            s.put("! " + DisplayText.clean(w.message), x: x, y: row, role: .warning, maxWidth: width)
            row += 1
        }
    }

    /// Whether the device's language reads right to left (Arabic, Hebrew, Persian, Urdu, …, and
    /// the right-to-left pseudolanguage): the card is mirrored as iOS mirrors it.
    static func isRightToLeftLanguage(_ language: String?) -> Bool {
        guard let language else { return false }
        let primary = LanguageTag.subtags(language).first?.lowercased() ?? ""
        return ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ckb", "dv", "ug"].contains(primary) || language == "right-to-left"
    }

    /// A headline and the reason, for a notification the device does not show.
    static func notShown(_ s: inout Screen, _ headline: String, role: Role, detail: String?, x: Int, y: Int, width: Int, height: Int) {
        s.put(headline, x: x, y: y, role: role, maxWidth: width)
        for (i, line) in DisplayText.wrap(detail ?? "", width: width, maxLines: height - 2).enumerated() {
            s.put(line, x: x, y: y + 1 + i, role: .body, maxWidth: width)
        }
    }

    /// The card's text lines: title, subtitle, body (cut as a banner cuts it in the lock-screen
    /// preview), and one line per attachment.
    static func cardLines(_ state: InboxState, _ r: RenderedNotification, textWidth text: Int) -> [(String, Role)] {
        var lines: [(String, Role)] = []
        let language = r.language ?? state.device.languages.first
        let mirrored = isRightToLeftLanguage(language)
        func set(_ paragraph: String, role: Role, maxLines: Int? = nil) {
            lines += paragraphLines(
                paragraph, role: role, maxLines: role == .subtitle ? 1 : maxLines, width: text, language: language, mirrored: mirrored,
                bidi: state.bidi, dropEmptyLines: role == .body)
        }
        let title = r.title
        let preview = state.card.preview
        if let title { set(title, role: .title, maxLines: preview?.titleLines ?? (preview == nil ? 1 : nil)) }
        if let sub = r.subtitle { set(sub, role: .subtitle) }
        set(r.body ?? "", role: .body, maxLines: preview?.bodyLines)
        if title == nil && r.subtitle == nil && (r.body ?? "").isEmpty {
            lines.append(("(no alert text: a background or badge/sound-only push)", .muted))
        }
        for a in r.attachments {
            let name = (a.path as NSString).lastPathComponent
            let size = a.width.map { " · \($0)×\(a.height ?? 0)" } ?? ""
            lines.append(("▧ \(name.prefix(12))… · \(a.type) · \(ByteFormat.describe(a.bytes))\(size)", .accent))
        }
        return lines
    }

    /// A paragraph as the phone sets it: wrapped where the language breaks lines, cut to
    /// `maxLines` (in logical order, so the ellipsis ends the sentence on either side), each
    /// line in visual order, right-aligned when the paragraph (or the device) reads right to left.
    static func paragraphLines(
        _ paragraph: String, role: Role, maxLines: Int?, width: Int, language: String?, mirrored: Bool, bidi: Bool, dropEmptyLines: Bool = false
    ) -> [(String, Role)] {
        let rightToLeft = mirrored || TextLayout.isRightToLeft(paragraph)
        var wrapped = DisplayText.wrap(paragraph, width: width, language: language)
        if dropEmptyLines { wrapped = wrapped.filter { !$0.isEmpty || wrapped.count == 1 } }
        if let maxLines, wrapped.count > maxLines {
            wrapped = Array(wrapped.prefix(maxLines))
            wrapped[maxLines - 1] = DisplayText.truncate(wrapped[maxLines - 1], width: width - 1) + "…"
        }
        return wrapped.map { line in
            let shown = bidi ? TextLayout.visualOrder(line, rightToLeft: rightToLeft) : line
            let pad = rightToLeft ? max(0, width - DisplayWidth.of(shown)) : 0
            return (String(repeating: " ", count: pad) + shown, role)
        }
    }

    /// The rounded box: app name and age, the lines, the thumbnail, the action buttons. Returns
    /// the row below it.
    static func cardBox(
        _ s: inout Screen, _ state: InboxState, _ item: InboxItem, _ r: RenderedNotification, lines: [(String, Role)],
        x: Int, y: Int, boxWidth: Int, height: Int
    ) -> Int {
        let text = boxWidth - 4
        var row = y
        let age = state.now.map { relativeTime(item.receivedAt, now: $0) } ?? ""
        s.put("╭" + String(repeating: "─", count: boxWidth - 2) + "╮", x: x, y: row, role: .border)
        row += 1
        s.put("│", x: x, y: row, role: .border)
        let app = DisplayText.clean(state.appName).uppercased()
        if isRightToLeftLanguage(r.language ?? state.device.languages.first) {
            // iOS mirrors the card: the time on the left, the app on the right.
            s.put(age, x: x + 2, y: row, role: .muted)
            let room = text - age.count - 1
            let shown = min(DisplayWidth.of(app), room)
            s.put(app, x: x + boxWidth - 2 - shown, y: row, role: .muted, maxWidth: room)
        } else {
            s.put(app, x: x + 2, y: row, role: .muted, maxWidth: text - age.count - 1)
            s.put(age, x: x + boxWidth - 2 - age.count, y: row, role: .muted)
        }
        s.put("│", x: x + boxWidth - 1, y: row, role: .border)
        row += 1
        row = boxLines(&s, lines, x: x, y: row, boxWidth: boxWidth, bottom: y + height - 3)
        if let request = thumbnailRequest(state, item), let thumbnail = state.thumbnails[request] {
            row = boxThumbnail(&s, thumbnail, x: x, y: row, boxWidth: boxWidth, bottom: y + height - 3)
        }
        if !r.actions.isEmpty {
            s.put("├" + String(repeating: "─", count: boxWidth - 2) + "┤", x: x, y: row, role: .border)
            row += 1
            s.put("│", x: x, y: row, role: .border)
            var col = x + 2
            // A banner shows only its first actions, as iOS does.
            for (i, action) in r.actions.prefix(state.card.preview?.actions ?? r.actions.count).enumerated() {
                let role: Role = action.options.contains(.destructive) ? .destructiveButton : .button
                col +=
                    s.put(
                        (state.card.pressedAction == i ? "▶" : " ") + DisplayText.clean(action.title) + " ", x: col, y: row, role: role,
                        maxWidth: x + boxWidth - 2 - col) + 1
            }
            s.put("│", x: x + boxWidth - 1, y: row, role: .border)
            row += 1
        }
        s.put("╰" + String(repeating: "─", count: boxWidth - 2) + "╯", x: x, y: row, role: .border)
        return row + 1
    }

    /// The text lines inside a box's borders, from row `y` until `bottom`; the row below them.
    static func boxLines(_ s: inout Screen, _ lines: [(String, Role)], x: Int, y: Int, boxWidth: Int, bottom: Int) -> Int {
        var row = y
        for (line, role) in lines where row < bottom {
            s.put("│", x: x, y: row, role: .border)
            s.put(line, x: x + 2, y: row, role: role, maxWidth: boxWidth - 4)
            s.put("│", x: x + boxWidth - 1, y: row, role: .border)
            row += 1
        }
        return row
    }

    /// An image's thumbnail inside a box's borders when it fits above `bottom`; the row below it.
    static func boxThumbnail(_ s: inout Screen, _ thumbnail: Thumbnail, x: Int, y: Int, boxWidth: Int, bottom: Int) -> Int {
        guard y + thumbnail.rows < bottom else { return y }
        for r in 0..<thumbnail.rows {
            s.put("│", x: x, y: y + r, role: .border)
            s.put("│", x: x + boxWidth - 1, y: y + r, role: .border)
        }
        s.put(thumbnail, x: x + 2, y: y)
        return y + thumbnail.rows
    }

    /// The card's outer width in the space it has.
    static func cardBoxWidth(_ state: InboxState, available: Int) -> Int {
        min(available, state.card.preview.map { $0.columns + 4 } ?? max(phoneWidth + 4, min(available, 72)))
    }

    /// The columns the card pane gets at this screen size.
    static func cardPaneWidth(_ state: InboxState) -> Int {
        state.width >= splitWidth ? state.width - max(36, state.width * 2 / 5) - 1 : state.width
    }

    /// The thumbnail the selected card shows: its file, its size in cells (the card's text width
    /// at most 32 columns, two pixels rows per cell row, at most 10 rows), and its cache key.
    public static func thumbnailRequest(_ state: InboxState, _ item: InboxItem) -> ThumbnailRequest? {
        // The Android card shows its own image (the SDK's download), the iPhone's its attachment.
        let android = state.card.platform == .android ? state.shown(item)?.android?.imageAttachment : nil
        guard state.palette > 0, state.card.tab == .card, let r = state.shown(item),
            let image = android ?? r.attachments.first(where: { $0.type.hasPrefix("image/") }), let w = image.width, let h = image.height, w > 0,
            h > 0
        else { return nil }
        let columns = min(32, cardBoxWidth(state, available: cardPaneWidth(state) - 2) - 4)
        guard columns >= 4 else { return nil }
        let rows = max(1, min(10, Int((Double(columns) * Double(h) / Double(w) / 2).rounded())))
        return ThumbnailRequest(path: image.path, columns: columns, rows: rows, palette: state.palette)
    }

    static func trace(_ s: inout Screen, _ state: InboxState, _ item: InboxItem, x: Int, y: Int, width: Int, height: Int) {
        if item.isRejected && state.renders[item.id] == nil {
            // Refused at intake: its answer is the whole trace (it is never rendered).
            let head = "validate".padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: "%8.2f ms  ", 0.0) + "rejected"
            s.put(head, x: x, y: y, role: .error, maxWidth: width)
            for (i, line) in DisplayText.wrap("\(item.status) \(item.reason ?? ""): \(item.detail ?? "")", width: max(10, width - 4), maxLines: 3)
                .enumerated()
            {
                s.put(line, x: x + 4, y: y + 1 + i, role: .muted, maxWidth: width - 4)
            }
            return
        }
        guard let r = state.shown(item) else {
            s.put("rendering…", x: x, y: y, role: .muted)
            return
        }
        var row = y
        for t in r.trace + responseLines(state, item) where row < y + height {
            let head =
                t.step.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: "%8.2f ms  ", t.ms)
                + t.outcome.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            s.put(head, x: x, y: row, role: t.outcome.isFailure ? .error : .normal, maxWidth: width)
            row += 1
            for line in DisplayText.wrap(t.detail, width: max(10, width - 4), maxLines: 3) where row < y + height {
                s.put(line, x: x + 4, y: row, role: .muted, maxWidth: width - 4)
                row += 1
            }
        }
        if !r.warnings.isEmpty, row < y + height - 1 {
            row += 1
            s.put("Warnings", x: x, y: row, role: .warning)
            row += 1
            for w in r.warnings where row < y + height {
                s.put("! " + DisplayText.clean(w.message), x: x, y: row, role: .warning, maxWidth: width)
                row += 1
            }
        }
    }

    static func compare(_ s: inout Screen, _ state: InboxState, _ item: InboxItem, x: Int, y: Int, width: Int, height: Int) {
        let r = state.shown(item)
        let rows: [(String, String?, String?)] = [
            ("As sent", item.sentTitle, item.sentBody),
            ("As delivered (\(r?.delivered.rawValue ?? "…"), \(r?.language ?? "-"))", r?.title, r?.body),
        ]
        var row = y
        for (label, title, body) in rows {
            s.put(label, x: x, y: row, role: .accent, maxWidth: width)
            row += 1
            s.put("title  " + DisplayText.line(title ?? "—"), x: x + 2, y: row, role: .title, maxWidth: width - 2)
            row += 1
            for (i, line) in DisplayText.wrap(body ?? "—", width: max(10, width - 9), maxLines: 4).enumerated() {
                s.put((i == 0 ? "body   " : "       ") + line, x: x + 2, y: row, role: .body, maxWidth: width - 2)
                row += 1
            }
            row += 1
        }
    }

    /// "now", "5m", "3h", "2d".
    static func relativeTime(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60)m ago"
        case ..<86400: return "\(seconds / 3600)h ago"
        default: return "\(seconds / 86400)d ago"
        }
    }
}
