import PushboxJSON
import PushboxLocalization

/// How iOS words what belongs to a stack rather than to one notification, in the device's
/// languages: the line under a collapsed stack (the category's `categorySummaryFormat`) and the
/// body shown when previews are hidden (`hiddenPreviewsBodyPlaceholder`).
///
/// Each text is a key of the app's strings (as `NSString.localizedUserNotificationString(forKey:arguments:)`
/// gives it, localized when shown) or, when the development language has no such key, the text itself.
public struct StackWording: Sendable {
    /// The app's name, which fills a summary format's `%@`.
    public var appName: String
    /// The app's categories.
    public var categories: [NotificationCategory]
    /// The app's localizations; nil: every text is taken as it is.
    public var localizer: Localizer?

    /// The wording of `appName`'s stacks from its categories and localizations.
    public init(appName: String, categories: [NotificationCategory], localizer: Localizer?) {
        self.appName = appName
        self.categories = categories
        self.localizer = localizer
    }

    /// What the line says and where it came from.
    public struct Line: Sendable, Equatable {
        /// The text.
        public var text: String
        /// The category's own format or placeholder (true), or iOS's default wording (false).
        public var fromCategory: Bool

        /// A line and where it came from.
        public init(text: String, fromCategory: Bool) {
            self.text = text
            self.fromCategory = fromCategory
        }
    }

    /// iOS's wording without a `categorySummaryFormat`: "N more notifications" (pushbox has
    /// English only: it does not carry iOS's own strings).
    public static func defaultSummary(more: Int) -> String { more == 1 ? "1 more notification" : "\(more) more notifications" }

    /// iOS's body when previews are hidden and the category names no placeholder.
    public static let defaultHiddenBody = "Notification"

    /// The line under a collapsed stack of `count` notifications whose newest is in `category`.
    ///
    /// Apple, `categorySummaryFormat`: "A format string for the summary description used when
    /// the system groups the category's notifications"; `%u` is the number and `%@` the list
    /// joined from each notification's `summaryArgument`, which iOS ignores since iOS 15
    /// (UNNotificationContent.h: "summaryArgument is ignored"). pushbox's choices where Apple is
    /// silent: `%u` counts the notifications behind the newest (the stack shows the newest
    /// card, "2 more messages" below it), and `%@` is the app's name.
    public func summary(category: String?, count: Int, preferred: [String]) -> Line {
        let more = max(0, count - 1)
        guard let format = categories.first(where: { $0.identifier == category })?.summaryFormat else {
            return Line(text: Self.defaultSummary(more: more), fromCategory: false)
        }
        return Line(text: text(format, args: [String(more), appName], preferred: preferred), fromCategory: true)
    }

    /// The body the card shows when previews are hidden, for a thread of `count` notifications.
    ///
    /// Apple, `hiddenPreviewsBodyPlaceholder`: "The placeholder text to display when the system
    /// disables notification previews for the app"; it "may contain the special characters `%u`
    /// as a placeholder for the number of messages with the same thread identifier", and a
    /// `.stringsdict` entry chooses the plural form.
    public func hiddenBody(category: String?, count: Int, preferred: [String]) -> Line {
        guard let placeholder = categories.first(where: { $0.identifier == category })?.hiddenPreviewsBodyPlaceholder else {
            return Line(text: Self.defaultHiddenBody, fromCategory: false)
        }
        return Line(text: text(placeholder, args: [String(max(1, count))], preferred: preferred), fromCategory: true)
    }

    /// `notification` as the card shows it with previews hidden: the category's placeholder as
    /// the body, the title and subtitle only when the category keeps them
    /// (`hiddenPreviewsShowTitle`, `hiddenPreviewsShowSubtitle`), no attachment and no sender.
    public func hidingPreview(_ notification: RenderedNotification, count: Int, preferred: [String]) -> RenderedNotification {
        let category = categories.first { $0.identifier == notification.category }
        var out = notification
        if category?.hiddenPreviewsShowTitle != true { out.title = nil }
        if category?.hiddenPreviewsShowSubtitle != true { out.subtitle = nil }
        out.body = hiddenBody(category: notification.category, count: count, preferred: preferred).text
        out.attachments = []
        out.communication = nil
        return out
    }

    /// `format` localized when the app's development language has it as a key, else taken as
    /// the text itself; then formatted with `args`.
    func text(_ format: String, args: [String], preferred: [String]) -> String {
        if let localizer, [localizer.app.developmentRegion, "Base"].contains(where: { localizer.app.table(localization: $0).entries[format] != nil })
        {
            return localizer.localize(format, args: args, preferred: preferred).text
        }
        var ignored: [Diagnostic] = []
        let language = preferred.first ?? "en"
        return FormatRenderer(numbers: NumberFormatterICU.forLanguage(language)).render(format, args, warnings: &ignored)
    }
}
