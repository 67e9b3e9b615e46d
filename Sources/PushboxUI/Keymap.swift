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
    case pressAction, tap
    case scheduledView, fastForward, jumpClock
}

/// One binding: the keys, the action, and what help says about it.
public struct KeyBinding: Sendable {
    /// The keys that do it; the first is shown in help and footer.
    public var keys: [Key]
    /// What they do.
    public var action: Action
    /// The help line.
    public var description: String
    /// Shown in the footer.
    public var inFooter: Bool
}

/// The keymap tables; help and the footer are generated from them (tig's requests, lazygit's bindings).
public enum Keymap {
    /// The inbox's keys: the only way keys reach `update` outside an overlay.
    public static let inbox: [KeyBinding] = [
        KeyBinding(keys: [.char("j"), .down], action: .moveDown, description: "next notification", inFooter: false),
        KeyBinding(keys: [.char("k"), .up], action: .moveUp, description: "previous notification", inFooter: false),
        KeyBinding(keys: [.pageDown, .char("J")], action: .pageDown, description: "page down", inFooter: false),
        KeyBinding(keys: [.pageUp, .char("K")], action: .pageUp, description: "page up", inFooter: false),
        KeyBinding(keys: [.home, .char("g")], action: .top, description: "newest", inFooter: false),
        KeyBinding(keys: [.end, .char("G")], action: .bottom, description: "oldest", inFooter: false),
        KeyBinding(keys: [.enter], action: .open, description: "open the card (narrow screens) / back to the list", inFooter: false),
        KeyBinding(keys: [.tab, .char("l"), .right], action: .nextTab, description: "next view: card, trace, before/after, raw", inFooter: true),
        KeyBinding(keys: [.backTab, .char("h"), .left], action: .previousTab, description: "previous view", inFooter: false),
        KeyBinding(keys: [.char("z"), .char(" ")], action: .toggleThread, description: "collapse or expand the thread", inFooter: false),
        KeyBinding(keys: [.char("L")], action: .pickLanguage, description: "choose the device language", inFooter: true),
        KeyBinding(keys: [.char("]")], action: .nextLanguage, description: "next language", inFooter: true),
        KeyBinding(keys: [.char("[")], action: .previousLanguage, description: "previous language", inFooter: false),
        KeyBinding(keys: [.char("m")], action: .localeMatrix, description: "this notification in every language", inFooter: true),
        KeyBinding(keys: [.char("p")], action: .lockScreenPreview, description: "lock-screen truncation on or off", inFooter: false),
        KeyBinding(
            keys: [.char("a")], action: .pressAction, description: "press the next action button (shows what the app receives)", inFooter: false),
        KeyBinding(
            keys: [.char("o")], action: .tap,
            description: "tap the notification (shows what the app receives: the default action, userInfo, deep link)", inFooter: false),
        KeyBinding(
            keys: [.char("s")], action: .scheduledView, description: "scheduled: pending local notifications, n/64, what was dropped", inFooter: false
        ),
        KeyBinding(keys: [.char("+")], action: .fastForward, description: "fast-forward the device clock one minute", inFooter: false),
        KeyBinding(
            keys: [.char(">")], action: .jumpClock, description: "jump the device clock to the next pending local notification", inFooter: false),
        KeyBinding(keys: [.char("t")], action: .cycleTheme, description: "next theme", inFooter: false),
        KeyBinding(keys: [.char("/")], action: .search, description: "search title, body, app and keys", inFooter: true),
        KeyBinding(
            keys: [.char("f")], action: .cycleFilter, description: "filter: all, rejected, with warnings, each app (when several)", inFooter: false),
        KeyBinding(keys: [.char("r")], action: .replay, description: "replay the selected notification", inFooter: false),
        KeyBinding(keys: [.char("d")], action: .delete, description: "delete the selected notification", inFooter: false),
        KeyBinding(keys: [.char("e")], action: .export, description: "export the selected notification as a .apns file", inFooter: false),
        KeyBinding(keys: [.char("?")], action: .help, description: "this help", inFooter: true),
        KeyBinding(keys: [.char("q")], action: .quit, description: "quit", inFooter: true),
    ]

    /// Keys while an overlay (help, picker, matrix) is open.
    public static let overlay: [KeyBinding] = [
        KeyBinding(keys: [.char("j"), .down], action: .moveDown, description: "next", inFooter: false),
        KeyBinding(keys: [.char("k"), .up], action: .moveUp, description: "previous", inFooter: false),
        KeyBinding(keys: [.enter], action: .open, description: "choose", inFooter: true),
        KeyBinding(keys: [.escape, .char("q")], action: .close, description: "close", inFooter: true),
    ]

    /// The action `key` is bound to in `table`, if any.
    public static func action(for key: Key, in table: [KeyBinding]) -> Action? {
        table.first { $0.keys.contains(key) }?.action
    }

    /// The help text, one line a binding.
    public static func helpLines(_ table: [KeyBinding]) -> [String] {
        let labels = table.map { $0.keys.map(\.label).joined(separator: " ") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        return zip(labels, table).map { $0.padding(toLength: width, withPad: " ", startingAt: 0) + $1.description }
    }

    /// The footer: "Tab next view · L language · …".
    public static func footer(_ table: [KeyBinding]) -> String {
        table.filter(\.inFooter).map { "\($0.keys[0].label) \(shortName($0.action))" }.joined(separator: " · ")
    }

    static func shortName(_ a: Action) -> String {
        switch a {
        case .nextTab: return "view"
        case .pickLanguage: return "language"
        case .nextLanguage: return "next language"
        case .localeMatrix: return "matrix"
        case .search: return "search"
        case .help: return "help"
        case .quit: return "quit"
        case .open: return "choose"
        case .close: return "close"
        case .scheduledView: return "scheduled"
        default: return a.rawValue
        }
    }
}
