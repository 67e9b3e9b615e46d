import Foundation
import PushboxDevice
import PushboxPayload
import Testing

@testable import PushboxUI

/// The inbox with a fleet: the header names the device shown, `v` shows the next device's
/// notifications in its languages, `U`/`O`/the language keys change the device shown, and `F`
/// shows one push on every device side by side.
@Suite("The fleet in the inbox")
struct FleetViewTests {
    /// The fixture inbox (the default device in Korean) with a Japanese iPhone and a Spanish
    /// Android phone added, and one campaign's rows for each.
    static func state(width: Int, height: Int) -> InboxState {
        var s = UIFixtures.state(width: width, height: height)
        var registration = DeviceRegistration()
        registration.devices = [
            FleetDevice(name: "ja", platform: .ios, languages: ["ja-JP"]), FleetDevice(name: "es", platform: .android, languages: ["es-ES"]),
        ]
        _ = s.update(.registration(registration))
        func row(_ id: Int64, _ device: String?) -> InboxItem {
            var verdict = Verdict(
                status: 200, topic: "dev.pushbox.sample",
                listing: PayloadListing(title: "Order", body: "shipped", threadID: nil, background: false, encrypted: false, firedAt: nil))
            verdict.device = device
            return InboxItem(id: id, apnsID: "campaign", receivedAt: UIFixtures.now.addingTimeInterval(-5), source: "fcm", verdict: verdict)
        }
        s.list.items = [row(9, "es"), row(8, "ja"), row(7, nil)] + s.list.items
        _ = s.update(.loaded(s.list.items))
        return s
    }

    static func summary() -> FleetSummary {
        var es = UIFixtures.note("Tu pedido ha sido enviado", "Llegará pronto", language: "es")
        var android = AndroidRendering(
            appName: "Pushbox Sample", delivered: .shown, channel: AndroidProfile.Channel(id: "orders", name: "Orders", importance: "high"),
            channelSource: .message, icon: "ic_stat_pushbox", iconSource: .appDefault)
        android.title = "Tu pedido ha sido enviado"
        android.body = "Llegará pronto · Android"
        es.android = android
        return FleetSummary(
            push: "“Order shipped” to topic LangKoKR, LangJaJP, LangEsES",
            cells: [
                FleetCell(
                    device: "phone", platform: nil, languages: ["ko-KR"], rendering: UIFixtures.note("주문이 발송되었습니다", "곧 도착합니다"),
                    state: "delivered", reached: true, findings: []),
                FleetCell(
                    device: "ja", platform: .ios, languages: ["ja-JP"],
                    rendering: UIFixtures.note("ご注文を発送しました", "まもなく届きます。配送状況はアプリでご確認いただけます。", language: "ja"), state: "delivered",
                    reached: true, findings: ["duplicate", "wrong language (language-topic)"]),
                FleetCell(
                    device: "es", platform: .android, languages: ["es-ES"], rendering: es, state: "kept: device offline", reached: true, findings: []),
                FleetCell(
                    device: "de", platform: .ios, languages: ["de-DE"], rendering: nil,
                    state: "not reached: not subscribed to LangKoKR (its topics: LangDeDE, NewsApp)", reached: false, findings: ["missed"]),
            ])
    }

    @Test("the header names the device shown; v shows the next device's notifications only, in its languages, and back round to phone")
    func switchDevices() throws {
        var s = Self.state(width: 120, height: 40)
        #expect(InboxView.screen(s).lines[0].contains("device phone 1/3"))
        let ids = s.rows.compactMap { row -> Int64? in if case .item(let i) = row { s.list.items[i].id } else { nil } }
        #expect(ids.contains(7) && !ids.contains(8) && !ids.contains(9), "phone's rows only: \(ids)")
        var commands = s.update(.key(.char("v")))
        #expect(s.shownDevice == "ja" && s.device.languages == ["ja-JP"] && s.renders.isEmpty)
        #expect(s.rows.count == 1 && s.selectedItem?.id == 8)
        #expect(commands.contains(.render(ids: [8], languages: ["ja-JP"])), "\(commands)")
        #expect(InboxView.screen(s).lines[0].contains("device ja (iPhone) 2/3"))
        commands = s.update(.key(.char("v")))
        #expect(s.shownDevice == "es" && s.selectedItem?.id == 9 && commands.contains(.render(ids: [9], languages: ["es-ES"])))
        _ = s.update(.key(.char("v")))
        #expect(s.shownDevice == "phone" && s.device.languages == ["ko-KR"], "the default device's languages come back")
        _ = s.update(.key(.char("V")))
        #expect(s.shownDevice == "es")
    }

