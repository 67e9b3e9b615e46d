import Foundation
import PushboxJSON
import PushboxPayload

/// What the push service keeps while the device is offline, as the inbox stores it: a stored
/// notification replaced by a newer one under its key, and all of them delivered or discarded
/// when the device is back.
extension InboxStore {
    /// Marks what is stored under a key replaced by a newer notification (through the partial
    /// index); one whose expiration had passed when the newer came was discarded as expired, and
    /// stays so: nothing was kept for the newer one to replace.
    static let replaceSQL =
        "UPDATE notifications SET delivery = 'discarded-replaced', delivery_at = ?1 WHERE delivery = 'stored' AND hold_key = ?2 AND (expires_at IS NULL OR expires_at > ?1)"
    /// Everything stored while the device was offline (through the partial index).
    static let storedSQL = "SELECT id, expires_at FROM notifications WHERE delivery = 'stored' AND device IS ?"

    /// Keeps what the device did with a Live Activity push delivered from storage, and forgets
    /// its renderings (made before the device had applied it).
    public func keepLiveActivity(_ outcome: LiveActivityOutcome, id: Int64) throws(StoreError) {
        try transaction { () throws(StoreError) in
            try db.prepare("UPDATE notifications SET live_activity = ? WHERE id = ?").run([.text(JSONWriter.compact(outcome.json)), .int(id)])
            try db.prepare("DELETE FROM renders WHERE notification_id = ?").run([.int(id)])
        }
    }

    /// Delivers what the push service kept while the device was offline, now that it is back
    /// (`now`): each stored notification whose expiration passed is discarded, the rest are
    /// delivered from storage. Gives the notifications changed and where they now stand.
    /// `device`: the device of the fleet that came back (nil: the default device).
    @discardableResult
    public func deliverStored(at now: Date, device: String? = nil) throws(StoreError) -> [Int64: DeliveryRecord] {
        let changes = try transaction { () throws(StoreError) in
            let held = try db.prepare(Self.storedSQL).rows([device.map { .text($0) } ?? .null]) { row in
                (row.int(0), row.isNull(1) ? nil : Date(timeIntervalSince1970: row.real(1)))
            }
            let update = try db.prepare("UPDATE notifications SET delivery = ?, delivery_at = ? WHERE id = ?")
            var changed: [Int64: DeliveryRecord] = [:]
            for (id, expiresAt) in held {
                let expired = expiresAt.map { $0 <= now } ?? false
                let record = DeliveryRecord(
                    state: expired ? .discardedExpired : .deliveredFromStorage, at: expired ? expiresAt! : now, expiresAt: expiresAt)
                try update.run([.text(record.state.rawValue), .real(record.at.timeIntervalSince1970), .int(id)])
                changed[id] = record
            }
            return changed
        }
        if !changes.isEmpty { changed(.delivery(changes)) }
        return changes
    }
}
