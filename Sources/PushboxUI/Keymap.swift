/// A key as the terminal layer reports it.
public enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right, pageUp, pageDown, home, end, enter, escape, backspace, tab, backTab

    /// How help shows the key.
    public var label: String {
        switch self {
        case .char(" "): return "space"
        case .char(let c): return String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "⌫"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        }
    }
}

/// Everything a key can ask for, by name.
public enum Action: String, Sendable, CaseIterable {
    case moveUp, moveDown, pageUp, pageDown, top, bottom
    case open, nextTab, previousTab, toggleThread
    case pickLanguage, nextLanguage, previousLanguage, localeMatrix, lockScreenPreview
    case cycleTheme, search, cycleFilter, replay, delete, export, help, quit, close
    case pressAction, tap, switchPlatform
    case scheduledView, fastForward, jumpClock, requestsView, toggleInstalled, toggleOnline, deviceView, undoDelete, clearSearch
    case activitiesView, clearInbox
    case nextDevice, previousDevice, fleetView
    case chaosView, toggleChaosRule, addChaosRule, removeChaosRule, clearChaos
}

/// Why an action cannot be done now; the footer says it (the view words it).
public enum Unavailable: Sendable, Equatable {
    /// The scheduled view and the device clock need local notifications kept.
    case noLocalNotifications
    /// `a` on a card without action buttons.
    case noActionButtons
    /// `o` on a notification that was not delivered.
    case notDelivered
    /// `o` on a background event, which shows no banner.
    case nothingToTap
    /// `d` on a thread's header, which is not one notification.
    case threadHeader
    /// `u` with nothing deleted since the inbox opened.
    case nothingDeleted
    /// `P` on a notification that is not an FCM message (only an iPhone receives it).
    case notFCM
    /// `o` or `a` before the notification's payload was read (it is read when selected).
    case payloadNotRead
    /// `v` or `F` with no device added to the inbox.
    case noFleet
}

/// One binding: the keys, the action, what help and the footer say about it, and when it cannot be done.
public struct KeyBinding: Sendable {
    /// The keys that do it; the first is shown in help and footer.
    public var keys: [Key]
    /// What they do.
    public var action: Action
    /// The help line.
    public var description: String
    /// Its label in the footer (`Tab view`); nil keeps it out of the footer.
    public var footer: String?
    /// Why it cannot be done in this state, if it cannot; checked before the action runs.
    public var unavailable: (@Sendable (InboxState) -> Unavailable?)?

    /// A binding of `keys` to `action`.
    public init(
        _ keys: [Key], _ action: Action, _ description: String, footer: String? = nil,
        unavailable: (@Sendable (InboxState) -> Unavailable?)? = nil
    ) {
        self.keys = keys
        self.action = action
        self.description = description
        self.footer = footer
        self.unavailable = unavailable
    }
}

/// The keymap tables; help and the footer are generated from them (tig's requests, lazygit's bindings).
public enum Keymap {
    /// Local notifications are kept by this instance (else the scheduled view and the clock are unavailable).
    static let needsScheduler: @Sendable (InboxState) -> Unavailable? = { $0.scheduled == nil ? .noLocalNotifications : nil }
    /// Devices added to the inbox (else there is no other device to show).
    static let needsFleet: @Sendable (InboxState) -> Unavailable? = { $0.hasFleet ? nil : .noFleet }
    /// A key that acts on one notification, on a thread's header.
    static let needsNotification: @Sendable (InboxState) -> Unavailable? = { $0.selectedItem == nil && !$0.rows.isEmpty ? .threadHeader : nil }

