import Testing

@testable import PushboxIntake

@Suite("HTTP/2 pseudo-headers told apart by their bytes")
struct PseudoHeaderTests {
    static func kind(_ name: String) -> HTTP2Connection.PseudoHeader?? {
        let bytes = Array(name.utf8)
        return bytes.withUnsafeBufferPointer { .some(HTTP2Connection.PseudoHeader($0)) }
    }

    @Test("the four request pseudo-headers, another one, and regular headers (also ones a byte away)")
    func kinds() {
        #expect(Self.kind(":method") == .some(.method))
        #expect(Self.kind(":path") == .some(.path))
        #expect(Self.kind(":authority") == .some(.authority))
        #expect(Self.kind(":scheme") == .some(.scheme))
        for other in [":protocol", ":pathx", ":metho", ":Method", ":", ":schemes", ":authoritY"] {
            #expect(Self.kind(other) == .some(.other), "\(other)")
        }
        for regular in ["path", "method", "apns-topic", "authorization", "", "x:path"] {
            #expect(Self.kind(regular) == .some(nil), "\(regular)")
        }
    }
}

@Suite("Common header names taken as strings made once")
struct CommonHeaderNameTests {
    static func common(_ name: String) -> String? {
        Array(name.utf8).withUnsafeBufferPointer { HTTP2Connection.commonName($0) }
    }

    @Test("each common name gives itself; names a byte away, in other case or unknown give none")
    func names() {
        for name in [
            "apns-id", "apns-topic", "user-agent", "content-type", "authorization", "apns-priority", "apns-push-type", "content-length",
            "apns-expiration", "accept-encoding", "apns-collapse-id",
        ] {
            #expect(Self.common(name) == name)
        }
        for other in ["apns-i", "apns-idx", "Apns-id", "apns-topiC", "content-typo", "x-pushbox-source", "", "authorisation"] {
            #expect(Self.common(other) == nil, "\(other)")
        }
    }
}
