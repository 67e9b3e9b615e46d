import Foundation
import PushboxCrypto
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxSystem

// @unchecked: the SQLite connection and its prepared statements are used only with `lock` held
// (group commits queue in `inserts`); InboxStoreTests inserts from 8 threads at once.
/// The inbox: SQLite in WAL mode. A payload is committed before anything else happens to it, so
/// an acknowledged notification survives `kill -9`; every use is serialized on one connection.
public final class InboxStore: @unchecked Sendable {
    /// The database file.
    public let path: String
    let db: SQLiteConnection
    private let lock = NSLock()
    private let insertStatement: Statement
    // Prepared once: BEGIN and COMMIT through sqlite3_exec were parsed on every commit.
    let beginStatement: Statement
    let commitStatement: Statement
    private let renderStatement: Statement
    /// Reads one stored rendering: prepared once, as a search reads one for each row it judges.
    private let renderReadStatement: Statement
    /// Marks the notification stored under a key replaced (APNs keeps one per app while offline).
    private let replaceStatement: Statement
    /// Checkpoints the log off the commit path.
    private let checkpointer: WALCheckpointer
    /// Told of this store's changes to notifications already stored (`onChange`).
    let changeListeners = Locked<[@Sendable (StoreChange) -> Void]>([])

    /// `$XDG_DATA_HOME/pushbox/inbox.sqlite`, else `~/.local/share/pushbox/inbox.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = XDG.dataHome(environment)
        return (base as NSString).appendingPathComponent("pushbox/inbox.sqlite")
    }

    /// Opens (or makes) the inbox at `path`, in WAL mode, migrating its schema; a file that is no inbox or is locked is an error that says so.
    /// `checkpointPages`: log pages after which the log is checkpointed (SQLite's default is 1000).
    public init(path: String, checkpointPages: Int32 = 1000) throws(StoreError) {
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw StoreError(
                    message: "cannot create \(dir) for the inbox \(path): \(FileErrorText.describe(error)); pass another --db", kind: .unwritable)
            }
        }
        do throws(StoreError) {
            db = try SQLiteConnection(path: path)
            // WAL with NORMAL sync: a commit survives the process being killed at any moment.
            try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
            try Self.migrate(db)
        } catch {
            throw error.explained(path: path)
        }
        insertStatement = try db.prepare(
            """
            INSERT INTO notifications (apns_id, received_at, source, file, content_hash, device_token, headers, raw,
                                       status, reason, detail, collapse_id, topic, arrival, delivery, delivery_at, expires_at, hold_key,
                                       targeting, live_activity, listed_title, listed_body, listed_thread, listed_fired_at, listed_flags,
                                       device_at, device_zone, device, presentation)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        replaceStatement = try db.prepare(Self.replaceSQL)
        beginStatement = try db.prepare("BEGIN IMMEDIATE")
        commitStatement = try db.prepare("COMMIT")
        renderStatement = try db.prepare("INSERT OR REPLACE INTO renders (notification_id, language, json) VALUES (?, ?, ?)")
        renderReadStatement = try db.prepare("SELECT json FROM renders WHERE notification_id = ? AND language = ?")
        // A log that grew during a long burst is cut back to 16 MB once checkpointed.
        try db.execute("PRAGMA journal_size_limit=16777216")
        checkpointer = try WALCheckpointer(path: path, threshold: checkpointPages, writers: lock)
        checkpointer.watch(db)
    }

    deinit {
        checkpointer.stop(unhooking: db)
    }

    static func migrate(_ db: SQLiteConnection) throws(StoreError) {
        let current = Int(try db.prepare("PRAGMA user_version").rows { $0.int(0) }.first ?? 0)
        guard current <= Schema.version else {
            throw StoreError(message: "the inbox was written by a newer pushbox (schema \(current), this one knows \(Schema.version))")
        }
        for version in current..<Schema.version {
            try db.execute("BEGIN IMMEDIATE")
            do {
                try db.execute(Schema.migrations[version])
                // Schema 8 keeps what the inbox lists of a payload: the rows before it get theirs now.
                if version + 1 == 8 { try fillListings(db) }
                try db.execute("PRAGMA user_version = \(version + 1)")
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// `wal` once opened.
    public var journalMode: String {
        locked { (try? db.prepare("PRAGMA journal_mode").rows { $0.text(0) }.first ?? nil) ?? "" }
    }

    /// The schema version (`PRAGMA user_version`).
    public var schemaVersion: Int {
        locked { Int((try? db.prepare("PRAGMA user_version").rows { $0.int(0) }.first) ?? 0) }
    }

    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` in one transaction under the lock: committed when it returns, rolled back
    /// when it throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try locked { () throws(StoreError) in
            try beginStatement.run()
            do throws(StoreError) {
                let result = try body()
                try commitStatement.run()
                return result
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// A write waiting for the next group commit.
    private struct PendingInsert {
        let values: [Statement.Value]
        /// The key under which an earlier stored notification is replaced by this one, and when.
        let replacing: (key: String, at: Double)?
    }

    /// Inserts from concurrent requests share one transaction; a job is one request's row, or
    /// a connection's batch of rows.
    private let inserts = GroupCommit<[PendingInsert], [Result<Int64, StoreError>]>()

    /// Commits the raw payload (and its verdict, when known); returns its row id once the
    /// commit is done. Only after this returns may a 200 be sent. Concurrent callers share one
    /// transaction (group commit): the first becomes the leader and commits everyone queued.
    @discardableResult
    public func insert(_ raw: RawPayload, apnsID: String, verdict: Verdict? = nil) throws(StoreError) -> Int64 {
        try insert(raw, apnsID: apnsID, verdict: verdict, contentHash: Self.contentHash(raw), announcement: nil)
    }

    /// Commits as `insert` does, and gives the row as stored (for those told of it, who then
    /// need not read it back). `announcement`: what `announceInsert` said of it.
    public func insertRow(_ raw: RawPayload, apnsID: String, verdict: Verdict? = nil, announcement: InsertAnnouncement? = nil) throws(StoreError)
        -> StoredNotification
    {
        let hash = Self.contentHash(raw)
        let id = try insert(raw, apnsID: apnsID, verdict: verdict, contentHash: hash, announcement: announcement)
        return StoredNotification(id: id, raw: raw, apnsID: apnsID, verdict: verdict, contentHash: hash)
    }

    /// Commits several payloads in one transaction (shared with concurrent callers as `insert`
    /// is), in order; gives each its row as stored, or the error that kept it out.
    /// `announcement`: what `announceInsert` said of them (one announcement for them all).
    public func insertRows(_ rows: [(raw: RawPayload, apnsID: String, verdict: Verdict?)], announcement: InsertAnnouncement? = nil)
        -> [Result<StoredNotification, StoreError>]
    {
        let hashes = rows.map { Self.contentHash($0.raw) }
        let items = zip(rows, hashes).map { pending($0.0.raw, apnsID: $0.0.apnsID, verdict: $0.0.verdict, contentHash: $0.1) }
        let ids = inserts.submit(items, announcement: announcement, commitBatch: commit)
        return zip(rows, zip(hashes, ids)).map { row, hashAndID in
            hashAndID.1.map { StoredNotification(id: $0, raw: row.raw, apnsID: row.apnsID, verdict: row.verdict, contentHash: hashAndID.0) }
        }
    }

    /// Says an insert is on its way (a request being judged): a commit starting meanwhile waits
    /// for it, at most 2 ms, so the requests in flight share one transaction. The insert takes
    /// the announcement with it; `withdrawInsert` lets go of one that did not come.
    public func announceInsert() -> InsertAnnouncement { inserts.announce() }

    /// Lets go of an announcement whose insert did not come (nothing once it came).
    public func withdrawInsert(_ announcement: InsertAnnouncement) { inserts.withdraw(announcement) }

    private func insert(_ raw: RawPayload, apnsID: String, verdict: Verdict?, contentHash: String, announcement: InsertAnnouncement?)
        throws(StoreError) -> Int64
    {
        let item = pending(raw, apnsID: apnsID, verdict: verdict, contentHash: contentHash)
        return try inserts.submit([item], announcement: announcement, commitBatch: commit)[0].get()
    }

    /// The row's values as the insert statement takes them.
    private func pending(_ raw: RawPayload, apnsID: String, verdict: Verdict?, contentHash: String) -> PendingInsert {
        let headers = JSONWriter.compactPairs(raw.envelope.headers.fields)
        let opt: (String?) -> Statement.Value = { $0.map { .text($0) } ?? .null }
        let received = raw.envelope.receivedAt.timeIntervalSince1970
        let delivery = verdict?.storage.map { $0.delivery(at: raw.envelope.receivedAt) }
        var holdKey: String? = nil
        if case .store(_, let key)? = verdict?.storage { holdKey = key }
        // The row's 29 values in one array grown once (two concatenations copied it twice).
        var values: [Statement.Value] = [
            .text(apnsID), .real(raw.envelope.receivedAt.timeIntervalSince1970), .text(raw.envelope.source.rawValue),
            opt(raw.envelope.fileName), .text(contentHash), opt(raw.envelope.deviceToken), .text(headers), .blob(raw.bytes),
            verdict.map { .int(Int64($0.status)) } ?? .null, opt(verdict?.reason), opt(verdict?.detail), opt(verdict?.collapseID),
            opt(verdict?.topic),
            opt(raw.envelope.arrival.map { arrivals.text(of: $0, $0.json) }), opt(delivery?.state.rawValue),
            delivery.map { _ in .real(received) } ?? .null,
            delivery?.expiresAt.map { .real($0.timeIntervalSince1970) } ?? .null, opt(holdKey),
            opt(verdict?.targeting.map { JSONWriter.compact($0.json) }), opt(verdict?.liveActivity.map { JSONWriter.compact($0.json) }),
        ]
        values.reserveCapacity(29)
        Self.appendListingValues(verdict?.listing, to: &values)
        values.append(raw.envelope.deviceAt.map { .real($0.timeIntervalSince1970) } ?? .null)
        values.append(opt(raw.envelope.deviceZone))
        values.append(opt(verdict?.device))
        values.append(opt(verdict?.presentation.map { presentations.text(of: $0, $0.json) }))
        return PendingInsert(values: values, replacing: holdKey.map { ($0, received) })
    }

    /// What the folder watch's only-once check compares: SHA-256 of a file's bytes (empty for pushes).
    static func contentHash(_ raw: RawPayload) -> String {
        raw.envelope.fileName == nil ? "" : Digest.sha256Hex(raw.bytes)
    }

    /// The last arrival and presentation written and their JSON: pushes on one connection
    /// arrive the same way and most are presented alike, so most inserts reuse the text instead
    /// of writing it again.
    private let arrivals = LastJSON<Arrival>()
    private let presentations = LastJSON<Presentation>()

    /// Writes the jobs' rows in one transaction; gives each job its rows' ids, or the error.
    private func commit(_ jobs: [[PendingInsert]]) -> [[Result<Int64, StoreError>]] {
        let ids = commit(rows: jobs.flatMap { $0 })
        var out: [[Result<Int64, StoreError>]] = []
        out.reserveCapacity(jobs.count)
        var at = 0
        for job in jobs {
            out.append(Array(ids[at..<(at + job.count)]))
            at += job.count
        }
        return out
    }

    /// Writes rows in one transaction; gives every row its id, or all of them the error.
    private func commit(rows batch: [PendingInsert]) -> [Result<Int64, StoreError>] {
        lock.lock()
        defer { lock.unlock() }
        do {
            try beginStatement.run()
            var ids: [Result<Int64, StoreError>] = []
            ids.reserveCapacity(batch.count)
            for item in batch {
                if let r = item.replacing { try replaceStatement.run([.real(r.at), .text(r.key)]) }
                try insertStatement.run(item.values)
                ids.append(.success(db.lastInsertID))
            }
            try commitStatement.run()
            return ids
        } catch {
            try? db.execute("ROLLBACK")
            return batch.map { _ in .failure(error) }
        }
    }

    /// Keeps a notification's rendering for one device-language list, reused when it comes back.
    public func saveRender(id: Int64, language: String, json: String) throws(StoreError) {
        try saveRenders([(id, language, json)])
    }

    /// Keeps several renderings in one transaction.
    public func saveRenders(_ renders: [(id: Int64, language: String, json: String)]) throws(StoreError) {
        try transaction { () throws(StoreError) in
            for r in renders { try renderStatement.run([.int(r.id), .text(r.language), .text(r.json)]) }
        }
    }

    /// The stored rendering of notification `id` for a language list, as JSON text.
    public func render(id: Int64, language: String) -> String? {
        locked {
            (try? renderReadStatement.rows([.int(id), .text(language)]) { $0.text(0) })?.first ?? nil
        }
    }

    static let containsSQL = "SELECT 1 FROM notifications WHERE file = ? AND content_hash = ? LIMIT 1"

    /// Whether a file with this content was stored before (the folder watch's restart check).
    public func contains(file: String, contentHash: String) -> Bool {
        locked { ((try? db.prepare(Self.containsSQL).rows([.text(file), .text(contentHash)]) { $0.int(0) })?.isEmpty == false) }
    }

    /// SQLite's plan for `sql` (`EXPLAIN QUERY PLAN`), one line per step: the tests check that
    /// each query the inbox runs finds its rows through an index or in row-id order, never by
    /// sorting the table.
    func queryPlan(_ sql: String) -> [String] {
        locked { (try? db.prepare("EXPLAIN QUERY PLAN " + sql).rows { $0.text(3) ?? "" }) ?? [] }
    }

    /// The checkpoints the store's own checkpointer has run.
    var checkpointsRun: Int { checkpointer.completed }

    /// The stored notification `id`, or nil when there is none (deleted ones included).
    public func notification(id: Int64) throws(StoreError) -> StoredNotification? {
        try notifications(ids: [id]).first
    }

    /// The stored notifications among `ids` (deleted ones included), in one query: the rendering
    /// backlog reads a batch back at a time.
    public func notifications(ids: [Int64]) throws(StoreError) -> [StoredNotification] {
        guard !ids.isEmpty else { return [] }
        return try select("WHERE id IN (\(ids.map(String.init).joined(separator: ",")))", limit: nil)
    }

    /// Stored renderings (any language): the benchmark watches the rendering backlog drain.
    public var renderCount: Int {
        locked { Int((try? db.prepare("SELECT COUNT(*) FROM renders").rows { $0.int(0) }.first) ?? 0) }
    }

    /// Stored notifications not deleted.
    public var count: Int {
        locked { Int((try? db.prepare("SELECT COUNT(*) FROM notifications WHERE deleted = 0").rows { $0.int(0) }.first) ?? 0) }
    }

    /// The query that reads whole notifications: every column, rows chosen by `clause`.
    static func selectSQL(_ clause: String, limit: Int?, offset: Int = 0) -> String {
        """
        SELECT id, apns_id, received_at, source, file, content_hash, device_token, headers, raw, status, reason, detail, collapse_id, topic, arrival,
               delivery, delivery_at, expires_at, targeting, live_activity,
               listed_title, listed_body, listed_thread, listed_fired_at, listed_flags, device_at, device_zone, device, presentation
        FROM notifications \(clause)\(limit.map { " LIMIT \($0)" } ?? (offset > 0 ? " LIMIT -1" : ""))\(offset > 0 ? " OFFSET \(offset)" : "")
        """
    }

    func select(_ clause: String, limit: Int?, offset: Int = 0) throws(StoreError) -> [StoredNotification] {
        let sql = Self.selectSQL(clause, limit: limit, offset: offset)
        return try locked { () throws(StoreError) in
            try db.prepare(sql).rows { row in
                let headers = Self.headers(stored: row.text(7))
                var verdict =
                    row.isNull(9)
                    ? nil
                    : Verdict(
                        status: Int(row.int(9)), reason: row.text(10), detail: row.text(11), collapseID: row.text(12), topic: row.text(13),
                        targeting: row.text(18).flatMap { try? JSONParser.parse(Array($0.utf8)) }.flatMap(TargetingRecord.init(json:)),
                        liveActivity: row.text(19).flatMap { try? JSONParser.parse(Array($0.utf8)) }.flatMap(LiveActivityOutcome.init(json:)),
                        listing: Self.listing(row, from: 20))
                verdict?.device = row.text(27)
                verdict?.presentation = row.text(28).flatMap { try? JSONParser.parse(Array($0.utf8)) }.flatMap(Presentation.init(json:))
                return StoredNotification(
                    id: row.int(0), apnsID: row.text(1) ?? "", receivedAt: Date(timeIntervalSince1970: row.real(2)),
                    source: PayloadSource(rawValue: row.text(3) ?? "") ?? .replay, file: row.text(4), contentHash: row.text(5) ?? "",
                    deviceToken: row.text(6), headers: headers, raw: row.blob(8), verdict: verdict,
                    arrival: row.text(14).flatMap { try? JSONParser.parse(Array($0.utf8)) }.flatMap(Arrival.init(json:)),
                    delivery: row.text(15).flatMap(DeliveryState.init(rawValue:)).map {
                        DeliveryRecord(
                            state: $0, at: Date(timeIntervalSince1970: row.real(16)),
                            expiresAt: row.isNull(17) ? nil : Date(timeIntervalSince1970: row.real(17)))
                    },
                    deviceAt: row.isNull(25) ? nil : Date(timeIntervalSince1970: row.real(25)), deviceZone: row.text(26))
            }
        }
    }
}
