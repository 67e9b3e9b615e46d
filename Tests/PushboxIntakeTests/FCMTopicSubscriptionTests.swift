import Foundation
import PushboxDevice
import PushboxFetch
import PushboxJSON
import PushboxPayload
import Testing

@testable import PushboxIntake

/// FCM's topic subscription API and the Instance ID batch calls, and what they do to the device.
@Suite("FCM topic subscriptions and the device's topics")
struct FCMTopicSubscriptionTests {
    static let collection =
        "/v1/projects/demo/registrations/\(DeviceIdentity.fcmToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/topicSubscriptions"
    static let stale = "staleInstance01:APA91b" + String(repeating: "x", count: 40)

    func call(_ f: PortFixture, _ method: String, _ path: String, _ body: String = "") throws -> (Int, JSONObject) {
        let client = try #require(UnixHTTPClient(socketPath: f.server.options.socketPath))
        let r = try client.request(method, url: "http://localhost" + path, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
            .get()
        return (r.status, (try? JSONParser.parse(r.body).objectValue) ?? JSONObject())
    }

    func send(_ f: PortFixture, _ condition: String) throws -> Bool {
        let (status, _) = try call(
            f, "POST", "/v1/projects/demo/messages:send", #"{"message":{"condition":"\#(condition)","notification":{"title":"c"}}}"#)
        #expect(status == 200)
        return try f.store.history().last?.targeting?.targeted == true
    }

    @Test("create, then ALREADY_EXISTS; get and list; delete, then NOT_FOUND unless allow_missing: the device's topics follow at once")
    func lifecycle() throws {
        let f = try PortFixture()
        #expect(try !send(f, "'LangKoKR' in topics"))
        let created = try call(f, "POST", Self.collection + "?topic_name=%2Ftopics%2FLangKoKR", "{}")
        #expect(created.0 == 200 && created.1["topic_name"] == "LangKoKR" && created.1["create_time"]?.stringValue != nil)
        #expect(created.1["name"]?.stringValue?.hasSuffix("/topicSubscriptions/LangKoKR") == true)
        #expect(try call(f, "POST", Self.collection, #"{"topic_name":"LangKoKR"}"#).1.value(atPath: "error.status") == "ALREADY_EXISTS")
        #expect(try send(f, "'LangKoKR' in topics"))
        #expect(try call(f, "GET", Self.collection + "/LangKoKR").0 == 200)
        let list = try call(f, "GET", Self.collection).1["topicSubscriptions"]?.arrayValue?.compactMap { $0.objectValue?["topic_name"]?.stringValue }
        #expect(list == ["LangEnUS", "LangKoKR", "NewsApp"])
        #expect(try call(f, "DELETE", Self.collection + "/LangKoKR").0 == 200)
        #expect(try !send(f, "'LangKoKR' in topics"))
        #expect(try call(f, "DELETE", Self.collection + "/LangKoKR").0 == 404)
        #expect(try call(f, "DELETE", Self.collection + "/LangKoKR?allow_missing=true").0 == 200)
        // One of the device's own topics can be left too.
        #expect(try call(f, "DELETE", Self.collection + "/NewsApp").0 == 200)
        #expect(try !send(f, "'NewsApp' in topics"))
        // A message that reached the device through a subscription is still shown as delivered later.
        let delivered = try f.store.history().filter { $0.targeting?.targeted == true }
        #expect(delivered.count == 1)
    }

    @Test("a malformed registration is 400 INVALID_ARGUMENT, a bad topic name 400, a stale token in strict mode 404 UNREGISTERED")
    func refusals() throws {
        let strict = try PortFixture(
            context: {
                var c = ValidationContext(bundleID: "dev.pushbox.sample", deviceTopics: ["NewsApp"])
                c.fcmTokens = .strict
                return c
            }())
        let malformed = try call(strict, "POST", "/v1/projects/demo/registrations/not%20a%20token/topicSubscriptions?topic_name=A", "{}")
        #expect(malformed.0 == 400 && malformed.1.value(atPath: "error.status") == "INVALID_ARGUMENT")
        let badTopic = try call(strict, "POST", Self.collection + "?topic_name=no%20spaces", "{}")
        #expect(badTopic.0 == 400)
        let stale = try call(strict, "POST", "/v1/projects/demo/registrations/\(Self.stale)/topicSubscriptions?topic_name=A", "{}")
        #expect(stale.0 == 404)
        #expect(stale.1.value(atPath: "error.details")?.arrayValue?.first?.objectValue?["errorCode"] == "UNREGISTERED")
        // In any mode the same token is this device.
        let any = try PortFixture()
        #expect(try call(any, "POST", "/v1/projects/demo/registrations/\(Self.stale)/topicSubscriptions?topic_name=A", "{}").0 == 200)
    }

    @Test("Instance ID batchAdd / batchRemove: one result per token, in order, the device's topics changed once")
    func instanceID() throws {
        let f = try PortFixture()
        let body = #"{"to":"/topics/Legacy","registration_tokens":["\#(DeviceIdentity.fcmToken)","not a token!"]}"#
        let added = try call(f, "POST", "/iid/v1:batchAdd", body)
        #expect(added.0 == 200)
        #expect(added.1["results"]?.arrayValue?.map { $0.objectValue?["error"]?.stringValue } == [nil, "INVALID_ARGUMENT"])
        #expect(try send(f, "'Legacy' in topics"))
        #expect(try call(f, "POST", "/iid/v1:batchRemove", body).0 == 200)
        #expect(try !send(f, "'Legacy' in topics"))
        #expect(try call(f, "POST", "/iid/v1:batchAdd", #"{"to":"/topics/bad name","registration_tokens":["a"]}"#).0 == 400)
    }

    @Test("an uninstalled app's topic subscriptions are gone: a topic message is answered 200 and not delivered")
    func uninstalled() throws {
        let f = try PortFixture()
        #expect(try send(f, "'NewsApp' in topics"))
        _ = try f.server.service.phone.registrationFile?.update { $0.uninstalledAt = 1 }
        #expect(try !send(f, "'NewsApp' in topics"))
        _ = try f.server.service.phone.registrationFile?.update { $0.uninstalledAt = nil }
        #expect(try send(f, "'NewsApp' in topics"))
    }

    @Test("the device's language topic follows the inbox's language picker, as the app re-subscribes on a locale change")
    func languageTopicFollows() throws {
        let f = try PortFixture()
        #expect(try send(f, "'LangEnUS' in topics"))
        f.server.service.phone.deviceLanguagesChanged(to: ["ko-KR"], profileTopics: ["NewsApp"])
        #expect(try send(f, "'LangKoKR' in topics"))
        #expect(try !send(f, "'LangEnUS' in topics"))
        #expect(try send(f, "'NewsApp' in topics"))
        // Another process (a second inbox's picker) keeps new languages with the inbox: followed from the next push.
        try f.server.service.phone.registrationFile?.record(app: nil, languages: ["ja-JP"])
        #expect(try send(f, "'LangJaJP' in topics"))
        #expect(try !send(f, "'LangKoKR' in topics"))
    }

    @Test("a path no route takes: Google's 404 on a Google host, APNs' BadPath on any other")
    func unknownPaths() {
        let google = APIRouter.notFound(headers: [("host", "fcm.googleapis.com")], listener: "tcp 127.0.0.1:2197")
        #expect(google.status == 404 && (try? JSONParser.parse(google.body).objectValue?.value(atPath: "error.status")) == "NOT_FOUND")
        let tunnel = APIRouter.notFound(headers: [], listener: "tcp 127.0.0.1:2197 via CONNECT iid.googleapis.com:443")
        #expect((try? JSONParser.parse(tunnel.body).objectValue?.value(atPath: "error.code")) == .number("404"))
        let apple = APIRouter.notFound(headers: [("host", "api.push.apple.com")], listener: "tcp 127.0.0.1:2197")
        #expect((try? JSONParser.parse(apple.body).objectValue?["reason"]) == "BadPath")
    }
}
