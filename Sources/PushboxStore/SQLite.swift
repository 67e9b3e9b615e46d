import CSQLite
import Foundation

/// A store error: SQLite's message, and what kind of failure it was so a caller can say what
/// to do about it (a full disk, a file another program holds, a file that is no inbox).
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for the message that says what to do.
    public enum Kind: Sendable, Equatable {
        case diskFull, locked, notAnInbox, unwritable, other
    }

    /// What went wrong, naming the file.
    public var message: String
    /// What kind of failure (disk full, locked, not an inbox…).
    public var kind: Kind = .other
    /// The message.
    public var description: String { message }

    /// An error with its message and kind.
    public init(message: String, kind: Kind = .other) {
        self.message = message
        self.kind = kind
    }

    /// The kind of a SQLite result code (primary or extended); `systemErrno` tells an I/O error
    /// that is really a full disk (ENOSPC), a file-size limit (EFBIG) or a quota (EDQUOT).
    init(message: String, code: Int32, systemErrno: Int32 = 0) {
        let kind: Kind
        switch code & 0xff {
        case SQLITE_FULL: kind = .diskFull
        case SQLITE_IOERR where [ENOSPC, EFBIG, EDQUOT].contains(systemErrno): kind = .diskFull
        case SQLITE_BUSY, SQLITE_LOCKED: kind = .locked
        case SQLITE_NOTADB, SQLITE_CORRUPT: kind = .notAnInbox
        case SQLITE_CANTOPEN, SQLITE_READONLY: kind = .unwritable
        default: kind = .other
        }
        let cause = code & 0xff == SQLITE_IOERR && systemErrno != 0 ? " (\(String(cString: strerror(systemErrno))))" : ""
        self.init(message: message + cause, kind: kind)
    }

    /// The error in words for someone who holds `path`: what happened to the file and what to do.
    public func explained(path: String) -> StoreError {
        switch kind {
        case .diskFull:
            return StoreError(message: "the disk holding \(path) is full (SQLite: \(message))", kind: kind)
        case .locked:
            return StoreError(
                message:
                    "\(path) is locked by another program (SQLite: \(message), after waiting 5 s); close the program that holds it, or pass another --db",
                kind: kind)
        case .notAnInbox:
            return StoreError(
                message:
                    "\(path) is not a pushbox inbox, or it is damaged (SQLite: \(message)); move it aside to start a new inbox, or pass another --db",
                kind: kind)
        case .unwritable:
            let folder = (path as NSString).deletingLastPathComponent
            let why = FileManager.default.fileExists(atPath: folder) ? "" : " (the folder does not exist)"
            return StoreError(
                message:
                    "cannot open or create \(path) for writing\(why): pushbox keeps its inbox there; make \(folder.isEmpty ? "the folder" : folder) writable for this user, or pass another --db (SQLite: \(message))",
                kind: kind)
        case .other:
            return message.contains(path) ? self : StoreError(message: "\(path): \(message)", kind: kind)
        }
    }
}

/// A thin, owned SQLite connection: prepare, bind, step. Not thread-safe on its own; the store
/// serializes every use behind one lock.
final class SQLiteConnection {
    let handle: OpaquePointer

    init(path: String) throws(StoreError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw StoreError(message: "\(path): \(message)", code: rc)
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        guard rc == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "error"
            sqlite3_free(error)
            throw StoreError(message: "\(message) in: \(sql.prefix(80))", code: rc, systemErrno: sqlite3_system_errno(handle))
        }
    }

    func prepare(_ sql: String) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw StoreError(
                message: "\(String(cString: sqlite3_errmsg(handle))) in: \(sql.prefix(80))", code: rc, systemErrno: sqlite3_system_errno(handle))
        }
        return Statement(statement, connection: self)
    }

    var lastInsertID: Int64 { sqlite3_last_insert_rowid(handle) }
    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// The error for result code `rc`, with SQLite's message and the system's errno behind it.
    func error(_ rc: Int32) -> StoreError {
        var systemErrno = sqlite3_system_errno(handle)
        if rc & 0xff == SQLITE_IOERR && systemErrno == 0, let file = sqlite3_db_filename(handle, "main") {
            systemErrno = Self.writeFailureCause(String(cString: file)) ?? 0
        }
        return StoreError(message: errorMessage, code: rc, systemErrno: systemErrno)
    }

    /// Why a write to the database at `path` failed when SQLite kept no system error (it reports
    /// the C `errno` of its last call, which a write to the log may have left at 0): a file of
    /// the inbox at the file-size limit (EFBIG), or no room left on its disk (ENOSPC).
    static func writeFailureCause(_ path: String) -> Int32? {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            for file in [path, path + "-wal"] {
                var info = stat()
                if stat(file, &info) == 0, UInt64(info.st_size) + 65_536 >= UInt64(limit.rlim_cur) { return EFBIG }
            }
        }
        var disk = statvfs()
        if statvfs((path as NSString).deletingLastPathComponent, &disk) == 0, UInt64(disk.f_bavail) * UInt64(disk.f_frsize) < 1_048_576 {
            return ENOSPC
        }
        return nil
    }
}

