import Foundation
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxTestSupport
import Testing

@testable import PushboxIntake

@Suite("APNs answers over the real Unix socket")
struct APNsAnswerTests {
    static let ok = #"{"aps":{"alert":"hi"}}"#

    @Test(
        "each refusal gets APNs' status and reason, with an apns-id",
        arguments: [
            (ok, "zz-not-hex", [("apns-push-type", "alert")], 400, "BadDeviceToken"),
            ("", "abcd", [("apns-push-type", "alert")], 400, "PayloadEmpty"),
            (#"{"aps":"#, "abcd", [("apns-push-type", "alert")], 400, "PayloadEmpty"),
            (ok, "abcd", [("apns-collapse-id", String(repeating: "c", count: 65))], 400, "BadCollapseId"),
            (ok, "abcd", [("apns-priority", "7")], 400, "BadPriority"),
            (ok, "abcd", [("apns-push-type", "banner")], 400, "InvalidPushType"),
            (ok, "abcd", [("apns-expiration", "soon")], 400, "BadExpirationDate"),
            (ok, "abcd", [("apns-id", "42")], 400, "BadMessageId"),
            (ok, "abcd", [("apns-priority", "5"), ("apns-priority", "10")], 400, "DuplicateHeaders"),
            (String(repeating: "x", count: 4097), "abcd", [("apns-push-type", "alert")], 413, "PayloadTooLarge"),
        ] as [(String, String, [(String, String)], Int, String)])
    func refusals(body: String, token: String, headers: [(String, String)], status: Int, reason: String) throws {
        let f = try IntakeFixture()
        let r = f.post(body, token: token, headers: headers)
        #expect(r.status == status)
        #expect(IntakeFixture.reason(r) == reason)
        if status == 400 {
            #expect(r.header("apns-id") != nil)
            // Every payload that was read is stored, refused or not.
            #expect(f.store.count == 1)
            #expect(try f.store.history().first?.reason == reason)
        }
    }

    @Test("200 echoes the apns-id sent, or makes one; the payload is stored before the answer")
    func accepted() throws {
        let f = try IntakeFixture()
        let sent = "123E4567-E89B-12D3-A456-426614174000"
        let r = f.post(Self.ok, headers: [("apns-push-type", "alert"), ("apns-id", sent)])
        #expect(r.status == 200)
        #expect(r.header("apns-id") == sent.lowercased())
        let stored = try #require(try f.store.history().first)
        #expect(stored.apnsID == sent.lowercased() && stored.status == 200 && stored.source == .socket && stored.deviceToken == "abcd1234")
        let generated = f.post(Self.ok).header("apns-id") ?? ""
        #expect(PushHeaders.isCanonicalUUID(generated))
    }

    @Test("paths and methods: BadPath, MethodNotAllowed, MissingDeviceToken, MissingTopic with a bundle id")
    func routing() throws {
        let f = try IntakeFixture(bundleID: "dev.example")
        #expect(IntakeFixture.reason(f.post(Self.ok, path: "/3/devices/x")) == "BadPath")
        let get = f.post("", method: "GET", path: "/3/device/abcd")
        #expect(get.status == 405 && IntakeFixture.reason(get) == "MethodNotAllowed")
        #expect(IntakeFixture.reason(f.post(Self.ok, path: "/3/device/")) == "MissingDeviceToken")
        #expect(IntakeFixture.reason(f.post(Self.ok)) == "MissingTopic")
        #expect(f.post(Self.ok, headers: [("apns-topic", "dev.example")]).status == 200)
        #expect(IntakeFixture.reason(f.post(Self.ok, headers: [("apns-topic", "com.other")])) == "DeviceTokenNotForTopic")
    }

    @Test("GET /inbox returns the stored notifications as JSON")
    func inbox() throws {
        let f = try IntakeFixture()
        _ = f.post(Self.ok)
        let r = f.post("", method: "GET", path: "/inbox")
        #expect(r.status == 200)
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(text.hasPrefix("[{\"id\":1,\"apnsId\":"))
        #expect(text.contains("\"source\":\"socket\""))
    }

    @Test("GET /inbox pages: 100 by default, limit and before for the rest")
    func inboxPages() throws {
        let f = try IntakeFixture()
        for i in 0..<130 { _ = f.post(#"{"aps":{"alert":"n\#(i)"}}"#) }
        func ids(_ path: String) throws -> [Int] {
            let r = f.post("", method: "GET", path: path)
            return try #require(try JSONParser.parse(r.body).arrayValue).compactMap { $0.objectValue?["id"]?.intValue }
        }
        let first = try ids("/inbox")
        #expect(first.count == 100 && first.first == 130 && first.last == 31)
        #expect(try ids("/inbox?limit=5") == [130, 129, 128, 127, 126])
        #expect(try ids("/inbox?limit=50&before=31") == Array((1...30).reversed()))
    }

    @Test("curl --unix-socket, as the README shows, gets the same answers")
    func curl() throws {
        let f = try IntakeFixture()
        func run(_ args: [String]) throws -> String {
            try Subprocess.run("/usr/bin/curl", ["-s", "-i", "--unix-socket", f.socket] + args, timeout: 20).out
        }
        let ok = try run(["-H", "apns-push-type: alert", "-d", Self.ok, "http://localhost/3/device/abcd"])
        #expect(ok.hasPrefix("HTTP/1.1 200"))
        #expect(ok.lowercased().contains("apns-id: "))
        let bad = try run(["-H", "apns-priority: 3", "-d", Self.ok, "http://localhost/3/device/abcd"])
        #expect(bad.hasPrefix("HTTP/1.1 400"))
        #expect(bad.hasSuffix("{\"reason\":\"BadPriority\"}"))
    }
}
