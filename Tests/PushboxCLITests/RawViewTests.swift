import Foundation
import PushboxCore
import PushboxStore
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// The Raw tab: the request as it came (path, apns-* headers, how it arrived), then the body.
@Suite("The Raw tab's text")
struct RawViewTests {
    @Test("a push's request headers and its arrival come before its pretty-printed body")
    func requestHeaders() throws {
        let folder = TemporaryFolder("pbraw")
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        var headers = PushHeaders()
        headers.add("apns-push-type", "alert")
        headers.add("apns-collapse-id", "score")
        let arrival = Arrival(listener: "tcp 127.0.0.1:2197", protocolName: "h2", tls: true, userAgent: "aioapns")
        let raw = RawPayload(
            bytes: Array(#"{"aps":{"alert":"goal"}}"#.utf8),
            envelope: Envelope(source: .socket, headers: headers, deviceToken: "abcd", arrival: arrival))
        let row = try store.insertRow(raw, apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000001", verdict: .init(status: 200))
        let lines = InboxItems.prettyRaw(row).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "POST /3/device/abcd")
        #expect(lines.contains("apns-push-type: alert") && lines.contains("apns-collapse-id: score"))
        #expect(lines.contains { $0.hasPrefix("(h2") && $0.contains("user-agent aioapns") })
        let blank = try #require(lines.firstIndex(of: ""))
        #expect(lines[(blank + 1)...].first == "{")
    }
}
