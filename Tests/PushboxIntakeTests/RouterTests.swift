import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// The HTTP API's one table of routes: which route takes a path, and the router's refusals in
/// each route's shape.
@Suite("The route table")
final class RouterTests: Sendable {
    let folder = TemporaryFolder("pbrt")
    var dir: String { folder.path }

    func router() throws -> APIRouter {
        APIRouter(service: IntakeService(store: try InboxStore(path: dir + "/inbox.sqlite"), context: ValidationContext(), renderings: nil))
    }

    func head(_ method: String, _ path: String, _ headers: [(name: String, value: String)] = []) -> RequestHead {
        RequestHead(
            method: method, path: path, headers: headers,
            connection: ConnectionInfo(listener: "test", protocolName: "http/1.1", tls: false, requiresAuth: false))
    }

    @Test(
        "each path goes to its route, and a path no route takes to none",
        arguments: [
            ("/3/device/abcd", "apns-push"), ("/v1/projects/demo/messages:send", "fcm-send"), ("/token", "oauth-token"),
            ("/oauth2/v4/token", "oauth-token"), ("/inbox", "inbox"), ("/pushbox/schedule", "schedule"), ("/pushbox/pending", "pending"),
            ("/pushbox/pending/a*", "cancel"), ("/pushbox/clock", "clock"), ("/pushbox/other", "pushbox-unknown"),
            ("/v1/projects//messages:send", nil), ("/4/device/abcd", nil),
        ] as [(String, String?)])
    func routing(path: String, route: String?) throws {
        #expect(try router().route(for: path)?.name == route)
    }

    @Test("a wrong method is refused in the route's own shape: APNs' reason, Google's error")
    func methodShapes() throws {
        let r = try router()
        let apns = try #require(r.early(head("GET", "/3/device/abcd")).response)
        #expect(apns.status == 405 && apns.headers.contains { $0.0 == "apns-id" })
        #expect(try JSONParser.parse(apns.body).objectValue?["reason"] == .string(APNsReason.methodNotAllowed.rawValue))
        let google = try #require(r.early(head("GET", "/v1/projects/demo/messages:send")).response)
        #expect(google.status == 405)
        #expect(try JSONParser.parse(google.body).objectValue?.value(atPath: "error.status") == .string("METHOD_NOT_ALLOWED"))
        #expect(r.early(head("DELETE", "/pushbox/pending/")).response?.status == 405)
        #expect(r.early(head("GET", "/pushbox/other")).response?.status == 404)
        #expect(r.early(head("POST", "/elsewhere")).response?.status == 404)
    }

    @Test("a declared body over a route's limit is refused before it is read; a push's is read, to be judged and kept")
    func bodyLimits() throws {
        let r = try router()
        let alert = r.early(head("POST", "/3/device/abcd", [(name: "content-length", value: "5000")]))
        #expect(alert.response == nil && alert.handsOverOversize && alert.maxBody == APNsEndpoint.keptBody)
        #expect(r.early(head("POST", "/token", [(name: "content-length", value: String(FCMEndpoint.maxBody + 1))])).response?.status == 413)
    }

    @Test("requests that arrive together are answered in order: pushes in one transaction, the others one by one, as each would be alone")
    func batch() throws {
        let r = try router()
        func request(_ method: String, _ path: String, _ body: String = "") -> HTTPRequest {
            HTTPRequest(method: method, path: path, headers: [("apns-push-type", "alert")], body: Array(body.utf8))
        }
        let requests = [
            request("POST", "/3/device/aa11", #"{"aps":{"alert":"one"}}"#), request("GET", "/inbox"),
            request("POST", "/3/device/aa22", #"{"aps":{}}"#), request("POST", "/elsewhere"),
            request("POST", "/3/device/aa33", "not json"), request("POST", "/3/device/aa44", #"{"aps":{"alert":"four"}}"#),
        ]
        let together = r.handle(batch: requests)
        #expect(together.map(\.status) == [200, 200, 200, 404, 400, 200])
        // The same requests one by one give the same answers.
        let alone = try router().handle(batch: [requests[0]]) + requests.dropFirst().map { r.handle($0) }
        #expect(alone.map(\.status) == together.map(\.status))
        // The pushes were stored in the order they came, each once.
        let tokens = try r.service.store.history().sorted { $0.id < $1.id }.compactMap(\.deviceToken)
        #expect(tokens.prefix(4) == ["aa11", "aa22", "aa33", "aa44"])
    }
}
