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

/// The host a request was addressed to, read from its `Host`/`:authority` bytes or its tunnel's target.
@Suite("The addressed host")
struct AddressedHostTests {
    @Test("a port is dropped, a name lowered, an IPv6 literal keeps its brackets, an empty one is none")
    func hosts() {
        let table: [(String, String?)] = [
            ("api.push.apple.com", "api.push.apple.com"), ("api.sandbox.push.apple.com:443", "api.sandbox.push.apple.com"),
            ("API.Push.Apple.COM:2197", "api.push.apple.com"), ("127.0.0.1:8443", "127.0.0.1"), ("[::1]:443", "[::1]"), ("[::1", "[::1]"),
            ("[FE80::1]", "[FE80::1]"), (":443", ""), ("", nil), ("Bücher.example:1", "bücher.example"),
        ]
        for (named, host) in table { #expect(RequestHead.host(named) == host, "\(named)") }
    }

    @Test("a tunnel's CONNECT target comes before the Host header; no host named is none")
    func precedence() {
        var info = ConnectionInfo(listener: "tcp 127.0.0.1:2197", protocolName: "h2", tls: true, requiresAuth: true)
        let head = { RequestHead(method: "POST", path: "/3/device/aa", headers: [("host", "localhost:2197")], connection: info) }
        #expect(head().addressedHost == "localhost")
        info.connectTarget = "api.push.apple.com:443"
        #expect(head().addressedHost == "api.push.apple.com")
        #expect(
            RequestHead(
                method: "GET", path: "/", headers: [],
                connection: ConnectionInfo(listener: "unix /s", protocolName: "http/1.1", tls: false, requiresAuth: false)
            ).addressedHost == nil)
    }
}
