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

    static func fcm(_ target: String, title: String, body: String, at: Date = Date()) -> RawPayload {
        RawPayload(
            bytes: Array(#"{"message":{\#(target),"notification":{"title":"\#(title)","body":"\#(body)"}}}"#.utf8),
            envelope: Envelope(source: .fcm, receivedAt: at))
    }

    static func kinds(_ findings: [FleetFinding]) -> [String] {
        findings.map { "\($0.kind.rawValue) \($0.device)\($0.cause.map { " " + $0.rawValue } ?? "")" }.sorted()
    }

    @Test("a campaign per language topic: each device gets its own; one subscribed to two language topics gets two, one in another language")
    func duplicateAndWrongTopic() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, _, _) = try Self.intake(folder)
        let file = try #require(service.phone.registrationFile)
        func campaign(at: Date) {
            _ = service.receive(Self.fcm(#""topic":"LangEnUS""#, title: "Your order has shipped", body: "Arriving soon", at: at))
            _ = service.receive(Self.fcm(#""topic":"LangKoKR""#, title: "주문이 발송되었습니다", body: "곧 도착합니다", at: at))
            _ = service.receive(Self.fcm(#""topic":"LangFrFR""#, title: "Votre commande est partie", body: "Elle arrive bientôt", at: at))
        }
        let start = Date().addingTimeInterval(-100)
        campaign(at: start)
        #expect(service.findings(try service.store.history()).isEmpty)
        // The classic mistake: the language changed to Korean, the old topic kept.
        _ = try file.apply(.subscribe("LangKoKR"), device: "fr")
        campaign(at: start.addingTimeInterval(60))
        let findings = service.findings(try service.store.history())
        #expect(Self.kinds(findings) == ["duplicate fr", "wrong-language fr language-topic"], "\(findings)")
        #expect(findings.allSatisfy { $0.campaign > 3 }, "the second campaign's only")
        // Pushes further apart than the gap are campaigns of their own; as one (exec's run) they are one.
        #expect(FleetFindings.campaigns(try service.store.history(), oneCampaign: false).count == 2)
        #expect(FleetFindings.campaigns(try service.store.history(), oneCampaign: true).count == 1)
    }

    @Test("a device that got none of a campaign misses it, unless its app is gone or it is an Android phone and the campaign was APNs only")
    func missed() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, _, _) = try Self.intake(folder)
        let file = try #require(service.phone.registrationFile)
        _ = service.receive(Self.fcm(#""topic":"LangEnUS""#, title: "Hello", body: "there"))
        _ = service.receive(Self.fcm(#""topic":"LangKoKR""#, title: "안녕하세요", body: "반갑습니다"))
        #expect(Self.kinds(service.findings(try service.store.history())) == ["missed fr"])
        _ = try file.apply(.uninstall, device: "fr")
        #expect(service.findings(try service.store.history()).isEmpty, "an uninstalled app misses nothing a backend can fix")
        _ = try file.apply(.install, device: "fr")
        let apnsOnly = try service.store.latestID
        let koToken = try #require(file.current().device(named: "ko")?.apnsToken)
        for token in [koToken, DeviceIdentity.apnsToken] {
            _ = service.receive(
                RawPayload(
                    bytes: Array(#"{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["A","B"]}}}"#.utf8),
                    envelope: Envelope(
                        source: .socket, receivedAt: Date().addingTimeInterval(30), headers: PushHeaders([("apns-topic", "dev.pushbox.sample")]),
                        deviceToken: token)))
        }
        #expect(service.findings(try service.store.rows(after: apnsOnly)).isEmpty, "APNs reaches no Android phone")
    }

    @Test("wrong language from the text's script, a localization the app lacks, and a key missing in the device's localization")
    func wrongLanguageCauses() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, _, _) = try Self.intake(folder)
        let file = try #require(service.phone.registrationFile)
        #expect(try file.add(FleetDevice(name: "it", platform: .ios, languages: ["it-IT"])) == .done)
        let ko = try #require(file.current().device(named: "ko"))
        let it = try #require(file.current().device(named: "it"))
        func push(_ token: String, _ aps: String) {
            _ = service.receive(
                RawPayload(
                    bytes: Array(#"{"aps":{"alert":\#(aps)}}"#.utf8),
                    envelope: Envelope(source: .socket, headers: PushHeaders([("apns-topic", "dev.pushbox.sample")]), deviceToken: token)))
        }
        push(try #require(ko.apnsToken), #"{"title":"ご注文を発送しました","body":"まもなく届きます"}"#)
        push(try #require(it.apnsToken), #"{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["A","B"]}"#)
        push(DeviceIdentity.apnsToken, #"{"loc-key":"NO_SUCH_KEY_ANYWHERE"}"#)
        push(try #require(ko.apnsToken), #"{"title":"주문이 발송되었습니다","body":"iPhone 16"}"#)
        let findings = service.findings(try service.store.history(), oneCampaign: true).filter { $0.kind == .wrongLanguage }
        #expect(
            Self.kinds(findings) == ["wrong-language it localization-fallback", "wrong-language ko script", "wrong-language phone missing-key"],
            "\(findings)")
    }

    @Test("two different messages in one burst are two campaigns: a device that got one of each has no duplicate; files and replays are no campaign")
    func campaignsByShape() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, _, _) = try Self.intake(folder)
        _ = service.receive(Self.fcm(#""topic":"NewsApp""#, title: "Order shipped", body: "1"))
        let other =
            #"{"message":{"topic":"NewsApp","apns":{"payload":{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["A","B"]},"category":"GAME_INVITATION"}}}}}"#
        _ = service.receive(RawPayload(bytes: Array(other.utf8), envelope: Envelope(source: .fcm)))
        let rows = try service.store.history()
        #expect(FleetFindings.campaigns(rows, oneCampaign: true).count == 2)
        #expect(service.findings(rows).filter { $0.kind == .duplicate }.isEmpty)
        // The same message again in the burst: now a duplicate on every device.
        _ = service.receive(Self.fcm(#""topic":"NewsApp""#, title: "Order shipped", body: "2"))
        #expect(
            Self.kinds(service.findings(try service.store.history()).filter { $0.kind == .duplicate }) == [
                "duplicate fr", "duplicate ko", "duplicate phone",
            ])
        // A file the folder watch read, or a replay, is no backend's campaign.
        let folderRow = RawPayload(bytes: Array(#"{"aps":{"alert":"from a file"}}"#.utf8), envelope: Envelope(source: .folder, fileName: "a.json"))
        let fromFile = try #require(service.receive(folderRow).id)
        #expect(!service.findings(try service.store.history()).contains { $0.ids.contains(fromFile) || $0.campaign == fromFile })
    }

    @Test("a device's own clock runs ahead of the inbox's by its offset: its rows show its time, in its zone")
    func clockOffset() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, _, _) = try Self.intake(folder)
        let file = try #require(service.phone.registrationFile)
        _ = try file.update(device: "fr") { $0.clockOffset = 3 * 3600 }
        let result = service.receive(Self.fcm(#""topic":"NewsApp""#, title: "Hi", body: "there"))
        #expect(result.verdict.status == 200)
        let rows = try service.store.history()
        let fr = try #require(rows.first { $0.device == "fr" })
        let ko = try #require(rows.first { $0.device == "ko" })
        #expect(abs(fr.deviceTime.timeIntervalSince(fr.receivedAt) - 3 * 3600) < 1, "\(fr.deviceTime) \(fr.receivedAt)")
        #expect(ko.deviceTime == ko.receivedAt && ko.deviceZone == "Asia/Seoul")
    }

    @Test("an APNs push to a token no device owns: the default device's card says so in its trace, also when rendered again later")
    func unknownTokenSaidInTheTrace() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, renderings, _) = try Self.intake(folder)
        let push = RawPayload(
            bytes: Array(#"{"aps":{"alert":"hello"}}"#.utf8),
            envelope: Envelope(
                source: .socket, headers: PushHeaders([("apns-topic", "dev.pushbox.sample")]), deviceToken: String(repeating: "ab", count: 32)))
        let id = try #require(service.receive(push).id)
        service.drain()
        let row = try #require(try service.store.notification(id: id))
        #expect(row.device == nil)
        for languages in [["en-US"], ["ja-JP"]] {
            let target = renderings.rendering(id: id, languages: languages, row: row)?.trace.first { $0.step == .target }
            #expect(target?.detail.contains("no device's own") == true, "\(languages): \(String(describing: target))")
        }
    }

    @Test("local notifications per device: each keeps its own pending set and 64, fires on its own clock into its own inbox")
    func localNotificationsPerDevice() throws {
        let folder = TemporaryFolder("pbfleet")
        let (service, _, _) = try Self.intake(folder)
        let file = try #require(service.phone.registrationFile)
        _ = try file.update(device: "ko") { $0.clockOffset = 3600 }
        let clock = SimulatedClock(start: Date(timeIntervalSince1970: 1_800_000_000), speed: 0, timeZone: TimeZone(identifier: "UTC")!)
        let scheduler = LocalScheduler(service: service, clock: clock)
        func requests(_ prefix: String, _ count: Int, after seconds: Double) throws -> [LocalRequest] {
            let list = (0..<count).map {
                #"{"identifier":"\#(prefix)-\#($0)","content":{"title":"\#(prefix)"},"trigger":{"timeInterval":\#(seconds + Double($0))}}"#
            }
            return try ScheduleFile.parse(Array(#"{"requests":[\#(list.joined(separator: ","))]}"#.utf8))
        }
        #expect(scheduler.schedule(try requests("own", 2, after: 60)).pending == 2)
        // Seventy on ko: it keeps its own 64, the default device's two stay.
        let ko = scheduler.schedule(try requests("ko", 70, after: 60), device: "ko")
        #expect(ko.pending == 64 && ko.dropped.count == 6)
        #expect(scheduler.snapshot().pending.count == 2 && scheduler.snapshot(device: "ko").pending.count == 64)
        // ko's clock is an hour ahead: its requests fire at its own time, shown in its zone.
        #expect(scheduler.snapshot(device: "ko").now == clock.now.addingTimeInterval(3600))
        #expect(scheduler.cancel("ko-6*", device: "ko").count == 5)
        #expect(scheduler.cancel("ko-1", device: "phone").isEmpty, "the default device has no ko-1")
        scheduler.advance(by: 61)
        service.drain()
        let rows = try service.store.history()
        #expect(rows.filter { $0.source == .local && $0.device == nil }.count == 2)
        let fired = rows.filter { $0.source == .local && $0.device == "ko" }
        #expect(fired.count == 2, "ko-0 and ko-1 were due: \(fired.map(\.file))")
        #expect(fired.first?.deviceZone == "Asia/Seoul")
        #expect(scheduler.snapshot(device: "ko").delivered == 2 && scheduler.snapshot().delivered == 2)
    }
}
