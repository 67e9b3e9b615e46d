import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// One arrival event per stored payload, published after its answer is sent, never before, and
/// never lost when the answer is not sent at all.
@Suite("The arrival feed")
final class ArrivalFeedTests: Sendable {
    let folder = TemporaryFolder("pbaf")
    var dir: String { folder.path }

    func push(_ router: APIRouter) -> HTTPResponse {
        router.handle(HTTPRequest(method: "POST", path: "/3/device/abcd", headers: [], body: Array(#"{"aps":{"alert":"hi"}}"#.utf8)))
    }

    @Test("a push's arrival is published once its answer was sent, with the validation the intake made")
    func afterTheAnswer() throws {
        let service = IntakeService(store: try InboxStore(path: dir + "/inbox.sqlite"), context: ValidationContext(), renderings: nil)
        let heard = Locked<[ArrivalEvent]>([])
        service.arrivals.subscribe { events in heard.withLock { $0 += events } }
        let router = APIRouter(service: service)
        let response = push(router)
        #expect(response.status == 200)
        service.arrivals.flush()
        #expect(heard.withLock { $0.isEmpty })
        let sent = try #require(response.afterSent)
        sent()
        sent()  // a second call publishes nothing more
        service.arrivals.flush()
        let events = heard.withLock { $0 }
        #expect(events.count == 1)
        #expect(events.first?.report?.ok == true && events.first?.stored.deviceToken == "abcd")
        #expect(events.first?.result.apnsID == response.headers.first { $0.0 == "apns-id" }?.1)
    }

    @Test("an answer never sent (the connection closed first) still publishes its stored arrival")
    func droppedAnswer() throws {
        let service = IntakeService(store: try InboxStore(path: dir + "/inbox.sqlite"), context: ValidationContext(), renderings: nil)
        let heard = Locked(0)
        service.arrivals.subscribe { events in heard.withLock { $0 += events.count } }
        let router = APIRouter(service: service)
        do { _ = push(router) }
        service.arrivals.flush()
        #expect(heard.withLock { $0 } == 1)
        #expect(service.store.count == 1)
    }
}