    /// The inbox's keys: the only way keys reach `update` outside an overlay.
    public static let inbox: [KeyBinding] = [
        KeyBinding([.char("j"), .down], .moveDown, "next notification"),
        KeyBinding([.char("k"), .up], .moveUp, "previous notification"),
        KeyBinding([.pageDown, .char("J")], .pageDown, "page down"),
        KeyBinding([.pageUp, .char("K")], .pageUp, "page up"),
        KeyBinding([.home, .char("g")], .top, "newest"),
        KeyBinding([.end, .char("G")], .bottom, "oldest"),
        KeyBinding([.enter], .open, "open the card (narrow screens) / back to the list"),
        KeyBinding([.tab, .char("l"), .right], .nextTab, "next view: card, trace, before/after, raw", footer: "view"),
        KeyBinding([.backTab, .char("h"), .left], .previousTab, "previous view"),
        KeyBinding(
            [.char("z"), .char(" ")], .toggleThread,
            "collapse or expand the thread or the summary"),
        KeyBinding([.char("L")], .pickLanguage, "choose the device language", footer: "language"),
        KeyBinding([.char("]")], .nextLanguage, "next language", footer: "next language"),
        KeyBinding([.char("[")], .previousLanguage, "previous language"),
        KeyBinding([.char("m")], .localeMatrix, "this notification in every language", footer: "matrix"),
        KeyBinding(
            [.char("P")], .switchPlatform, "an FCM message on the iPhone, on Android, or both side by side (when wide enough)", footer: "phone",
            unavailable: { state in state.selectedItem.flatMap { state.shown($0)?.android } == nil ? .notFCM : nil }),
        KeyBinding([.char("p")], .lockScreenPreview, "preview: banner, lock screen, expanded, whole card (approximate)"),
        KeyBinding([.char("a")], .pressAction, "press the next action button (shows what the app receives)"),
        KeyBinding([.char("o")], .tap, "tap the notification (shows what the app receives: the default action, userInfo, deep link)"),
        KeyBinding([.char("s")], .scheduledView, "scheduled: pending local notifications, n/64, what was dropped", unavailable: needsScheduler),
        KeyBinding([.char("+")], .fastForward, "fast-forward the device clock one minute", unavailable: needsScheduler),
        KeyBinding([.char(">")], .jumpClock, "jump the device clock to the next pending local notification", unavailable: needsScheduler),
        KeyBinding([.char("A")], .activitiesView, "Live Activities: phase, Dynamic Island order, content, pushes applied or dropped"),
        KeyBinding([.char("R")], .requestsView, "requests: every HTTP request on record, refused ones marked with why"),
        KeyBinding([.char("C")], .chaosView, "chaos: APNs and FCM failing on purpose — the rules, on and off, added and removed"),
        KeyBinding([.char("D")], .deviceView, "the device shown: its tokens, whether it is online, its FCM topics and who subscribed it"),
        KeyBinding([.char("v")], .nextDevice, "show the next device of the fleet: its notifications, in its languages", unavailable: needsFleet),
        KeyBinding([.char("V")], .previousDevice, "show the previous device of the fleet", unavailable: needsFleet),
        KeyBinding(
            [.char("F")], .fleetView, "fleet: this push on every device, each card or why it did not get it, and the campaign's findings",
            unavailable: { state in needsFleet(state) ?? needsNotification(state) }),
        KeyBinding([.char("U")], .toggleInstalled, "uninstall or install the app on the device shown (APNs 410 Unregistered, FCM 404 UNREGISTERED)"),
        KeyBinding([.char("O")], .toggleOnline, "take the device shown offline or back online (the push service keeps pushes meanwhile)"),
        KeyBinding([.char("t")], .cycleTheme, "next theme"),
        KeyBinding(
            [.char("/")], .search, "search: words anywhere in a notification, and fields (device:ja lang:ko status:4xx -has:warning …)",
            footer: "search"),
        KeyBinding([.char("f")], .cycleFilter, "filter: all, rejected, with warnings, each app (when several)"),
        KeyBinding([.char("r")], .replay, "replay the selected notification"),
        KeyBinding([.char("d")], .delete, "delete the selected notification (u brings it back)", unavailable: needsNotification),
        KeyBinding([.char("X")], .clearInbox, "clear the inbox: every notification deleted (press X again to confirm)"),
        KeyBinding([.char("u")], .undoDelete, "undo the last deletion", unavailable: { $0.lastDeleted == nil ? .nothingDeleted : nil }),
        KeyBinding([.escape], .clearSearch, "clear the search and the filter"),
        KeyBinding([.char("e")], .export, "export the selected notification as a .apns file"),
        KeyBinding([.char("?")], .help, "this help", footer: "help"),
        KeyBinding([.char("q")], .quit, "quit", footer: "quit"),
    ]

