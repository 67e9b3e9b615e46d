import Foundation
import PushboxJSON
import PushboxPayload
import Testing

@testable import PushboxDevice

/// What APNs and FCM keep for a device that is offline, and how a kept notification renders.
@Suite("Offline storage: what the push service keeps, for how long, and what replaces it")
struct OfflineStorageTests {
    static let received = Date(timeIntervalSince1970: 1_796_000_000)

    static func validated(_ json: String, headers: [(String, String)] = [], source: PayloadSource = .socket) throws -> ValidatedPayload {
        var pushHeaders = PushHeaders()
        for (name, value) in headers { pushHeaders.add(name, value) }
        let raw = RawPayload(bytes: Array(json.utf8), envelope: Envelope(source: source, headers: pushHeaders))
        let report = Validator.validate(raw, context: ValidationContext(deviceTopics: ["news"]))
        return try #require(report.validated, "\(String(describing: report.rejection))")
    }

    static let alert = #"{"aps":{"alert":"hi"}}"#

    @Test("APNs: one kept per app, for 30 days without apns-expiration, until a future apns-expiration, never with 0")
    func apns() throws {
        let plain = try Self.validated(Self.alert, headers: [("apns-topic", "dev.pushbox.sample")])
        #expect(
            OfflineStorage.decide(plain, receivedAt: Self.received)
                == .store(expiresAt: Self.received.addingTimeInterval(30 * 86_400), key: "apns:dev.pushbox.sample"))
        let hour = try Self.validated(Self.alert, headers: [("apns-topic", "dev.pushbox.sample.voip"), ("apns-expiration", "1796003600")])
        // The push type's topic suffix names the same app: one kept for the bundle id.
        #expect(
            OfflineStorage.decide(hour, receivedAt: Self.received)
                == .store(expiresAt: Date(timeIntervalSince1970: 1_796_003_600), key: "apns:dev.pushbox.sample"))
        let far = try Self.validated(Self.alert, headers: [("apns-expiration", "1896000000")])
        #expect(
            OfflineStorage.decide(far, receivedAt: Self.received) == .store(expiresAt: Self.received.addingTimeInterval(30 * 86_400), key: "apns:"))
        let once = try Self.validated(Self.alert, headers: [("apns-expiration", "0")])
        guard case .notStored = OfflineStorage.decide(once, receivedAt: Self.received) else {
            Issue.record("apns-expiration 0 was stored")
            return
        }
    }

    @Test("FCM: android.ttl (0s now or never, capped at 4 weeks), else apns-expiration; collapse_key or apns-collapse-id replaces")
    func fcm() throws {
        func decide(_ message: String) throws -> OfflineStorage.Decision {
            OfflineStorage.decide(
                try Self.validated(#"{"message":{"token":"t","notification":{"title":"x"},"# + message + "}}", source: .fcm),
                receivedAt: Self.received)
        }
        #expect(
            try decide(#""android":{"ttl":"90.5s","collapse_key":"score"}"#)
                == .store(expiresAt: Self.received.addingTimeInterval(90.5), key: "fcm:score"))
        #expect(try decide(#""android":{"ttl":"99999999s"}"#) == .store(expiresAt: Self.received.addingTimeInterval(28 * 86_400), key: nil))
        #expect(
            try decide(#""apns":{"headers":{"apns-collapse-id":"c1","apns-expiration":"1796000060"}}"#)
                == .store(expiresAt: Self.received.addingTimeInterval(60), key: "fcm:c1"))
        #expect(try decide(#""data":{"k":"v"}"#) == .store(expiresAt: Self.received.addingTimeInterval(28 * 86_400), key: nil))
        guard case .notStored = try decide(#""android":{"ttl":"0s"}"#) else {
            Issue.record("ttl 0s was stored")
            return
        }
    }

    @Test("only an accepted payload for this device is kept, and only while the device is offline")
    func onlyWhileOffline() throws {
        let offline = DeviceRegistration(offlineSince: 1)
        let ok = Validator.validate(RawPayload(bytes: Array(Self.alert.utf8), envelope: Envelope(source: .socket)), context: ValidationContext())
        #expect(offline.storage(of: ok, receivedAt: Self.received) != nil)
        #expect(DeviceRegistration().storage(of: ok, receivedAt: Self.received) == nil)
        let refused = Validator.validate(RawPayload(bytes: Array("{}".utf8), envelope: Envelope(source: .socket)), context: ValidationContext())
        #expect(offline.storage(of: refused, receivedAt: Self.received) == nil)
        let elsewhere = Validator.validate(
            RawPayload(bytes: Array(#"{"message":{"topic":"sport","notification":{"title":"x"}}}"#.utf8), envelope: Envelope(source: .fcm)),
            context: ValidationContext(deviceTopics: ["news"]))
        #expect(offline.storage(of: elsewhere, receivedAt: Self.received) == nil)
        #expect(DeviceRegistration(json: offline.json) == offline)
    }

    @Test("a kept notification shows nothing and says stored; expired while offline, discarded; delivered from storage, shown")
    func rendering() {
        var note = RenderedNotification(delivered: .original)
        (note.title, note.body) = ("Score", "2–1")
        let until = Self.received.addingTimeInterval(60)
        let stored = DeliveryRecord(state: .stored, at: Self.received, expiresAt: until)
        let now = note.delivering(stored, receivedAt: Self.received, now: Self.received.addingTimeInterval(1))
        #expect(now.delivered == .stored && now.title == nil && now.intended?.body == "2–1" && now.trace.last?.cause == .deviceOffline)
        let late = note.delivering(stored, receivedAt: Self.received, now: until)
        #expect(late.delivered == .discarded && late.trace.last?.cause == .expired)
        let back = note.delivering(
            DeliveryRecord(state: .deliveredFromStorage, at: Self.received.addingTimeInterval(5), expiresAt: until), receivedAt: Self.received,
            now: until)
        #expect(back.delivered == .original && back.title == "Score" && back.trace.map(\.cause) == [.deviceOffline, .fromStorage])
        let never = note.delivering(DeliveryRecord(state: .discardedExpired, at: Self.received), receivedAt: Self.received, now: until)
        #expect(never.delivered == .discarded && never.trace.map(\.cause) == [.expired])
        #expect(note.delivering(nil, receivedAt: Self.received, now: until).json == note.json)
    }
}
