import Testing

@testable import PushboxIntake

@Suite("A push's path: its device token and the message key of its retries")
struct PushPathTests {
    @Test("the token is what follows /3/device/, by bytes, whatever it holds")
    func tokenPart() {
        #expect(APNsEndpoint.tokenPart(of: "/3/device/abcd") == "abcd")
        #expect(APNsEndpoint.tokenPart(of: "/3/device/") == "")
        #expect(APNsEndpoint.tokenPart(of: "/3/device/é😀%20x") == "é😀%20x")
        #expect(APNsEndpoint.tokenPart(of: "/3/device/a\u{301}b") == "a\u{301}b")
        #expect(APNsEndpoint.tokenPart(of: "/3/dev") == "")
    }

    @Test("a retry has the message key of its first try: the apns-id when sent, else the token and the body's hash")
    func messageKeys() {
        func key(_ path: String, _ body: String, id: String? = nil) -> String? {
            let headers = id.map { [(name: "apns-id", value: $0)] } ?? []
            return ChaosAnswers.messageKey(HTTPRequest(method: "POST", path: path, headers: headers, body: Array(body.utf8)), service: "apns")
        }
        let first = key("/3/device/aa", #"{"aps":{}}"#)
        #expect(first == "apns:aa:" + ChaosAnswers.fnv(Array(#"{"aps":{}}"#.utf8)))
        #expect(key("/3/device/aa", #"{"aps":{}}"#) == first)
        #expect(key("/3/device/ab", #"{"aps":{}}"#) != first)
        #expect(key("/3/device/aa", #"{"aps":{"x":1}}"#) != first)
        #expect(key("/3/device/aa", "{}", id: "ABC-1") == "apns-id:abc-1")
    }
}