    @Test("U, O and a language key act on the device shown: an added device's change goes to it, not to the default device")
    func actOnShownDevice() {
        var s = Self.state(width: 120, height: 40)
        _ = s.update(.key(.char("v")))
        #expect(s.update(.key(.char("U"))).first == .changeFleetDevice(name: "ja", change: .uninstall))
        #expect(s.update(.key(.char("O"))).first == .changeFleetDevice(name: "ja", change: .offline))
        let commands = s.update(.key(.char("]")))
        #expect(commands.first == .changeFleetDevice(name: "ja", change: .language(s.device.languages)), "\(commands)")
        #expect(!commands.contains { if case .saveLanguages = $0 { true } else { false } })
    }

    @Test("a device removed by another process: the inbox goes back to the default device")
    func removedMeanwhile() {
        var s = Self.state(width: 120, height: 40)
        _ = s.update(.key(.char("v")))
        _ = s.update(.registration(DeviceRegistration()))
        #expect(s.shownDevice == "phone" && s.list.device == nil && s.device.languages == ["ko-KR"])
    }

    @Test("v and F without added devices say how to add one")
    func noFleet() {
        var s = UIFixtures.state(width: 120, height: 40)
        #expect(s.update(.key(.char("v"))).isEmpty && s.status == .unavailable(.noFleet))
        #expect(s.update(.key(.char("F"))).isEmpty && s.status == .unavailable(.noFleet))
        #expect(!InboxView.screen(s).lines[0].contains("device "))
    }

    @Test("F asks for the selected push on every device and shows it when it comes")
    func fleetOverlay() {
        var s = Self.state(width: 120, height: 40)
        let commands = s.update(.key(.char("F")))
        #expect(s.overlay == .fleet && commands.contains(.fleet(id: 7)))
        #expect(InboxView.screen(s).lines.contains { $0.contains("reading this push on every device") })
        _ = s.update(.fleetReady(Self.summary()))
        let screen = InboxView.screen(s).lines.joined(separator: "\n")
        #expect(screen.contains("3 of 4 devices got it · 3 findings"))
        #expect(screen.contains("Llegará pronto · Android"), "an Android phone's card as Android draws it")
    }

    @Test("120×40: the fleet view, four narrow cards side by side, why one device did not get the push wrapped")
    func snapshot120() throws {
        var s = Self.state(width: 120, height: 40)
        _ = s.update(.key(.char("F")))
        _ = s.update(.fleetReady(Self.summary()))
        try ViewSnapshotTests().check("fleet-120x40", InboxView.screen(s))
    }

    @Test("200×50: the fleet view, four devices side by side")
    func snapshot200() throws {
        var s = Self.state(width: 200, height: 50)
        _ = s.update(.key(.char("F")))
        _ = s.update(.fleetReady(Self.summary()))
        try ViewSnapshotTests().check("fleet-200x50", InboxView.screen(s))
    }
}

/// The inbox's search speaks the query language: field terms as `list --query` and the API read
/// them, free words anywhere in a notification as before; a search that is no query yet (a field
/// being typed) is looked for as one phrase.
@Suite("The inbox's search in the query language")
struct InboxSearchQueryTests {
    static func ids(_ s: InboxState) -> [Int64] {
        s.rows.compactMap { row -> Int64? in if case .item(let i) = row { s.list.items[i].id } else { nil } }
    }

    @Test("field terms, negation and free words; an unreadable search is a phrase")
    func search() {
        var s = FleetViewTests.state(width: 120, height: 40)
        s.list.device = nil  // every device's rows
        func shown(_ search: String) -> [Int64] {
            s.list.search = search
            s.list.refreshRows(renders: s.renders, rendersVersion: s.rendersVersion, appName: s.appName)
            return Self.ids(s)
        }
        #expect(shown("status:4xx") == [2])
        #expect(shown("device:ja") == [8])
        #expect(shown("lang:ja") == [4], "the rendering in Japanese")
        #expect(shown("-lang:ko has:attachment") == [4])
        // A word is still found anywhere: the payload's custom keys included.
        #expect(shown("deepLink") == [6])
        #expect(shown("platform:android") == [9], "es is an Android phone")
        // Being typed: `lang:` is no query yet, looked for as it is (nothing says it).
        #expect(shown("lang:").isEmpty)
    }
}
