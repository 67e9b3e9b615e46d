import Foundation
import PushboxInbox
import PushboxJSON
import PushboxSystem
import Testing

/// The numbered, kept events a reader of `/api/v1/events` resumes from.
@Suite("Inbox events")
struct InboxEventsTests {
    /// Publishes `n` events named `e1`…
    static func publish(_ events: InboxEvents, _ range: ClosedRange<Int>) {
        for i in range { events.publish("e\(i)", .number(String(i))) }
    }

    @Test("a listener that resumes after an id hears the kept events after it, then the new ones, each once and in order")
    func resume() {
        let events = InboxEvents()
        Self.publish(events, 1...5)
        let heard = Locked<[InboxEvent]>([])
        let key = events.subscribe(after: 3) { burst in
            heard.withLock { $0 += burst }
            return true
        }
        Self.publish(events, 6...7)
        events.unsubscribe(key)
        Self.publish(events, 8...8)
        #expect(heard.withLock { $0.map(\.id) } == [4, 5, 6, 7])
        #expect(heard.withLock { $0.map(\.data) } == ["4", "5", "6", "7"])
    }

    @Test("events no longer kept are said as one gap; an id from another run replays all that is kept")
    func gapAndAnotherRun() {
        let events = InboxEvents()
        Self.publish(events, 1...(InboxEvents.kept + 5))
        let heard = Locked<[InboxEvent]>([])
        events.subscribe(after: 2) { burst in
            heard.withLock { $0 += burst }
            return false
        }
        let first = heard.withLock { $0.first }
        #expect(first?.name == "gap" && first?.id == 0)
        #expect(
            first.flatMap { try? JSONParser.parse(Array($0.data.utf8)).objectValue } == JSONObject([("from", .number("3")), ("to", .number("5"))]))
        #expect(heard.withLock { $0.dropFirst().map(\.id) } == Array(6...Int64(InboxEvents.kept + 5)))
        let other = Locked<[Int64]>([])
        events.subscribe(after: 1_000_000) { burst in
            other.withLock { $0 += burst.map(\.id) }
            return false
        }
        #expect(other.withLock { $0.count } == InboxEvents.kept + 1 && other.withLock { $0.first } == 0, "a gap, then all that is kept")
        #expect(!events.hasListeners, "a listener that says it no longer listens is dropped")
    }
}