    /// Keys while an overlay (help, matrix, a response, requests, the device) is open: it scrolls.
    public static let overlay: [KeyBinding] = [
        KeyBinding([.char("j"), .down], .moveDown, "scroll down", footer: "scroll"),
        KeyBinding([.char("k"), .up], .moveUp, "scroll up"),
        KeyBinding([.pageDown, .char("J")], .pageDown, "page down"),
        KeyBinding([.pageUp, .char("K")], .pageUp, "page up"),
        KeyBinding([.escape, .char("q"), .enter], .close, "close", footer: "close"),
    ]

    /// Keys in the language picker: move, choose, close.
    public static let picker: [KeyBinding] = [
        KeyBinding([.char("j"), .down], .moveDown, "next"),
        KeyBinding([.char("k"), .up], .moveUp, "previous"),
        KeyBinding([.enter], .open, "choose", footer: "choose"),
        KeyBinding([.char("/")], .search, "type any language tag (BCP 47: ja-JP, he-IL)", footer: "type a tag"),
        KeyBinding([.escape, .char("q")], .close, "close", footer: "close"),
    ]

    /// Keys in the Scheduled view: the device clock, and closing it.
    public static let scheduled: [KeyBinding] = [
        KeyBinding([.char("+")], .fastForward, "fast-forward the device clock one minute", footer: "fast-forward"),
        KeyBinding([.char(">")], .jumpClock, "jump the device clock to the next pending local notification", footer: "next pending"),
        KeyBinding([.escape, .char("q"), .enter, .char("s")], .close, "close", footer: "close"),
    ]

    /// Keys in the Live Activities view: it scrolls, and the device clock moves.
    public static let activities: [KeyBinding] =
        [
            KeyBinding([.char("+")], .fastForward, "fast-forward the device clock one minute", footer: "fast-forward", unavailable: needsScheduler),
            KeyBinding(
                [.char(">")], .jumpClock, "jump the device clock to the next pending local notification", unavailable: needsScheduler),
        ] + overlay.map { b in b.action == .close ? KeyBinding(b.keys + [.char("A")], .close, b.description, footer: b.footer) : b }

    /// Keys in the chaos view: choose a rule, switch it, add one, remove it, clear them.
    public static let chaos: [KeyBinding] = [
        KeyBinding([.char("j"), .down], .moveDown, "next rule"),
        KeyBinding([.char("k"), .up], .moveUp, "previous rule"),
        KeyBinding([.char(" ")], .toggleChaosRule, "switch the rule on or off", footer: "on/off"),
        KeyBinding([.char("a")], .addChaosRule, "add a rule: type it (fcm 503 UNAVAILABLE next=2), Enter adds it", footer: "add"),
        KeyBinding([.char("d")], .removeChaosRule, "remove the rule", footer: "remove"),
        KeyBinding([.char("X")], .clearChaos, "remove every rule"),
        KeyBinding([.escape, .char("q"), .char("C")], .close, "close", footer: "close"),
    ]

    /// The table that has the keys in this state: the open overlay's, or the inbox's.
    public static func table(for overlay: Overlay?) -> [KeyBinding] {
        switch overlay {
        case nil: return inbox
        case .scheduled?: return scheduled
        case .activities?: return activities
        case .languagePicker?: return picker
        case .chaos?: return chaos
        default: return Self.overlay
        }
    }

    /// The binding `key` has in `table`, if any.
    public static func binding(for key: Key, in table: [KeyBinding]) -> KeyBinding? {
        table.first { $0.keys.contains(key) }
    }

    /// The action `key` is bound to in `table`, if any.
    public static func action(for key: Key, in table: [KeyBinding]) -> Action? { binding(for: key, in: table)?.action }

    /// The help text, one line a binding.
    public static func helpLines(_ table: [KeyBinding]) -> [String] {
        let labels = table.map { $0.keys.map(\.label).joined(separator: " ") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        return zip(labels, table).map { $0.padding(toLength: width, withPad: " ", startingAt: 0) + $1.description }
    }

    /// The footer: "Tab view · L language · …".
    public static func footer(_ table: [KeyBinding]) -> String {
        table.compactMap { b in b.footer.map { "\(b.keys[0].label) \($0)" } }.joined(separator: " · ")
    }
}
