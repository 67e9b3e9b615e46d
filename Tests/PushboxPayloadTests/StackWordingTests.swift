import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxTestSupport
import Testing

/// A stack's summary line and the hidden-previews placeholder, worded from the app's categories
/// and strings in the device's language.
@Suite("Stacks and hidden previews")
struct StackWordingTests {
    /// The sample app's wording: category MESSAGE has `CHAT_SUMMARY_FORMAT` (a .stringsdict
    /// plural in en, ar, ru…; plain in ja) and `CHAT_HIDDEN_PREVIEW`.
    static func sample() throws -> StackWording {
        let profile = try AppProfile.load(directory: ProjectPaths.sampleApp)
        let app = AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)
        return StackWording(appName: profile.name, categories: profile.categories, localizer: Localizer(app: app))
    }

    @Test(
        "categorySummaryFormat: %u counts the notifications behind the newest, %@ is the app, the plural from the language's .stringsdict (Apple, UNNotificationCategory.categorySummaryFormat)",
        arguments: [
            ("en-US", 2, "1 more message from Pushbox Sample"), ("en-US", 3, "2 more messages from Pushbox Sample"),
            ("ar-EG", 3, "رسالتان أخريان من Pushbox Sample"), ("ar-EG", 5, "٤ رسائل أخرى من Pushbox Sample"),
            ("ru-RU", 6, "Ещё 5 сообщений от Pushbox Sample"), ("ja-JP", 3, "Pushbox Sampleからのメッセージ、ほか2件"),
        ])
    func summary(language: String, count: Int, expected: String) throws {
        let line = try Self.sample().summary(category: "MESSAGE", count: count, preferred: [language])
        #expect(line == StackWording.Line(text: expected, fromCategory: true))
    }

    @Test("a category without a format, or no category, gets iOS's own \"N more notifications\"")
    func defaultSummary() throws {
        let wording = try Self.sample()
        #expect(wording.summary(category: "ALARM", count: 3, preferred: ["ja-JP"]) == .init(text: "2 more notifications", fromCategory: false))
        #expect(wording.summary(category: nil, count: 2, preferred: ["en"]).text == "1 more notification")
    }

    @Test("a format that is no key of the app's strings is the text itself, formatted with the count and the app")
    func literalFormat() {
        let wording = StackWording(
            appName: "Chat", categories: [NotificationCategory(identifier: "M", actions: [], summaryFormat: "%u more from %@")], localizer: nil)
        #expect(wording.summary(category: "M", count: 4, preferred: ["en"]).text == "3 more from Chat")
    }

    @Test(
        "hiddenPreviewsBodyPlaceholder: %u is the number in the thread, the .stringsdict chooses the form; without one iOS says \"Notification\" (Apple, UNNotificationCategory.hiddenPreviewsBodyPlaceholder)"
    )
    func hiddenBody() throws {
        let wording = try Self.sample()
        #expect(wording.hiddenBody(category: "MESSAGE", count: 1, preferred: ["en"]).text == "1 new message")
        #expect(wording.hiddenBody(category: "MESSAGE", count: 2, preferred: ["ar"]).text == "رسالتان جديدتان")
        #expect(wording.hiddenBody(category: "MESSAGE", count: 3, preferred: ["ja"]).text == "3件の新着メッセージ")
        #expect(wording.hiddenBody(category: "ALARM", count: 3, preferred: ["en"]) == .init(text: "Notification", fromCategory: false))
    }

    @Test("with previews hidden the card keeps only what the category lets it: the placeholder, the title when hiddenPreviewsShowTitle")
    func hidingPreview() {
        var n = RenderedNotification(delivered: .original)
        (n.title, n.subtitle, n.body, n.category) = ("Mina", "Family", "Dinner at 7?", "M")
        n.attachments = [RenderedAttachment(path: "/a.png", type: "image/png", bytes: 1, width: 1, height: 1, source: "https://x/a.png")]
        n.communication = Communication(sender: "Mina")
        let hiding = StackWording(
            appName: "Chat", categories: [NotificationCategory(identifier: "M", actions: [], hiddenPreviewsBodyPlaceholder: "%u new")],
            localizer: nil)
        let hidden = hiding.hidingPreview(n, count: 2, preferred: ["en"])
        #expect(hidden.title == nil && hidden.subtitle == nil && hidden.body == "2 new")
        #expect(hidden.attachments.isEmpty && hidden.communication == nil)
        let keeping = StackWording(
            appName: "Chat", categories: [NotificationCategory(identifier: "M", actions: [], hiddenPreviewsShowTitle: true)], localizer: nil)
        let titled = keeping.hidingPreview(n, count: 1, preferred: ["en"])
        #expect(titled.title == "Mina" && titled.subtitle == nil && titled.body == "Notification")
    }

    @Test("the profile reads UNNotificationCategory's names, and a mistyped one fails at its path")
    func profileKeys() throws {
        let good = Array(
            #"{"categories": {"M": {"actions": [], "categorySummaryFormat": "K", "hiddenPreviewsBodyPlaceholder": "P", "hiddenPreviewsShowSubtitle": true}}}"#
                .utf8)
        let category = try #require(try AppProfile.parse(good, directory: "/app").category("M"))
        #expect(category.summaryFormat == "K" && category.hiddenPreviewsBodyPlaceholder == "P")
        #expect(category.hiddenPreviewsShowSubtitle && !category.hiddenPreviewsShowTitle)
        let bad = Array(#"{"categories": {"M": {"summaryArgument": "x"}}}"#.utf8)
        #expect(throws: AppProfile.LoadError.self) { try AppProfile.parse(bad, directory: "/app") }
        do {
            _ = try AppProfile.parse(Array(#"{"categories": {"M": {"hiddenPreviewsShowTitle": "yes"}}}"#.utf8), directory: "/app")
            Issue.record("a string for a flag was read")
        } catch { #expect(error.path == "categories.M.hiddenPreviewsShowTitle") }
    }
}
