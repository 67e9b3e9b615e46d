import Foundation
import PushboxDevice
import PushboxPayload

/// The rows readers ask for: the history, the inbox as shown (a page at a time), a device's,
/// those after a cursor, one request's.
extension InboxStore {
    static let historyClause = "WHERE deleted = 0 ORDER BY id"

    /// Every stored notification (history), in the order they arrived; `device`: only those
    /// delivered to that device of the fleet (`phone`: the default device).
    public func history(limit: Int? = nil, device: String? = nil) throws(StoreError) -> [StoredNotification] {
        guard let device else { return try select(Self.historyClause, limit: limit) }
        return try select("WHERE deleted = 0 AND \(Self.deviceFilter(device)) ORDER BY id", limit: limit)
    }

    /// What the inbox shows: not deleted, and of notifications sharing an app, a collapse id and
    /// a device only the latest.
    static let inboxFilter = """
        deleted = 0 AND (collapse_id IS NULL OR id = (
            SELECT MAX(n2.id) FROM notifications n2
            WHERE n2.deleted = 0 AND n2.collapse_id = notifications.collapse_id
              AND COALESCE(n2.topic, '') = COALESCE(notifications.topic, '') AND n2.device IS notifications.device))
        """

    static let inboxClause = "WHERE \(inboxFilter) ORDER BY id DESC"

    /// The inbox as shown: the latest arrival first, and of notifications sharing an app and a
    /// collapse id, only the latest (history keeps them all). Arrival order is the row id's: the
    /// wall-clock `receivedAt` is shown, never sorted on (a clock step would reorder the inbox).
    /// `device`: only what that device of the fleet shows (`phone`: the default device).
    public func inbox(limit: Int? = nil, offset: Int = 0, device: String? = nil) throws(StoreError) -> [StoredNotification] {
        guard let device else { return try select(Self.inboxClause, limit: limit, offset: offset) }
        return try select("WHERE \(Self.deviceFilter(device)) AND \(Self.inboxFilter) ORDER BY id DESC", limit: limit, offset: offset)
    }

    /// The inbox page after `before` (an id), newest first: the next page of `GET /inbox`.
    public func inbox(limit: Int, before: Int64, device: String? = nil) throws(StoreError) -> [StoredNotification] {
        let only = device.map { " AND \(Self.deviceFilter($0))" } ?? ""
        return try select("WHERE id < \(before) AND \(Self.inboxFilter)\(only) ORDER BY id DESC", limit: limit)
    }

    /// The rows delivered to `device` (`phone`: the default device, whose rows name none).
    static func deviceFilter(_ device: String) -> String {
        device == FleetDevice.defaultName ? "device IS NULL" : "device = \(literal(device))"
    }

    /// `text` as an SQL string literal (its quotes doubled).
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// The notifications stored after row `id` (not deleted), in arrival order: what arrived
    /// since a moment whose latest id was `id` (`pushbox exec`'s run).
    public func rows(after id: Int64, limit: Int? = nil) throws(StoreError) -> [StoredNotification] {
        try select("WHERE id > \(id) AND deleted = 0 ORDER BY id", limit: limit)
    }

    /// The rows of one request (its `apnsID`) around row `id`: a push that reached several
    /// devices of the fleet is stored as consecutive rows, at most `span` on each side.
    public func requestRows(apnsID: String, near id: Int64, span: Int) throws(StoreError) -> [StoredNotification] {
        try select("WHERE id BETWEEN \(id - Int64(span)) AND \(id + Int64(span)) AND apns_id = \(Self.literal(apnsID)) ORDER BY id", limit: nil)
    }

    /// The rows answered with `apnsID` (not deleted), newest first, at most `limit`: one per
    /// device of the fleet a push reached. Read newest first, so a recent push is found at once.
    public func rows(apnsID: String, limit: Int) throws(StoreError) -> [StoredNotification] {
        try select("WHERE apns_id = \(Self.literal(apnsID)) AND deleted = 0 ORDER BY id DESC", limit: limit)
    }

    /// The latest row's id (0 when the inbox is empty).
    public var latestID: Int64 {
        locked { (try? db.prepare("SELECT COALESCE(MAX(id), 0) FROM notifications").rows { $0.int(0) }.first) ?? 0 }
    }
}
