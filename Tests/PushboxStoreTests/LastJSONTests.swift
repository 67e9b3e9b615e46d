import PushboxJSON
import Testing

@testable import PushboxStore

@Suite("The last row's JSON, kept for the next")
struct LastJSONTests {
    /// A value whose JSON is built by a counted closure.
    final class Counter: @unchecked Sendable {
        var builds = 0
    }

    @Test("a repeated value reuses its text without building it; a different one gets its own, and the first again its own")
    func reusesOnlyForTheSameValue() {
        let last = LastJSON<String>()
        let counter = Counter()
        func json(_ s: String) -> JSONValue {
            counter.builds += 1
            return .object(JSONObject([("name", .string(s))]))
        }
        let a = last.text(of: "a", json("a"))
        #expect(last.text(of: "a", json("a")) == a)
        #expect(counter.builds == 1)
        let b = last.text(of: "b", json("b"))
        #expect(b == JSONWriter.compact(json("b")))
        #expect(b != a)
        #expect(last.text(of: "a", json("a")) == JSONWriter.compact(json("a")))
        #expect(counter.builds == 5)
    }
}
