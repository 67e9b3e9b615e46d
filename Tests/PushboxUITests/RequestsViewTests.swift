import Foundation
import PushboxCore
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
        _ = s.update(.appInstalled(false))
        #expect(InboxView.screen(s).lines[0].contains("app uninstalled"))
        #expect(s.update(.key(.char("U"))) == [.setAppInstalled(true)])
        _ = s.update(.appInstalled(true))
        #expect(!InboxView.screen(s).lines[0].contains("app uninstalled"))
    }
}
