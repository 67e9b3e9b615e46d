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
}
