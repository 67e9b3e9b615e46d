import Dispatch
import PushboxJSON
import PushboxSystem
import Testing

@Suite("Locked: a value shared by threads")
struct LockedTests {
    @Test("8 threads × 10,000 increments under the lock: none lost (and no report under ThreadSanitizer)")
    func increments() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("withLock hands back what its body returns, and rethrows what it throws")
    func returnsAndThrows() {
        struct Refused: Error {}
        let table = Locked(["a": 1])
        #expect(table.withLock { $0["a"] } == 1)
        #expect(throws: Refused.self) { try table.withLock { (_: inout [String: Int]) throws -> Int in throw Refused() } }
        table.withLock { $0["b"] = 2 }
        #expect(table.withLock { $0.count } == 2)
    }
}
