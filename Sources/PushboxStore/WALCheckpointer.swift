import CSQLite
import Foundation

// @unchecked: `connection` is used only on the checkpointer's own thread (and set in init); `due`,
// `stopped`, `finished`, `runs` and `schedule` only with `condition` held. StoreWriteCostTests.checkpointsOffTheCommitPath
// commits from four threads while it runs.
/// Checkpoints the inbox's write-ahead log from a connection and a thread of its own.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold: that commit
/// copies the log back into the database and waits for `fsync`, and every push waiting on the
/// same group commit waits with it (the intake's p99). Here the writing connection only signals
/// (its WAL hook replaces the automatic checkpoint), and a PASSIVE checkpoint runs beside the
/// writers, which keep appending to the log meanwhile.
final class WALCheckpointer: @unchecked Sendable {
    /// Log pages (of the database's page size) after which a checkpoint is due: SQLite's default.
    let threshold: Int32
    /// Used on the checkpointer's thread only; closed there when it ends.
    private var connection: SQLiteConnection?
    private let condition = NSCondition()
    private var due = false
    private var stopped = false
    private var finished = false
    private var runs = 0
    private var schedule: CheckpointSchedule

    /// The lock every commit of the writing connection holds.
    private let writers: NSLock

    /// Opens its own connection to `path` and starts its thread; `writers` is the lock the
    /// writing connection commits under.
    init(path: String, threshold: Int32 = 1000, writers: NSLock) throws(StoreError) {
        self.threshold = threshold
        self.writers = writers
        schedule = CheckpointSchedule(threshold: threshold)
        let connection = try SQLiteConnection(path: path)
        // A connection learns that the file is in WAL mode when it first reads it; until then a
        // checkpoint through it does nothing (SQLite answers "not in WAL mode" with -1 pages).
        try connection.execute("SELECT count(*) FROM sqlite_master")
        self.connection = connection
        let thread = Thread { [self] in run() }
        thread.name = "pushbox.checkpoint"
        thread.start()
    }

    /// Makes `writer` signal this checkpointer after each commit instead of checkpointing itself.
    func watch(_ writer: SQLiteConnection) {
        sqlite3_wal_hook(
            writer.handle,
            { context, _, _, pages in
                guard let context else { return SQLITE_OK }
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().logGrew(to: pages)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Checkpoints that have run (the tests watch it).
    var completed: Int {
        condition.lock()
        defer { condition.unlock() }
        return runs
    }

    /// Unhooks `writer`, ends the thread after the checkpoint it may be running, and returns once
    /// its connection is closed: when a store is gone, nothing of it still touches its files
    /// (a folder removed right after the store was released kept reappearing half-deleted).
    func stop(unhooking writer: SQLiteConnection) {
        sqlite3_wal_hook(writer.handle, nil, nil)
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// One PASSIVE checkpoint: SQLite's result, the log's length and how much of it is copied, in pages.
    private func checkpoint() -> (rc: Int32, log: Int32, copied: Int32) {
        var log: Int32 = 0
        var copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(connection?.handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
        return (rc, log, copied)
    }

    private func logGrew(to pages: Int32) {
        condition.lock()
        defer { condition.unlock() }
        guard schedule.committed(logFrames: pages), !due else { return }
        due = true
        condition.signal()
    }

    private func run() {
        while true {
            condition.lock()
            while !due && !stopped { condition.wait() }
            if stopped {
                connection = nil
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            due = false
            condition.unlock()
            // PASSIVE: copies what no reader still needs, without waiting on writers or readers.
            // A failure (another program's checkpoint holds the lock) leaves the log as it is
            // until the next signal; nothing is lost, the log only grows.
            var result = checkpoint()
            // SQLite starts the log over only at a commit that finds it wholly copied back, which
            // a steady stream of commits never does: once the log is long, the few pages added
            // during the copy are copied with the writers held, so the next commit starts over.
            if result.rc == SQLITE_OK && result.log > threshold * 4 {
                writers.lock()
                result = checkpoint()
                writers.unlock()
            }
            condition.lock()
            runs += 1
            if result.rc == SQLITE_OK { schedule.checkpointed(copied: result.copied) }
            condition.unlock()
        }
    }
}

/// When the log is due for a checkpoint: once `threshold` pages were added since the last
/// checkpoint copied it back. Counting from the log's start instead made every commit after a
/// checkpoint that could not catch up (writers kept appending) start another one, each copying
/// a few pages and waiting for two `fdatasync`s: 0.28 syncs per stored row, measured with strace.
struct CheckpointSchedule {
    /// Pages to add between checkpoints.
    let threshold: Int32
    /// Pages at the start of the current log copied back already.
    private(set) var copied: Int32 = 0
    /// The log's length at the last commit: a shorter one means the log started over.
    private(set) var log: Int32 = 0

    init(threshold: Int32) { self.threshold = threshold }

    /// A commit left the log `logFrames` long; returns whether a checkpoint is due.
    mutating func committed(logFrames: Int32) -> Bool {
        if logFrames < log { copied = 0 }
        log = logFrames
        return logFrames - copied >= threshold
    }

    /// A checkpoint copied the first `copied` pages of the log back.
    mutating func checkpointed(copied pages: Int32) {
        if pages <= log { copied = max(copied, pages) }
    }
}
