import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// GET /inbox over the renderings: rendered on demand, every warning a diagnostic, reasons kept.
@Suite("GET /inbox and the renderings")
final class InboxRouteTests: Sendable {
    let folder = TemporaryFolder("pbir")
    var dir: String { folder.path }

    @Test("GET /inbox renders on demand what is still waiting, and keeps it")
    func listingRendersWaiting() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext()
        let renderings = Renderings(base: Renderer(context: context, preferredLanguages: ["en"]), store: store)
        let endpoint = APIRouter(service: IntakeService(store: store, context: context, renderings: renderings))
        // Stored, its rendering not made yet (as behind a burst).
        try store.insert(SyntheticPayloads.raw(7), apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000007", verdict: .init(status: 200))
        #expect(store.renderCount == 0)
        let answer = endpoint.handle(HTTPRequest(method: "GET", path: "/inbox", headers: [], body: []))
        let listed = try #require(try JSONParser.parse(answer.body).arrayValue?.first?.objectValue)
        #expect(listed["title"]?.stringValue?.hasSuffix("#7") == true)
        #expect(listed["delivered"]?.stringValue == "original")
        #expect(store.renderCount == 1)
    }

    @Test("GET /inbox carries every warning as a diagnostic with its code")
    func listingDiagnostics() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext()
        let renderings = Renderings(base: Renderer(context: context, preferredLanguages: ["en"]), store: store)
        let service = IntakeService(store: store, context: context, renderings: renderings)
        let endpoint = APIRouter(service: service)
        let body = Array(#"{"aps":{"alert":"x","badge":"3"}}"#.utf8)
        #expect(service.receive(RawPayload(bytes: body, envelope: Envelope(source: .socket, deviceToken: "abcd"))).status == 200)
        let answer = endpoint.handle(HTTPRequest(method: "GET", path: "/inbox", headers: [], body: []))
        let listed = try #require(try JSONParser.parse(answer.body).arrayValue?.first?.objectValue)
        let diagnostic = try #require(listed["diagnostics"]?.arrayValue?.first?.objectValue)
        #expect(diagnostic["code"] == .string(Diagnostic.Code.badgeType.rawValue) && diagnostic["field"] == .string("aps.badge"))
        service.drain()
    }

    @Test("GET /inbox keeps the reasons: a message not for this device and a refused one say why, and what they would have shown")
    func listingReasons() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext(bundleID: "dev.example", deviceTopics: ["NewsApp"])
        let renderings = Renderings(base: Renderer(context: context, preferredLanguages: ["en"]), store: store)
        let service = IntakeService(store: store, context: context, renderings: renderings)
        let endpoint = APIRouter(service: service)
        let fcm = Array(#"{"message":{"topic":"Sports","notification":{"title":"Goal!","body":"2–1"}}}"#.utf8)
        #expect(service.receive(RawPayload(bytes: fcm, envelope: Envelope(source: .fcm))).status == 200)
        var headers = PushHeaders()
        headers.add("apns-priority", "7")
        let refused = Array(#"{"aps":{"alert":{"title":"Late","body":"never shown"}}}"#.utf8)
        #expect(service.receive(RawPayload(bytes: refused, envelope: Envelope(source: .socket, headers: headers, deviceToken: "abcd"))).status == 400)
        service.drain()
        let answer = endpoint.handle(HTTPRequest(method: "GET", path: "/inbox", headers: [], body: []))
        let listed = try #require(try JSONParser.parse(answer.body).arrayValue?.compactMap(\.objectValue))
        try #require(listed.count == 2)
        let (bad, notForUs) = (listed[0], listed[1])
        #expect(notForUs["reason"] == "NotTargeted" && notForUs["delivered"] == "rejected")
        #expect(notForUs["detail"]?.stringValue?.isEmpty == false)
        #expect(notForUs["title"] == .null)
        #expect(notForUs.value(atPath: "intended.title") == "Goal!" && notForUs.value(atPath: "intended.body") == "2–1")
        #expect(bad["reason"] == "BadPriority" && bad["status"] == 400)
        #expect(bad.value(atPath: "intended.title") == "Late")
    }
}
