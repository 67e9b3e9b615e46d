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
