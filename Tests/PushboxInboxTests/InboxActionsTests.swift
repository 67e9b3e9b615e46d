import Foundation
import PushboxDevice
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxTestSupport
import Testing

@testable import PushboxInbox

/// The user's actions reach the store, the device's files and the running phone together.
@Suite("Inbox actions")
struct InboxActionsTests {
    let folder = TemporaryFolder("pbact")

    /// Actions on a new inbox whose phone keeps its registration beside it.
    func actions() throws -> InboxActions {
        let db = folder.path + "/inbox.sqlite"
        let store = try InboxStore(path: db)
        let file = DeviceRegistrationFile(databasePath: db)
        let context = ValidationContext(bundleID: "dev.pushbox.sample", deviceTopics: ["LangEnUS"])
        let phone = Phone(context: context, registrationFile: file)
        let renderings = Renderings(base: Renderer(context: context, preferredLanguages: ["en-US"]), store: store)
        let service = IntakeService(store: store, phone: phone, renderings: renderings)
        return InboxActions(store: store, service: service, renderings: renderings, registrationFile: file, scheduler: nil, appFolder: "/apps/x")
    }

    func push(_ text: String = #"{"aps":{"alert":"hi"}}"#) -> RawPayload {
        RawPayload(
            bytes: Array(text.utf8),
            envelope: Envelope(source: .socket, headers: PushHeaders([("apns-topic", "dev.pushbox.sample")]), deviceToken: "abcd"))
    }

    @Test("uninstall is what the next push meets (410), install undoes it; the file counts both changes")
    func installState() throws {
        let a = try actions()
        #expect(try a.change(.uninstall).installed == false)
        #expect(a.service.receive(push()).status == 410)
        #expect(try a.change(.install).installed)
        #expect(a.service.receive(push()).status == 200)
        #expect(a.registrationFile.current().changes == 2)
    }

    @Test("offline keeps a push; back online it is delivered from storage and the registration is online again")
    func offlineAndBack() throws {
        let a = try actions()
        _ = try a.change(.offline)
        let kept = a.service.receive(push())
        #expect(kept.status == 200)
        let back = try a.comeOnline(languages: ["en-US"])
        #expect(back.registration.online && back.delivered == 1)
        #expect(back.changed[kept.id ?? -1]?.state == .deliveredFromStorage)
    }

    @Test("a language chosen keeps its region: the phone's topic and the recorded device follow it exactly")
    func languages() throws {
        let a = try actions()
        try a.changeLanguages(to: ["ja-JP"], profileTopics: ["NewsApp"])
        #expect(a.service.phone.context.deviceTopics == ["LangJaJP", "NewsApp"])
        #expect(a.registrationFile.current().languages == ["ja-JP"] && a.registrationFile.current().app == "/apps/x")
    }

    @Test("a replay is judged again as a new arrival; only an accepted push exports; no scheduler: the clock stays")
    func replayExportClock() throws {
        let a = try actions()
        let first = a.service.receive(push())
        let row = try #require(try a.store.notification(id: first.id ?? -1))
        let again = a.replay(row)
        #expect(again.status == 200 && again.id != first.id)
        #expect(try a.store.notification(id: again.id ?? -1)?.source == .replay)
        #expect(a.simulatorFile(row)?[PayloadForm.simulatorTargetKey] == "dev.pushbox.sample")
        let refused = a.service.receive(push("{}"))
        let refusedRow = try #require(try a.store.notification(id: refused.id ?? -1))
        #expect(refused.status == 400 && a.simulatorFile(refusedRow) == nil)
        #expect(!a.moveClock(by: 60))
    }
}
