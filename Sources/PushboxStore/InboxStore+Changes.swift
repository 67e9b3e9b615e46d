import PushboxPayload

/// A change this store made to notifications already stored (new ones are the intake's arrivals).
public enum StoreChange: Sendable, Equatable {
    /// These left the inbox.
    case deleted([Int64])
    /// Every notification left the inbox (this many).
    case cleared(Int)
    /// This one came back (the inbox's undo).
    case undeleted(Int64)
    /// These changed where they stand in delivery (delivered from storage, discarded).
    case delivery([Int64: DeliveryRecord])
}

/// What leaves the inbox (a delete, its undo, clearing), and what tells a view that another
/// connection changed it.
extension InboxStore {
    /// Calls `listener` after each change this store makes to stored notifications, on the
    /// thread that made it (another process's changes show in `dataVersion` only).
    public func onChange(_ listener: @escaping @Sendable (StoreChange) -> Void) {
        changeListeners.withLock { $0.append(listener) }
    }

    /// Tells the listeners of `change`.
    func changed(_ change: StoreChange) {
        for listener in changeListeners.withLock({ $0 }) { listener(change) }
    }

    /// Marks notification `id` deleted: it leaves the inbox and the history keeps nothing of it.
    public func delete(id: Int64) throws(StoreError) {
        try locked { () throws(StoreError) in try db.prepare("UPDATE notifications SET deleted = 1 WHERE id = ?").run([.int(id)]) }
        changed(.deleted([id]))
    }

    /// Marks these notifications deleted, in one transaction.
    public func delete(ids: [Int64]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        try transaction { () throws(StoreError) in
            let statement = try db.prepare("UPDATE notifications SET deleted = 1 WHERE id = ?")
            for id in ids { try statement.run([.int(id)]) }
        }
        changed(.deleted(ids))
    }

    /// Brings notification `id` back after `delete` (the inbox's undo).
    public func undelete(id: Int64) throws(StoreError) {
        try locked { () throws(StoreError) in try db.prepare("UPDATE notifications SET deleted = 0 WHERE id = ?").run([.int(id)]) }
        changed(.undeleted(id))
    }

    /// SQLite's `data_version`: it changes whenever another connection (another pushbox, a
    /// command) committed to the inbox, and never for this store's own writes.
    public var dataVersion: Int64 {
        locked { (try? db.prepare("PRAGMA data_version").rows { $0.int(0) }.first) ?? 0 }
    }

    /// Whether a notification was ever stored here (a cleared inbox keeps its deleted rows): a
    /// new inbox is the only one the bundled samples are seeded into.
    public var isNew: Bool {
        locked { ((try? db.prepare("SELECT EXISTS (SELECT 1 FROM notifications)").rows { $0.int(0) }.first) ?? 0) == 0 }
    }

    /// Empties the inbox (`pushbox clear`, `C` in the inbox): every notification is deleted, as
    /// one by one; how many there were.
    @discardableResult
    public func clear() throws(StoreError) -> Int {
        let count = try locked { () throws(StoreError) in
            let count = Int(try db.prepare("SELECT COUNT(*) FROM notifications WHERE deleted = 0").rows { $0.int(0) }.first ?? 0)
            try db.prepare("UPDATE notifications SET deleted = 1 WHERE deleted = 0").run([])
            return count
        }
        changed(.cleared(count))
        return count
    }
}
