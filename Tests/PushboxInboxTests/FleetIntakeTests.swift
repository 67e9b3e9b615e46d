import Foundation
import PushboxDevice
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxInbox

/// One request, one answer, a delivery per device: a message that reaches three devices of the
/// inbox's fleet is stored three times under one apns-id, each rendered in its device's languages.
@Suite("A fleet of phones: one request, a delivery per device")
struct FleetIntakeTests {
    /// The intake of an inbox whose default device runs the sample app in en-US, with `ko`
    /// (ko-KR, Asia/Seoul) and `fr` (an Android phone in fr-FR) added.
    static func intake(_ folder: TemporaryFolder) throws -> (IntakeService, Renderings, Locked<[RenderedArrival]>) {
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        let profile = try AppProfile.load(directory: ProjectPaths.sampleApp)
        let topics = DeviceTopics.topics(preferredLanguages: ["en-US"], profileTopics: profile.fcmTopics)
        let renderer = Renderer(
            context: ValidationContext(bundleID: profile.bundleID, deviceTopics: topics), preferredLanguages: ["en-US"],
            localizer: Localizer(app: AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)))
        let renderings = Renderings(base: renderer, store: store)
        let heard = Locked<[RenderedArrival]>([])
        renderings.onArrived { arrivals in heard.withLock { $0 += arrivals } }
        let file = DeviceRegistrationFile(databasePath: store.path)
        #expect(try file.add(FleetDevice(name: "ko", platform: .ios, languages: ["ko-KR"], timeZone: "Asia/Seoul")) == .done)
        #expect(try file.add(FleetDevice(name: "fr", platform: .android, languages: ["fr-FR"])) == .done)
        let phone = Phone(context: renderer.context, registrationFile: file)
        phone.deviceLanguagesChanged(to: ["en-US"], profileTopics: profile.fcmTopics)
        return (IntakeService(store: store, phone: phone, renderings: renderings), renderings, heard)
    }

    static let invite =
        #"{"message":{"topic":"NewsApp","apns":{"payload":{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["A","B"]}}}}}}"#

    @Test("a topic message all three devices subscribe to: one answer, three rows under its apns-id, each in its device's language and zone")
    func threeDeliveries() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, renderings, heard) = try Self.intake(folder)
        let result = service.receive(RawPayload(bytes: Array(Self.invite.utf8), envelope: Envelope(source: .fcm)))
        #expect(result.verdict.status == 200)
        service.drain()
        let rows = try service.store.history()
        #expect(rows.map { $0.device ?? "phone" } == ["phone", "ko", "fr"])
        #expect(Set(rows.map(\.apnsID)) == [result.apnsID])
        #expect(rows.first { $0.device == "ko" }?.deviceZone == "Asia/Seoul")
        // Each device's own language, on demand and as handed on to the inbox.
        let bodies = rows.map { renderings.shown($0)?.body ?? "" }
        #expect(bodies[0].contains("invited you"), "\(bodies)")
        #expect(bodies[1].contains("초대"), "\(bodies)")
        #expect(bodies[2].contains("invitent"), "\(bodies)")
        let handedOn = heard.withLock { $0 }
        #expect(handedOn.count == 3)
        #expect(handedOn.first { $0.stored.device == "ko" }?.rendering?.body?.contains("초대") == true)
        #expect(handedOn.first { $0.stored.device == "ko" }?.languageKey == RenderKey.languageKey(["ko-KR"]))
        // Each device's own inbox.
        #expect(try service.store.inbox(device: "ko").map(\.id) == [rows[1].id])
        #expect(try service.store.inbox(device: "phone").map(\.id) == [rows[0].id])
    }

    @Test("a collapse id replaces a notification on the same device only; an offline device's kept push comes when that device is back")
    func perDeviceCollapseAndStorage() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, _, _) = try Self.intake(folder)
        let collapsing = #"{"message":{"topic":"NewsApp","apns":{"headers":{"apns-collapse-id":"score"},"payload":{"aps":{"alert":"1-0"}}}}}"#
        _ = service.receive(RawPayload(bytes: Array(collapsing.utf8), envelope: Envelope(source: .fcm)))
        _ = service.receive(RawPayload(bytes: Array(collapsing.utf8), envelope: Envelope(source: .fcm)))
        let shown = try service.store.inbox()
        #expect(shown.count == 3 && Set(shown.map { $0.device ?? "phone" }) == ["phone", "ko", "fr"], "the latest per device")
        let file = try #require(service.phone.registrationFile)
        _ = try file.apply(.offline, device: "ko")
        let ko = try #require(file.current().device(named: "ko"))
        let token = try #require(ko.apnsToken)
        let push = RawPayload(
            bytes: Array(#"{"aps":{"alert":"kept"}}"#.utf8),
            envelope: Envelope(source: .socket, headers: PushHeaders([("apns-topic", "dev.pushbox.sample")]), deviceToken: token))
        let kept = service.receive(push)
        #expect(kept.verdict.status == 200)
        let keptID = try #require(kept.id)
        let row = try #require(try service.store.notification(id: keptID))
        #expect(row.device == "ko" && row.delivery?.state == .stored)
        // The default device coming back delivers nothing of ko's.
        #expect(try file.comeOnline(at: Date(), store: service.store).changed.isEmpty)
        let back = try file.comeOnline(at: Date(), store: service.store, device: "ko")
        #expect(back.changed[row.id]?.state == .deliveredFromStorage && back.registration.device(named: "ko")?.state.online == true)
    }
}
