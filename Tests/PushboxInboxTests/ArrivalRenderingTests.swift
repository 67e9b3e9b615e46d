import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxInbox

/// An arrival's rendering is the one any reader gets: for an FCM message to both phones, with
/// the Android card made from the app's strings.xml.
@Suite("Arrivals rendered as readers render them")
struct ArrivalRenderingTests {
    @Test("an FCM message for both phones arrives with its Android card, as the rendering read on demand has it")
    func fcmArrivesWithItsAndroidCard() throws {
        let folder = TemporaryFolder("pbar")
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        let profile = try AppProfile.load(directory: ProjectPaths.sampleApp)
        var renderer = Renderer(
            context: ValidationContext(bundleID: profile.bundleID, deviceTopics: ["NewsApp", "LangKoKR"]), preferredLanguages: ["ko-KR"],
            localizer: Localizer(app: AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)))
        renderer.android = AndroidRenderer(
            resources: AndroidResources.find(in: profile.directory).map { AndroidResources(res: $0) }, profile: profile.android,
            appName: profile.name)
        let renderings = Renderings(base: renderer, store: store)
        let heard = Locked<[RenderedArrival]>([])
        renderings.onArrived { arrivals in heard.withLock { $0 += arrivals } }
        let service = IntakeService(store: store, context: renderer.context, renderings: renderings)
        let bytes = try #require(FileManager.default.contents(atPath: ProjectPaths.samples + "/12-fcm-invite-both.json"))
        let id = try #require(service.receive(RawPayload(bytes: Array(bytes), envelope: Envelope(source: .fcm))).id)
        service.drain()
        let arrival = try #require(heard.withLock { $0 }.first)
        #expect(arrival.stored.id == id)
        let android = try #require(arrival.rendering?.android, "\(String(describing: arrival.rendering?.trace))")
        #expect(android.channel.id == "invites")
        #expect(renderings.stored(RenderKey(id: id, languages: ["ko-KR"]))?.android?.channel.id == "invites")
    }
}
