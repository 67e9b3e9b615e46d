import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import Testing

@testable import PushboxStore

/// What each push costs the store: only the indexes a query uses, and checkpoints away from the
/// commits that answer pushes.
@Suite("What an insert costs the inbox")
final class StoreWriteCostTests: Sendable {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-cost-\(UUID().uuidString)").path
    var path: String { folder + "/inbox.sqlite" }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func push(_ i: Int, file: String? = nil, bytes: Int = 200) -> RawPayload {
        let body = "{\"aps\":{\"alert\":\"\(i) " + String(repeating: "x", count: bytes) + "\"}}"
        return RawPayload(
            bytes: Array(body.utf8),
            envelope: Envelope(
                source: file == nil ? .socket : .folder, headers: PushHeaders([("apns-push-type", "alert")]),
                deviceToken: "abcd", fileName: file))
    }

    /// The inbox's own indexes by name (not SQLite's automatic ones).
    func indexNames() throws -> [String] {
        try SQLiteConnection(path: path).prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .rows { $0.text(0) ?? "" }
    }

    @Test("every query the inbox runs finds its rows through an index; no index serves nothing")
    func plans() throws {
        let store = try InboxStore(path: path)
        let contains = store.queryPlan(InboxStore.containsSQL).joined(separator: " | ")
        #expect(contains.contains("INDEX notifications_file"), "\(contains)")
        let inbox = store.queryPlan(InboxStore.selectSQL(InboxStore.inboxClause, limit: 100)).joined(separator: " | ")
        #expect(inbox.contains("USING INDEX notifications_collapse"), "\(inbox)")
        // Newest first straight from the row ids: no sort of the whole table.
        #expect(inbox.contains("SCAN notifications") && !inbox.contains("TEMP B-TREE"), "\(inbox)")
        let history = store.queryPlan(InboxStore.selectSQL(InboxStore.historyClause, limit: 100)).joined(separator: " | ")
        #expect(history.contains("SCAN notifications") && !history.contains("TEMP B-TREE"), "\(history)")
        for sql in [InboxStore.storedSQL, InboxStore.replaceSQL] {
            let plan = store.queryPlan(sql).joined(separator: " | ")
            #expect(plan.contains("INDEX notifications_stored"), "\(plan)")
        }
        #expect(try indexNames() == ["notifications_collapse", "notifications_file", "notifications_stored"])
    }

    @Test("a push from the socket with no collapse id adds no entry to the file or collapse index")
    func partialIndexes() throws {
        let store = try InboxStore(path: path)
        for i in 0..<20 { try store.insert(push(i), apnsID: "id-\(i)", verdict: .init(status: 200, topic: "app")) }
        try store.insert(push(20, file: "/w/a.json"), apnsID: "file", verdict: .init(status: 200, collapseID: "c", topic: "app"))
        let db = try SQLiteConnection(path: path)
        // An index's own rows, counted through it: one each, the file and the collapse id.
        let fileRows = try db.prepare("SELECT COUNT(*) FROM notifications INDEXED BY notifications_file WHERE file IS NOT NULL").rows { $0.int(0) }
        let collapseRows = try db.prepare("SELECT COUNT(*) FROM notifications INDEXED BY notifications_collapse WHERE collapse_id IS NOT NULL").rows {
            $0.int(0)
        }
        #expect(fileRows == [1] && collapseRows == [1])
        #expect(store.contains(file: "/w/a.json", contentHash: try #require(store.history().last?.contentHash)))
        #expect(try store.inbox().count == 21)
    }

