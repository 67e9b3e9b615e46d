import Foundation
import PushboxLocalization
import PushboxPayload

/// Which phone the card shows for an FCM message (`P`): the iPhone, the Android phone, or
/// both side by side when the card pane is wide enough.
public enum CardPlatform: String, Sendable, CaseIterable {
    case iphone, android, both

    /// The next one `P` shows; `both` only when there is room for two cards.
    func next(roomForBoth: Bool) -> CardPlatform {
        switch self {
        case .iphone: .android
        case .android: roomForBoth ? .both : .iphone
        case .both: .iphone
        }
    }
}

extension InboxView {
    /// Two cards need this many columns of card pane.
    static let sideBySideWidth = 2 * (phoneWidth + 4) + 2

    /// The card for the selected notification on the platform chosen: the iPhone's, the
    /// Android phone's, or both side by side.
    static func platformCards(_ s: inout Screen, _ state: InboxState, _ item: InboxItem, x: Int, y: Int, width: Int, height: Int) {
        guard let android = state.shown(item)?.android, state.card.platform != .iphone else {
            return notificationCard(&s, state, item, x: x, y: y, width: width, height: height)
        }
        if state.card.platform == .both, width >= sideBySideWidth {
            let half = (width - 2) / 2
            s.put("iPhone", x: x, y: y, role: .accent)
            s.put("Android", x: x + half + 2, y: y, role: .accent)
            notificationCard(&s, state, item, x: x, y: y + 1, width: half, height: height - 1)
            androidCard(&s, state, item, android, x: x + half + 2, y: y + 1, width: half, height: height - 1)
            return
        }
        s.put("Android", x: x, y: y, role: .accent)
        androidCard(&s, state, item, android, x: x, y: y + 1, width: width, height: height - 1)
    }

    /// The notification as Android draws it: small icon and app name, time, title, text
    /// (collapsed to one line in a banner or lock-screen preview, the big text otherwise), the
    /// image, then the channel and the folder the text came from.
    static func androidCard(_ s: inout Screen, _ state: InboxState, _ item: InboxItem, _ a: AndroidRendering, x: Int, y: Int, width: Int, height: Int)
    {
        guard a.delivered == .shown else {
            let headline =
                switch a.reason {
                case "foreground": "Not shown: the app is in the foreground (onMessageReceived)"
                case "data-message": "Not shown: a data message goes to the app"
                case "NotTargeted": "Not shown on this device"
                default: "Not shown: \(a.reason ?? "")"
                }
            var row = y
            s.put(headline, x: x, y: row, role: .warning, maxWidth: width)
            row += 1
            for w in a.warnings where row < y + height {
                for line in DisplayText.wrap("! " + DisplayText.clean(w.message), width: width) where row < y + height {
                    s.put(line, x: x, y: row, role: w.severity == .error ? .error : .warning, maxWidth: width)
                    row += 1
                }
            }
            return
        }
        let boxWidth = min(width, max(phoneWidth + 4, min(width, 72)))
        let text = boxWidth - 4
        let language = a.locale ?? state.device.languages.first
        let rightToLeft = isRightToLeftLanguage(language)
        let lockScreen = state.card.preview == .lockScreen
        let collapsed = state.card.preview != nil && state.card.preview != .expanded
        var lines: [(String, Role)] = []
        func set(_ paragraph: String, role: Role, maxLines: Int?) {
            lines += paragraphLines(
                paragraph, role: role, maxLines: maxLines, width: text, language: language, mirrored: rightToLeft, bidi: state.bidi)
        }
        if lockScreen && a.visibility != "public" {
            lines.append((a.visibility == "secret" ? "(nothing shows on a secure lock screen)" : "Contents hidden", .muted))
        } else {
            if let t = a.title { set(t, role: .title, maxLines: 1) }
            // Collapsed: one line of text; expanded: BigTextStyle, the whole body.
            if let b = a.body { set(b, role: .body, maxLines: collapsed ? 1 : nil) }
            if a.title == nil && a.body == nil { lines.append(("(no title, no text: the header only)", .muted)) }
            if let image = a.imageAttachment {
                let size = image.width.map { " · \($0)×\(image.height ?? 0)" } ?? ""
                lines.append(
                    (
                        "▧ \((image.path as NSString).lastPathComponent.prefix(12))… · \(image.type) · \(ByteFormat.describe(image.bytes))\(size)",
                        .accent
                    ))
            } else if let image = a.image {
                lines.append(("▧ " + DisplayText.line(image) + " (not shown)", .muted))
            }
        }
        var row = y
        s.put("┌" + String(repeating: "─", count: boxWidth - 2) + "┐", x: x, y: row, role: .border)
        row += 1
        s.put("│", x: x, y: row, role: .border)
        let age = state.now.map { relativeTime(item.receivedAt, now: $0) } ?? ""
        let when = a.eventTime.map { "event " + DisplayText.line($0) } ?? age
        let header = "◉ " + DisplayText.clean(a.appName) + " · " + when
        // A right-to-left locale mirrors the header too.
        let headerWidth = min(DisplayWidth.of(header), text)
        s.put(header, x: rightToLeft ? x + 2 + text - headerWidth : x + 2, y: row, role: .muted, maxWidth: text)
        s.put("│", x: x + boxWidth - 1, y: row, role: .border)
        row += 1
        row = boxLines(&s, lines, x: x, y: row, boxWidth: boxWidth, bottom: y + height - 3)
        if state.card.platform == .android, a.imageAttachment != nil, !lockScreen, let request = thumbnailRequest(state, item),
            let thumbnail = state.thumbnails[request]
        {
            row = boxThumbnail(&s, thumbnail, x: x, y: row, boxWidth: boxWidth, bottom: y + height - 3)
        }
        s.put("└" + String(repeating: "─", count: boxWidth - 2) + "┘", x: x, y: row, role: .border)
        row += 1
        var facts = [
            a.language ?? "literal text", "channel \(DisplayText.line(a.channel.id)) (\(DisplayText.line(a.channel.name)), \(a.channel.importance))",
            "icon \(DisplayText.line(a.icon))",
        ]
        if let c = a.color { facts.append(c) }
        s.put(facts.joined(separator: " · "), x: x, y: row, role: .muted, maxWidth: width)
        row += 1
        var more: [String] = []
        if let tag = a.tag {
            // The same tag replaces the notification shown under it in Android's tray.
            let sameTag = state.list.items.filter { $0.id != item.id && state.renders[$0.id]?.android?.tag == tag }
            if sameTag.contains(where: { $0.receivedAt > item.receivedAt }) {
                more.append("tag \(DisplayText.line(tag)): replaced on Android by a later one")
            } else if !sameTag.isEmpty {
                more.append("tag \(DisplayText.line(tag)): replaces the earlier one on Android")
            } else {
                more.append("tag \(DisplayText.line(tag))")
            }
        }
        if let n = a.notificationCount { more.append("count \(n)") }
        if a.sticky { more.append("sticky") }
        if a.visibility != "private" { more.append("visibility \(a.visibility)") }
        if let action = a.clickAction { more.append("tap opens \(DisplayText.line(action))") }
        if !more.isEmpty, row < y + height {
            s.put(more.joined(separator: " · "), x: x, y: row, role: .muted, maxWidth: width)
            row += 1
        }
        for w in a.warnings where row < y + height {
            for line in DisplayText.wrap("! " + DisplayText.clean(w.message), width: width) where row < y + height {
                s.put(line, x: x, y: row, role: w.severity == .error ? .error : .warning, maxWidth: width)
                row += 1
            }
        }
    }
}
