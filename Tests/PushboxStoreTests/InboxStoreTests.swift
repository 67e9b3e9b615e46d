import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxSystem
import Testing

@testable import PushboxStore

@Suite("The SQLite inbox")
final class InboxStoreTests: Sendable {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-store-\(UUID().uuidString)/inbox.sqlite").path

    // A class, so each test's database folder is removed when it ends, passed or failed.
    deinit { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }

    func raw(_ text: String, collapse: String? = nil, file: String? = nil, at time: Double = 1_000) -> RawPayload {
        var headers = PushHeaders([("apns-push-type", "alert")])
        if let collapse { headers.add("apns-collapse-id", collapse) }
        return RawPayload(
            bytes: Array(text.utf8),
            envelope: Envelope(source: .socket, receivedAt: Date(timeIntervalSince1970: time), headers: headers, deviceToken: "abcd", fileName: file))
    }

    @Test("raw bytes, headers, source and time come back exactly; WAL mode; the newest schema")
    func roundTrip() throws {
        let store = try InboxStore(path: path)
        let bytes = Array(#"{"aps":{"alert":"hi \u00e9"}}"#.utf8) + [0xFF]  // even invalid bytes are kept
        let id = try store.insert(RawPayload(bytes: bytes, envelope: raw("").envelope), apnsID: "11111111-1111-1111-1111-111111111111")
        let n = try #require(try store.notification(id: id))
        #expect(n.raw == bytes)
        #expect(n.headers["apns-push-type"] == "alert")
        #expect(n.source == .socket && n.deviceToken == "abcd")
        #expect(n.receivedAt.timeIntervalSince1970 == 1_000)
        #expect(n.status == nil)
        let refused = try store.insert(raw("x"), apnsID: "r", verdict: .init(status: 400, reason: "PayloadEmpty", detail: "bad"))
        #expect(try store.notification(id: refused)?.reason == "PayloadEmpty")
        #expect(store.schemaVersion == Schema.version)
        let reopened = try InboxStore(path: path)
        #expect(reopened.count == 2)
        #expect(reopened.journalMode == "wal")
    }

    @Test("each push keeps its own arrival, when consecutive pushes arrive the same way or not")
    func arrivals() throws {
        let store = try InboxStore(path: path)
        let socket = Arrival(listener: "unix /s.sock", protocolName: "http/1.1", tls: false, userAgent: "curl/8")
        let port = Arrival(
            listener: "tcp 127.0.0.1:2197", protocolName: "h2", tls: true, userAgent: nil,
            authentication: .providerToken(teamID: "T", keyID: "K", ageSeconds: 3, verified: true))
        var ids: [Int64] = []
        for arrival in [socket, socket, port, socket] {
            var r = raw("{}")
            r.envelope.arrival = arrival
            ids.append(try store.insert(r, apnsID: "a\(ids.count)"))
        }
        #expect(try ids.map { try store.notification(id: $0)?.arrival } == [socket, socket, port, socket])
    }

    @Test("the inbox and history keep the order of arrival, also when the clock stepped back between two pushes")
    func arrivalOrder() throws {
        let store = try InboxStore(path: path)
        try store.insert(raw("first", at: 5_000), apnsID: "first")
        try store.insert(raw("second", at: 3_000), apnsID: "second")  // the wall clock was set back
        #expect(try store.inbox().map(\.apnsID) == ["second", "first"])
        #expect(try store.history().map(\.apnsID) == ["first", "second"])
        #expect(try store.history().last?.receivedAt.timeIntervalSince1970 == 3_000)
    }

    @Test("a collapse id replaces the earlier notification in the inbox; history keeps both")
    func collapse() throws {
        let store = try InboxStore(path: path)
        try store.insert(raw("1", collapse: "score", at: 1), apnsID: "a", verdict: .init(status: 200, collapseID: "score", topic: "app"))
        try store.insert(raw("2", collapse: "score", at: 2), apnsID: "b", verdict: .init(status: 200, collapseID: "score", topic: "app"))
        try store.insert(raw("3", at: 3), apnsID: "c", verdict: .init(status: 200, topic: "app"))
        #expect(try store.inbox().map(\.apnsID) == ["c", "b"])
        #expect(try store.history().map(\.apnsID) == ["a", "b", "c"])
    }

    @Test("a file's path and content hash are remembered for the folder watch")
    func files() throws {
        let store = try InboxStore(path: path)
        let r = raw("{}", file: "/w/a.json")
        try store.insert(r, apnsID: "x")
        let hash = try #require(try store.history().first?.contentHash)
        #expect(store.contains(file: "/w/a.json", contentHash: hash))
        #expect(!store.contains(file: "/w/a.json", contentHash: "other"))
        #expect(!store.contains(file: "/w/b.json", contentHash: hash))
    }

    @Test("renders are kept per language and reused")
    func renders() throws {
        let store = try InboxStore(path: path)
        let id = try store.insert(raw("{}"), apnsID: "x")
        try store.saveRender(id: id, language: "ko", json: "{\"title\":\"안녕\"}")
        #expect(store.render(id: id, language: "ko") == "{\"title\":\"안녕\"}")
        #expect(store.render(id: id, language: "en") == nil)
    }

    @Test("a store from a newer pushbox is refused, not damaged")
    func newerSchema() throws {
        _ = try InboxStore(path: path)
        // Simulate a future schema version.
        let dbPath = path
        try SQLiteConnection(path: dbPath).execute("PRAGMA user_version = 99")
        #expect { try InboxStore(path: dbPath) } throws: { "\($0)".contains("newer pushbox") }
    }

    @Test("concurrent writers share group commits: every insert gets its own id and is stored with its verdict")
    func groupCommit() throws {
        let store = try InboxStore(path: path)
        let ids = Locked<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<200 {
                let r = raw("{\"w\":\(worker),\"i\":\(i)}")
                let id = try! store.insert(
                    r, apnsID: "\(worker)-\(i)", verdict: .init(status: 200, collapseID: i % 2 == 0 ? "c\(worker)" : nil, topic: "t"))
                ids.withLock { $0.append(id) }
            }
        }
        #expect(Set(ids.withLock { $0 }).count == 1600)
        #expect(store.count == 1600)
        #expect(try store.history().allSatisfy { $0.status == 200 && $0.topic == "t" })
    }
    @Test("several rows in one call: committed in order with ascending ids, each read back as given, beside a concurrent single insert")
    func insertRows() throws {
        let store = try InboxStore(path: path)
        let first = try store.insert(raw(#"{"n":0}"#), apnsID: "00000000-0000-0000-0000-000000000000")
        let rows = (1...5).map {
            (raw: raw(#"{"n":\#($0)}"#, at: Double(1_000 + $0)), apnsID: "00000000-0000-0000-0000-00000000000\($0)", verdict: Verdict?.none)
        }
        let stored = store.insertRows(rows).compactMap { try? $0.get() }
        #expect(stored.count == 5)
        #expect(stored.map(\.id) == (1...5).map { first + Int64($0) })
        for (row, n) in zip(stored, 1...5) {
            let back = try #require(try store.notification(id: row.id))
            #expect(
                back.raw == Array(#"{"n":\#(n)}"#.utf8) && back.apnsID == row.apnsID && back.receivedAt.timeIntervalSince1970 == Double(1_000 + n))
        }
        #expect(store.insertRows([]).isEmpty)
    }
}

/// What the push service keeps while the device is offline, as the inbox stores it.
@Suite("The inbox while the device is offline")
final class OfflineInboxStoreTests: Sendable {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-offline-\(UUID().uuidString)/inbox.sqlite").path
    deinit { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }

    func push(_ n: Int) -> RawPayload {
        RawPayload(bytes: Array("{\"n\":\(n)}".utf8), envelope: Envelope(source: .socket, receivedAt: Date(timeIntervalSince1970: Double(1_000 + n))))
    }

    func verdict(_ decision: OfflineStorage.Decision) -> Verdict { .init(status: 200, topic: "app", storage: decision) }

    @Test("a newer notification under the same key replaces the stored one, also within one group commit; other keys stay")
    func replaces() throws {
        let store = try InboxStore(path: path)
        let until = Date(timeIntervalSince1970: 9_000)
        let first = try store.insert(push(1), apnsID: "1", verdict: verdict(.store(expiresAt: until, key: "apns:app")))
        let other = try store.insert(push(2), apnsID: "2", verdict: verdict(.store(expiresAt: until, key: nil)))
        // Eight at once share a commit: only the last of them stays stored.
        let ids = Locked<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            if let id = try? store.insert(push(10 + i), apnsID: "c\(i)", verdict: verdict(.store(expiresAt: until, key: "apns:app"))) {
                ids.withLock { $0.append(id) }
            }
        }
        let all = try store.history()
        #expect(all.count == 10)
        #expect(all.first { $0.id == first }?.delivery?.state == .discardedReplaced)
        // Replaced when the first of the eight arrived.
        #expect((all.first { $0.id == first }?.delivery?.at.timeIntervalSince1970 ?? 0) >= 1_010)
        #expect(all.first { $0.id == other }?.delivery == DeliveryRecord(state: .stored, at: Date(timeIntervalSince1970: 1_002), expiresAt: until))
        let stillStored = all.filter { $0.delivery?.state == .stored }.map(\.id)
        #expect(stillStored == [other, ids.withLock { $0.max()! }])
        let notStored = try store.insert(push(30), apnsID: "0", verdict: verdict(.notStored("ttl 0s")))
        #expect(try store.notification(id: notStored)?.delivery?.state == .discardedExpired)
        #expect(try store.notification(id: notStored)?.delivery?.expiresAt == nil)
    }

    @Test("a newer notification under the same key does not relabel one whose expiration had passed: it stays discarded as expired")
    func expiredIsNotReplaced() throws {
        let store = try InboxStore(path: path)
        // Kept at 1,001 until 1,005; the next push under the key comes at 1,020.
        let expired = try store.insert(push(1), apnsID: "1", verdict: verdict(.store(expiresAt: Date(timeIntervalSince1970: 1_005), key: "apns:app")))
        let newer = try store.insert(push(20), apnsID: "2", verdict: verdict(.store(expiresAt: Date(timeIntervalSince1970: 9_000), key: "apns:app")))
        #expect(try store.notification(id: expired)?.delivery?.state == .stored)
        let changed = try store.deliverStored(at: Date(timeIntervalSince1970: 2_000))
        #expect(
            changed[expired]
                == DeliveryRecord(state: .discardedExpired, at: Date(timeIntervalSince1970: 1_005), expiresAt: Date(timeIntervalSince1970: 1_005)))
        #expect(changed[newer]?.state == .deliveredFromStorage)
    }

    @Test("back online: expired ones are discarded at their expiration, the rest delivered from storage, once")
    func deliverStored() throws {
        let store = try InboxStore(path: path)
        let soon = try store.insert(push(1), apnsID: "1", verdict: verdict(.store(expiresAt: Date(timeIntervalSince1970: 1_500), key: nil)))
        let later = try store.insert(push(2), apnsID: "2", verdict: verdict(.store(expiresAt: Date(timeIntervalSince1970: 5_000), key: nil)))
        let online = try store.insert(push(3), apnsID: "3", verdict: .init(status: 200))
        let back = Date(timeIntervalSince1970: 2_000)
        let changed = try store.deliverStored(at: back)
        #expect(
            changed[soon]
                == DeliveryRecord(state: .discardedExpired, at: Date(timeIntervalSince1970: 1_500), expiresAt: Date(timeIntervalSince1970: 1_500)))
        #expect(changed[later] == DeliveryRecord(state: .deliveredFromStorage, at: back, expiresAt: Date(timeIntervalSince1970: 5_000)))
        #expect(changed.count == 2)
        #expect(try store.notification(id: online)?.delivery == nil)
        #expect(try store.notification(id: later)?.delivery?.state == .deliveredFromStorage)
        #expect(try store.deliverStored(at: back).isEmpty)
    }

}
