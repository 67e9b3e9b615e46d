import Foundation
import PushboxCore
import PushboxText

/// What the inbox lists of each stored payload, kept with its row from schema 8 on.
extension InboxStore {
    /// Lists the rows stored before listings were kept, once, as the migration to schema 8 runs
    /// (in its transaction): each payload validated as it was taken in, so the inbox never parses
    /// a stored payload again to list it. A row never judged (no status) keeps none: the
    /// listing is part of the judgement.
    static func fillListings(_ db: SQLiteConnection) throws(StoreError) {
        let rows = try db.prepare("SELECT id, raw, headers, source, device_token FROM notifications WHERE listing IS NULL AND status IS NOT NULL")
            .rows { row in
                (id: row.int(0), raw: row.blob(1), headers: row.text(2), source: row.text(3), token: row.text(4))
            }
        let update = try db.prepare("UPDATE notifications SET listing = ? WHERE id = ?")
        for row in rows {
            let headers = headers(stored: row.headers)
            let source = PayloadSource(rawValue: row.source ?? "") ?? .replay
            let raw = RawPayload(bytes: row.raw, envelope: Envelope(source: source, headers: headers, deviceToken: row.token))
            // A fired local notification never met APNs' validation: its stored form is listed as it is.
            let listing =
                source == .local
                ? (try? JSONParser.parse(row.raw))?.objectValue.map { PayloadListing(payload: $0, pushType: nil) }
                : Validator.validate(raw).listing
            guard let listing else { continue }
            try update.run([.text(JSONWriter.compact(listing.json)), .int(row.id)])
        }
    }

    /// Request headers as a row keeps them (a JSON array of name, value pairs), in order.
    static func headers(stored text: String?) -> PushHeaders {
        var headers = PushHeaders()
        guard let text, case .array(let pairs)? = try? JSONParser.parse(Array(text.utf8)) else { return headers }
        for pair in pairs {
            if let p = pair.arrayValue, p.count == 2, let n = p[0].stringValue, let v = p[1].stringValue { headers.add(n, v) }
        }
        return headers
    }
}