    @Test("an inbox of schema 3 keeps its notifications and loses the apns-id and time indexes when opened")
    func migratesFromThree() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        do {
            let db = try SQLiteConnection(path: path)
            for version in 0..<3 { try db.execute(Schema.migrations[version]) }
            try db.execute("PRAGMA user_version = 3")
            try db.execute(
                "INSERT INTO notifications (apns_id, received_at, source, content_hash, headers, raw) VALUES ('old', 1, 'socket', '', '[]', x'7b7d')")
        }
        let store = try InboxStore(path: path)
        #expect(store.schemaVersion == Schema.version)
        #expect(try store.history().map(\.apnsID) == ["old"])
        #expect(try !indexNames().contains("notifications_apns_id"))
        #expect(try !indexNames().contains("notifications_received"))
    }

    @Test("an inbox of schema 7 gets what the inbox lists of each payload once, as opened; a new row keeps the intake's")
    func listingsFilledOnce() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        do {
            let db = try SQLiteConnection(path: path)
            for version in 0..<7 { try db.execute(Schema.migrations[version]) }
            try db.execute("PRAGMA user_version = 7")
            try db.execute(
                #"INSERT INTO notifications (apns_id, received_at, source, content_hash, headers, raw, status) VALUES ('alert', 1, 'socket', '', '[]', CAST('{"aps":{"alert":{"title-loc-key":"T","body":"b"},"thread-id":"x"}}' AS BLOB), 200)"#
            )
            try db.execute(
                #"INSERT INTO notifications (apns_id, received_at, source, content_hash, headers, raw, status) VALUES ('silent', 2, 'socket', '', '[]', CAST('{"aps":{"content-available":1}}' AS BLOB), 200)"#
            )
            try db.execute(
                "INSERT INTO notifications (apns_id, received_at, source, content_hash, headers, raw, status) VALUES ('broken', 3, 'socket', '', '[]', x'7b', 400)"
            )
        }
        let store = try InboxStore(path: path)
        let rows = try store.history()
        #expect(rows.map(\.apnsID) == ["alert", "silent", "broken"])
        #expect(rows[0].listing?.title == "[T]" && rows[0].listing?.body == "b" && rows[0].listing?.threadID == "x")
        #expect(rows[1].listing?.background == true && rows[1].listing?.title == nil)
        // A body that is not JSON has nothing to list.
        #expect(rows[2].listing == nil)
        var verdict = Verdict(status: 200)
        verdict.listing = PayloadListing(
            payload: try #require(try JSONParser.parse(Array(#"{"aps":{"alert":"hi"}}"#.utf8)).objectValue), pushType: nil)
        let id = try store.insert(push(1), apnsID: "new", verdict: verdict)
        #expect(try store.notification(id: id)?.listing?.body == "hi")
    }

    @Test("the log is checkpointed by the store's own thread while writers keep committing")
    func checkpointsOffTheCommitPath() throws {
        let store = try InboxStore(path: path, checkpointPages: 8)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 0..<50 { _ = try? store.insert(push(thread * 1000 + i, bytes: 2_000), apnsID: "t\(thread)-\(i)") }
        }
        // The pages reach the database file itself while the store is still open.
        let size = { ((try? FileManager.default.attributesOfItem(atPath: self.path)[.size]) as? Int) ?? 0 }
        let deadline = Date().addingTimeInterval(10)
        while size() < 100_000 && Date() < deadline { usleep(10_000) }
        #expect(store.checkpointsRun > 0)
        #expect(size() > 100_000, "database file \(size()) bytes")
        #expect(store.count == 200)
    }

    @Test("once a store is released, its files are settled: the log is copied back and removed, and the folder can go")
    func releasedStoreLeavesOneFile() throws {
        do {
            let store = try InboxStore(path: path, checkpointPages: 8)
            for i in 0..<40 { try store.insert(push(i, bytes: 2_000), apnsID: "r\(i)") }
            #expect(store.count == 40)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["inbox.sqlite"])
        try FileManager.default.removeItem(atPath: folder)
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test("a checkpoint is due once the threshold's pages were added since the last one copied the log, and counting restarts with the log")
    func checkpointSchedule() {
        var schedule = CheckpointSchedule(threshold: 1000)
        func due(_ frames: Int32) -> Bool { schedule.committed(logFrames: frames) }
        #expect(!due(999))
        #expect(due(1000))
        // The checkpoint copied 1,000 pages while writers appended 6 more: not due again until 2,000.
        schedule.checkpointed(copied: 1000)
        #expect(!due(1006))
        #expect(!due(1999))
        #expect(due(2000))
        // The log started over (a commit found it wholly copied): count from its start.
        schedule.checkpointed(copied: 2000)
        #expect(!due(3))
        #expect(schedule.copied == 0)
        #expect(due(1000))
    }
}
