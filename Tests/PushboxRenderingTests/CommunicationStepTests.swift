import Foundation
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxLoopback
import PushboxRendering
import PushboxTestSupport
import Testing

@testable import PushboxPayload

/// The communication step, as Apple's "Implementing communication notifications" describes the
/// extension's work: an INSendMessageIntent from the payload, donated, and the content updated
/// from it — the sender as the title, the group as the subtitle, the avatar. Each pitfall people
/// met is a finding: no capability (home-assistant/iOS #5570), a file:// avatar that does not
/// persist, an avatar download the budget cuts (bluesky-social/social-app #10326), a group name
/// for a one-to-one chat.
@Suite("The communication step")
final class CommunicationStepTests {
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-comm-\(UUID().uuidString)").path
    deinit { try? FileManager.default.removeItem(atPath: cache) }

    static let png = Array(FileManager.default.contents(atPath: ProjectPaths.samples + "/media/lighthouse.png") ?? Data())
    static let step = ExtensionRecipe.PlannedStep(
        .communicate(
            .init(
                sender: "sender.name", handle: "sender.id", avatar: "sender.avatar", group: "chat.name", conversation: "chat.id",
                recipients: "chat.members", direction: "chat.direction")),
        critical: false)

    func render(
        _ avatar: String, group: String? = "Family", members: Int = 3, capabilities: Set<AppCapability>? = [.communicationNotifications],
        timeLimit: Double = 30, direction: String? = nil
    )
        -> RenderedNotification
    {
        var recipe = ExtensionRecipe(steps: [Self.step])
        recipe.timeLimit = timeLimit
        var context = ValidationContext()
        context.capabilities = capabilities
        let renderer = Renderer(
            context: context, preferredLanguages: ["en"], localizer: nil,
            extensionSetup: Renderer.ExtensionSetup(
                recipe: recipe, fetcher: AttachmentFetcher(cacheDirectory: cache, allowedRoots: []), appDirectory: nil, keyFile: nil))
        let chat =
            group.map {
                #","chat":{"name":"\#($0)","id":"c-1","members":\#(Array(repeating: "\"m\"", count: members))\#(direction.map { #","direction":"\#($0)""# } ?? "")}"#
            } ?? #","chat":{"id":"c-1"}"#
        let text =
            #"{"aps":{"alert":{"title":"New message","body":"Dinner at 7?"},"mutable-content":1},"sender":{"name":"Mina","id":"mina@example.com","avatar":"\#(avatar)"}\#(chat)}"#
        return renderer.render(RawPayload(bytes: Array(text.utf8), envelope: Envelope(source: .commandLine)))
    }

    func codes(_ n: RenderedNotification) -> [String] {
        n.warnings.map(\.code.rawValue).filter { $0.hasPrefix("communication-") }
    }

    @Test(
        "a message marked outgoing is donated as outgoing, with a finding: Apple's guide donates received messages as incoming (Implementing communication notifications)"
    )
    func outgoing() {
        let n = render("", direction: "outgoing")
        #expect(n.communication?.direction == "outgoing" && codes(n).contains("communication-outgoing"))
        let incoming = render("", direction: "incoming")
        #expect(incoming.communication?.direction == "incoming" && !codes(incoming).contains("communication-outgoing"))
    }

    @Test("donated: the sender is the title, the group the subtitle, the avatar downloaded; render --json says communication")
    func donated() throws {
        let server = try LoopbackHTTPServer { _ in .init(headers: [("Content-Type", "image/png")], body: Self.png) }
        defer { server.stop() }
        let n = render(server.baseURL + "/mina.png")
        #expect(n.delivered == .modified && n.title == "Mina" && n.subtitle == "Family" && n.body == "Dinner at 7?")
        let c = try #require(n.communication)
        #expect(c.handle == "mina@example.com" && c.conversation == "c-1" && c.avatar?.width == 320)
        #expect(codes(n).isEmpty)
        #expect(n.json.objectValue?["communication"]?.objectValue?["sender"] == "Mina")
    }

    @Test("without the capability: no intent, the notification as it was, and the finding")
    func noCapability() {
        let n = render("https://example.invalid/a.png", capabilities: [.timeSensitive])
        #expect(n.communication == nil && n.title == "New message")
        #expect(codes(n) == ["communication-capability"])
        // A profile that does not list its capabilities is not judged.
        #expect(codes(render("file:///tmp/a.png", capabilities: nil)) == ["communication-avatar-file-url"])
    }

    @Test("a file:// avatar does not persist; a group name for one recipient is a finding")
    func fileAvatarAndOneToOne() {
        let n = render("file:///var/mobile/avatar.png", members: 1)
        #expect(n.communication?.sender == "Mina" && n.communication?.avatar == nil)
        #expect(Set(codes(n)) == ["communication-avatar-file-url", "communication-group-one-to-one"])
    }

    @Test("an avatar download the budget cuts: the intent is never donated, the best attempt is handed over")
    func avatarOutlivesBudget() throws {
        let server = try LoopbackHTTPServer { _ in .init(stall: true) }
        defer { server.stop() }
        let n = render(server.baseURL + "/slow.png", timeLimit: 1)
        #expect(n.delivered == .bestAttempt && n.communication == nil && n.title == "New message")
        #expect(n.trace.contains { $0.step == .deadline && $0.detail.contains("communicate") })
    }
}
