import Foundation
import PushboxPayload

extension InboxView {
    /// One notification's card as the inbox draws it, as plain text (no colour), for golden
    /// files: `width` columns, the card only, trailing blanks and blank lines at the end dropped.
    /// `android` draws the Android phone's card; the time is "now", so the text is stable.
    public static func cardText(
        _ rendering: RenderedNotification, appName: String, language: String, width: Int, preview: PreviewProfile?, android: Bool
    ) -> [String] {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var state = InboxState(appName: appName, languages: [language], languageChoices: [language])
        state.width = width
        state.height = 60
        state.now = now
        state.timeZone = TimeZone(identifier: "UTC")!
        state.list.items = [InboxItem(id: 1, apnsID: "snapshot", receivedAt: now, source: "file", status: rendering.status)]
        state.renders = [1: rendering]
        state.list.selected = 0
        state.card.preview = preview
        state.card.platform = android ? .android : .iphone
        var screen = Screen(width: width, height: state.height)
        guard let item = state.selectedItem else { return [] }
        if android {
            platformCards(&screen, state, item, x: 0, y: 0, width: width, height: state.height)
        } else {
            notificationCard(&screen, state, item, x: 0, y: 0, width: width, height: state.height)
        }
        var lines = screen.lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
