import PushboxPayload
import Testing

@testable import PushboxIntake

/// Answers and connection descriptions keep their fields behind one reference (copied on the
/// first change of a shared one): a copy must still be a value of its own.
@Suite("Answers and connections stay values: a change to a copy leaves the original as it was")
struct ResponseValueTests {
    @Test("an answer's status, headers, body and record fields changed after a copy")
    func response() {
        var a = HTTPResponse(status: 200, headers: [("apns-id", "1")], body: [1])
        let b = a
        a.status = 400
        a.headers.append(("retry-after", "5"))
        a.body.append(2)
        a.cause = "why"
        a.chaos = "#2"
        a.messageKey = "k"
        a.connectionFault = .reset
        #expect(b.status == 200 && b.headers.count == 1 && b.body == [1] && b.cause == nil && b.chaos == nil)
        #expect(b.messageKey == nil && b.connectionFault == nil)
        #expect(a.status == 400 && a.headers.count == 2 && a.body == [1, 2] && a.cause == "why" && a.connectionFault == .reset)
    }

    @Test("a connection's description changed after a copy")
    func connection() {
        var a = ConnectionInfo(listener: "unix /s", protocolName: "http/1.1", tls: false, requiresAuth: false)
        let b = a
        a.listener = "tcp 127.0.0.1:2197"
        a.protocolName = "h2"
        a.tls = true
        a.requiresAuth = true
        a.connectTarget = "api.push.apple.com:443"
        #expect(b.listener == "unix /s" && b.protocolName == "http/1.1" && !b.tls && !b.requiresAuth && b.connectTarget == nil)
        #expect(a.listener == "tcp 127.0.0.1:2197" && a.tls && a.requiresAuth && a.connectTarget == "api.push.apple.com:443")
    }
}