/// A prepared statement; values bind by 1-based index.
final class Statement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
        arena.deallocate()
    }

    /// The bytes of the texts and blobs bound last (SQLite reads them when the statement steps).
    private var arena = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    enum Value {
        case int(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
        case null
    }

    /// Binds `values` to the parameters in order; parameters past them are null. Texts and
    /// blobs are copied into the statement's own `arena` and bound from there as static: SQLite
    /// makes no copy of its own (a malloc and a free for each of a push's ten texts).
    func bind(_ values: [Value]) throws(StoreError) {
        sqlite3_reset(handle)
        // Every parameter is bound below when there are values for all (the usual case); a
        // clear would only repeat that, once per statement of every push.
        if values.count < sqlite3_bind_parameter_count(handle) { sqlite3_clear_bindings(handle) }
        var needed = 1
        for value in values {
            if case .text(let s) = value { needed += s.utf8.count } else if case .blob(let b) = value { needed += b.count }
        }
        // A larger arena replaces the old one, which is freed once nothing is bound to it.
        var retired: UnsafeMutableRawBufferPointer?
        if needed > arena.count {
            retired = arena
            arena = .allocate(byteCount: max(needed, 2 * arena.count, 1024), alignment: 8)
        }
        defer { retired?.deallocate() }
        let base = arena.baseAddress!
        var offset = 0
        /// `bytes` copied into the arena; where they start.
        func place(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
            let at = base + offset
            if let from = bytes.baseAddress, !bytes.isEmpty { at.copyMemory(from: from, byteCount: bytes.count) }
            offset += bytes.count
            return at
        }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .int(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .real(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(var s):
                // The text's own UTF-8 with its length: no NUL-terminated copy first. An empty
                // text or blob points into the arena too (a null pointer would bind NULL).
                rc = s.withUTF8 { utf8 in
                    let at = place(UnsafeRawBufferPointer(utf8)).assumingMemoryBound(to: CChar.self)
                    return sqlite3_bind_text(handle, index, at, Int32(utf8.count), nil)
                }
            case .blob(let b): rc = b.withUnsafeBytes { sqlite3_bind_blob(handle, index, place($0), Int32($0.count), nil) }
            case .null: rc = sqlite3_bind_null(handle, index)
            }
            guard rc == SQLITE_OK else {
                // Nothing stays bound to an arena about to be freed.
                sqlite3_clear_bindings(handle)
                throw connection.error(rc)
            }
        }
    }

    /// Runs to completion (an insert or update).
    func run(_ values: [Value] = []) throws(StoreError) {
        try bind(values)
        let rc = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard rc == SQLITE_DONE || rc == SQLITE_ROW else { throw connection.error(rc) }
    }

    /// Every row, each read by `read`.
    func rows<T>(_ values: [Value] = [], _ read: (Row) -> T) throws(StoreError) -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var out: [T] = []
        while true {
            let rc = sqlite3_step(handle)
            if rc == SQLITE_DONE { return out }
            guard rc == SQLITE_ROW else { throw connection.error(rc) }
            out.append(read(Row(handle: handle)))
        }
    }
}

/// One result row, read by 0-based column.
struct Row {
    let handle: OpaquePointer

    func int(_ i: Int32) -> Int64 { sqlite3_column_int64(handle, i) }
    func real(_ i: Int32) -> Double { sqlite3_column_double(handle, i) }
    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(handle, i) == SQLITE_NULL }
    func text(_ i: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, i) else { return nil }
        // By its length, as it was bound: a NUL inside the text (a payload's "\u0000") is kept.
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, i))), as: UTF8.self)
    }
    func blob(_ i: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(handle, i))
        guard n > 0, let p = sqlite3_column_blob(handle, i) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
