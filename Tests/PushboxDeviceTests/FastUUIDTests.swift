import Foundation
import PushboxDevice
import Testing

@Suite("apns-id values from the buffered random source")
struct FastUUIDTests {
    @Test("10,000 ids across many refills: canonical lowercase version-4 UUIDs Foundation reads back, all different")
    func canonicalAndDistinct() {
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let id = FastUUID.make()
            seen.insert(id)
            #expect(id.utf8.count == 36)
            #expect(UUID(uuidString: id)?.uuidString.lowercased() == id, "\(id)")
            let bytes = Array(id.utf8)
            #expect([8, 13, 18, 23].allSatisfy { bytes[$0] == UInt8(ascii: "-") })
            #expect(bytes[14] == UInt8(ascii: "4"))
            #expect("89ab".utf8.contains(bytes[19]))
            #expect(bytes.allSatisfy { $0 == UInt8(ascii: "-") || "0123456789abcdef".utf8.contains($0) })
        }
        #expect(seen.count == 10_000)
    }
}
