import Foundation
import PushboxCore
@testable import PushboxIntake
import PushboxStore
import PushboxText
import Testing

/// The rendering backlog: answers first, every notification rendered once the intake is quiet.
@Suite("Rendering after a burst")
final class RenderBacklogTests: Sendable {
    let dir = "/tmp/pbr-\(UUID().uuidString.prefix(8))"

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    @Test("the backlog waits while pushes keep coming, and not past the quiet period or its length limit")
    func waitPolicy() {
        #expect(NotificationProcessor.mustWait(quietFor: .milliseconds(1), waiting: 10))
        #expect(!NotificationProcessor.mustWait(quietFor: NotificationProcessor.quietPeriod, waiting: 10))
        #expect(!NotificationProcessor.mustWait(quietFor: .milliseconds(1), waiting: NotificationProcessor.maxDeferred))
    }

    @Test("every notification of a burst is rendered and stored, those past the kept payloads too")
    func wholeBurst() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext()
        let renderer = Renderer(context: context, preferredLanguages: ["en"])
        let processor = NotificationProcessor(renderer: renderer, store: store)
        let service = IntakeService(store: store, context: context, processor: processor)
        let count = NotificationProcessor.payloadsKept + 20
        var ids: [Int64] = []
        for i in 0..<count {
            let raw = RawPayload(bytes: Array(SyntheticPayloads.make(i).utf8), envelope: Envelope(source: .socket, deviceToken: "abcd"))
            let result = service.receive(raw)
            #expect(result.status == 200)
            ids.append(try #require(result.id))
        }
        processor.drain()
        #expect(store.renderCount == count)
        // The last one was read back from the store and validated again: the same notification.
        for index in [0, count - 1] {
            let stored = try #require(processor.stored(id: ids[index]))
            let fresh = renderer.render(try #require(try store.notification(id: ids[index])).rawPayload)
            #expect(stored.title == fresh.title && stored.body == fresh.body && stored.status == fresh.status)
            #expect(stored.title?.hasSuffix("#\(index)") == true)
        }
    }

    @Test("GET /inbox renders on demand what is still waiting, and keeps it")
    func listingRendersWaiting() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext()
        let processor = NotificationProcessor(renderer: Renderer(context: context, preferredLanguages: ["en"]), store: store)
        let endpoint = APNsEndpoint(service: IntakeService(store: store, context: context, processor: processor))
        // Stored, its rendering not made yet (as behind a burst).
        try store.insert(RawPayload(bytes: Array(SyntheticPayloads.make(7).utf8), envelope: Envelope(source: .socket, deviceToken: "abcd")),
                         apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000007", verdict: .init(status: 200))
        #expect(store.renderCount == 0)
        let answer = endpoint.handle(HTTPRequest(method: "GET", path: "/inbox", headers: [], body: []))
        let listed = try #require(try JSONParser.parse(answer.body).arrayValue?.first?.objectValue)
        #expect(listed["title"]?.stringValue?.hasSuffix("#7") == true)
        #expect(listed["delivered"]?.stringValue == "original")
        #expect(store.renderCount == 1)
    }
}

