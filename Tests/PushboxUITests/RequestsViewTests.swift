import Foundation
import PushboxDevice
import PushboxLocalization
import PushboxPayload
import Testing

@testable import PushboxUI

/// The Requests view: every HTTP request on record, refused ones marked with why.
@Suite("The Requests view")
struct RequestsViewTests {
    static func state() -> InboxState {
        var s = UIFixtures.state(width: 120, height: 40)
        s.requests = [
            RequestLine(
                time: "12:40:03", status: 403, reason: "InvalidProviderToken", request: "POST /3/device/5e1ec7ed",
                via: "h2 tcp 127.0.0.1:2197", cause: "no provider key ZZZZZ99999 is registered (known: ABCDE12345)"),
            RequestLine(time: "12:40:02", status: 200, reason: nil, request: "POST /3/device/5e1ec7ed", via: "h2 tcp 127.0.0.1:2197", cause: nil),
            RequestLine(
                time: "12:40:01", status: 404, reason: "NOT_FOUND", request: "POST /v1/projects/demo-proj/messages:send",
                via: "http/1.1 tcp 127.0.0.1:2197 via CONNECT fcm.googleapis.com:443", cause: "Requested entity was not found."),
        ]
        return s
    }

    @Test("R opens it and asks for the requests; refused ones are marked and say why; Esc closes it")
    func open() throws {
        var s = Self.state()
        #expect(s.update(.key(.char("R"))).contains(.loadRequests))
        #expect(s.overlay == .requests)
        let lines = InboxView.screen(s).lines
        #expect(lines.contains { $0.contains("3 on record, 2 refused") })
        #expect(lines.contains { $0.contains("× 12:40:03 403 InvalidProviderToken POST /3/device/5e1ec7ed") && $0.contains("no provider key") })
        #expect(lines.contains { $0.contains("  12:40:02 200 POST /3/device/5e1ec7ed") })
        _ = s.update(.key(.escape))
        #expect(s.overlay == nil)
    }

    @Test("120×40: the Requests view")
    func snapshot() throws {
        var s = Self.state()
        _ = s.update(.key(.char("R")))
        try ViewSnapshotTests().check("requests-120x40", InboxView.screen(s))
    }
}

/// The device's app, installed or not, from the inbox.
@Suite("Uninstalling the app from the inbox")
struct AppInstalledUITests {
    @Test("U asks to uninstall, then to install; the header says when the app is gone")
    func toggle() {
        var s = UIFixtures.state(width: 120, height: 40)
        #expect(s.update(.key(.char("U"))) == [.setAppInstalled(false)])
        _ = s.update(.registration(DeviceRegistration(uninstalledAt: 1)))
        #expect(InboxView.screen(s).lines[0].contains("app uninstalled"))
        #expect(s.update(.key(.char("U"))) == [.setAppInstalled(true)])
        _ = s.update(.registration(DeviceRegistration()))
        #expect(!InboxView.screen(s).lines[0].contains("app uninstalled"))
    }
}

/// The device offline and back, from the inbox: what the push service keeps, and delivers.
@Suite("An offline device in the inbox")
struct DeviceOfflineUITests {
    /// The fixture with notification 6 kept by the service and 3 replaced while offline.
    static func offline() -> InboxState {
        var s = UIFixtures.state(width: 120, height: 40)
        _ = s.update(.registration(DeviceRegistration(offlineSince: 1)))
        let at = UIFixtures.now.addingTimeInterval(-30)
        s.list.items[0].delivery = DeliveryRecord(state: .stored, at: at, expiresAt: at.addingTimeInterval(3600))
        s.list.items[3].delivery = DeliveryRecord(state: .discardedReplaced, at: at, expiresAt: at.addingTimeInterval(3600))
        return s
    }

    @Test("O asks to go offline and back; the header says the device is offline")
    func toggle() {
        var s = UIFixtures.state(width: 120, height: 40)
        #expect(s.update(.key(.char("O"))) == [.setDeviceOnline(false)])
        _ = s.update(.registration(DeviceRegistration(offlineSince: 1)))
        #expect(InboxView.screen(s).lines[0].contains("device offline"))
        #expect(s.update(.key(.char("O"))) == [.setDeviceOnline(true)])
    }

    @Test("A stored notification shows nothing yet and says so; a replaced one is marked discarded")
    func storedRows() {
        let s = Self.offline()
        let text = InboxView.screen(s).lines.joined(separator: "\n")
        #expect(text.contains("(stored — device offline) 게임 초대"))
        #expect(text.contains("(discarded — replaced) ") && text.contains(TextLayout.visualOrder("دعوة", rightToLeft: true)))
        #expect(s.shown(s.list.items[0])?.delivered == .stored)
        #expect(s.shown(s.list.items[0])?.intended?.title == "게임 초대")
        #expect(s.shown(s.list.items[3])?.trace.last?.cause == .replaced)
    }

    @Test("Back online, the stored ones are read again and then shown as delivered from storage")
    func backOnline() {
        var s = Self.offline()
        #expect(s.update(.registration(DeviceRegistration())).contains(.refreshDeliveries([6])))
        #expect(!InboxView.screen(s).lines[0].contains("device offline"))
        _ = s.update(.deliveries([6: DeliveryRecord(state: .deliveredFromStorage, at: UIFixtures.now, expiresAt: UIFixtures.now)]))
        let shown = s.shown(s.list.items[0])
        #expect(shown?.title == "게임 초대")
        #expect(shown?.trace.suffix(2).map(\.cause) == [.deviceOffline, .fromStorage])
        #expect(!InboxView.screen(s).lines.joined().contains("stored — device offline"))
    }

    @Test("A stored arrival makes the inbox read again where the earlier stored ones stand")
    func arrivalReplaces() {
        var s = Self.offline()
        var item = InboxItem(id: 7, apnsID: "g", receivedAt: UIFixtures.now, source: "socket", status: 200)
        item.delivery = DeliveryRecord(state: .stored, at: UIFixtures.now, expiresAt: UIFixtures.now.addingTimeInterval(60))
        #expect(s.update(.arrived([ArrivedItem(item)])).contains(.refreshDeliveries([6])))
    }

    @Test("The card of a stored notification, and its trace")
    func snapshot() throws {
        let s = Self.offline()
        try ViewSnapshotTests().check("offline-stored-120x40", InboxView.screen(s))
    }
}

/// The Device view and the card's addressee line.
@Suite("The device in the inbox: its tokens and FCM topics")
struct DeviceViewUITests {
    @Test("D shows the device's tokens, state and topics with who set each; the card says to whom an FCM message went")
    func deviceView() throws {
        var s = UIFixtures.state(width: 120, height: 40)
        s.profileTopics = ["NewsApp"]
        var registration = DeviceRegistration(offlineSince: 1)
        registration.subscribe("LangJaJP", base: [], at: 1_796_000_000_000, by: "api")
        registration.unsubscribe("NewsApp", base: ["NewsApp"], at: 1_796_000_060_000, by: "app")
        _ = s.update(.registration(registration))
        s.renders[6]?.addressedTo = "token pushboxDevic…Device (this device's own)"
        #expect(InboxView.screen(s).lines.joined().contains("to token pushboxDevic…Device (this device's own)"))
        _ = s.update(.key(.char("D")))
        #expect(s.overlay == .device)
        try ViewSnapshotTests().check("device-120x40", InboxView.screen(s))
        _ = s.update(.key(.escape))
        #expect(s.overlay == nil)
    }
}
