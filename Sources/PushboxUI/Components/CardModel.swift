import PushboxPayload

/// The card's views.
public enum Tab: Int, Sendable, CaseIterable {
    case card, trace, compare, raw

    /// The tab's label.
    public var title: String {
        switch self {
        case .card: return "Card"
        case .trace: return "Trace"
        case .compare: return "Before/After"
        case .raw: return "Raw"
        }
    }
}

/// The card component: which view of the selected notification shows, how, and what the app
/// received from taps and action buttons.
public struct CardModel: Sendable {
    /// The view shown.
    public var tab: Tab = .card
    /// On narrow screens the card takes the whole screen.
    public var open = false
    /// The presentation previewed (`p`: banner, lock screen, expanded; nil: the whole card).
    public var preview: PreviewProfile?
    /// Whether the lock-screen preview is on.
    public var lockScreen: Bool {
        get { preview == .lockScreen }
        set { preview = newValue ? .lockScreen : nil }
    }

    /// The next presentation `p` shows: none → banner → lock screen → expanded → none.
    mutating func stepPreview() {
        let all = PreviewProfile.all
        if let current = preview, let i = all.firstIndex(of: current) {
            preview = i + 1 < all.count ? all[i + 1] : nil
        } else {
            preview = all.first
        }
    }
    /// The phone an FCM message's card shows (`P`).
    public var platform: CardPlatform = .iphone
    /// Index of the action button pressed last on the selected card.
    public var pressedAction: Int?
    /// What the app received for each tap or action, by notification (shown in the trace).
    public var responses: [Int64: [TraceEntry]] = [:]

    /// The card with its first view.
    public init() {}

    /// The next (`step` 1) or previous (-1) view, round.
    mutating func stepTab(_ step: Int) {
        let count = Tab.allCases.count
        tab = Tab.allCases[(tab.rawValue + step + count) % count]
    }
}
