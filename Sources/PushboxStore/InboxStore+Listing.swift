import Foundation
import PushboxJSON
import PushboxPayload

/// What the inbox lists of each stored payload, kept with its row from schema 8 on.
extension InboxStore {
    /// Lists the rows stored before listings were kept, once, as the migration to schema 8 runs
    /// (in its transaction): each payload validated as it was taken in, so the inbox never parses
    /// a stored payload again to list it. A row never judged (no status) keeps none: the
    /// listing is part of the judgement.
    static func fillListings(_ db: SQLiteConnection) throws(StoreError) {
        let rows = try db.prepare(
            "SELECT id, raw, headers, source, device_token FROM notifications WHERE listed_flags IS NULL AND status IS NOT NULL"
        )
        .rows { row in
            (id: row.int(0), raw: row.blob(1), headers: row.text(2), source: row.text(3), token: row.text(4))
        }
        let update = try db.prepare(
            "UPDATE notifications SET listed_title = ?, listed_body = ?, listed_thread = ?, listed_fired_at = ?, listed_flags = ? WHERE id = ?")
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
            try update.run(listingValues(listing) + [.int(row.id)])
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

    /// A listing as the row's five columns keep it.
    static func listingValues(_ listing: PayloadListing?) -> [Statement.Value] {
        var values: [Statement.Value] = []
        appendListingValues(listing, to: &values)
        return values
    }

    /// Appends the listing's five column values to a row's (the insert's values in place).
    static func appendListingValues(_ listing: PayloadListing?, to values: inout [Statement.Value]) {
        guard let listing else {
            for _ in 0..<5 { values.append(.null) }
            return
        }
        let text: (String?) -> Statement.Value = { $0.map { .text($0) } ?? .null }
        let flags = 1 | (listing.background ? 2 : 0) | (listing.encrypted ? 4 : 0)
        values.append(text(listing.title))
        values.append(text(listing.body))
        values.append(text(listing.threadID))
        values.append(text(listing.firedAt))
        values.append(.int(Int64(flags)))
    }

    /// The listing in a row's five columns from `first` on; nil when nothing was listed.
    static func listing(_ row: Row, from first: Int32) -> PayloadListing? {
        guard !row.isNull(first + 4) else { return nil }
        let flags = row.int(first + 4)
        return PayloadListing(
            title: row.text(first), body: row.text(first + 1), threadID: row.text(first + 2), background: flags & 2 != 0,
            encrypted: flags & 4 != 0, firedAt: row.text(first + 3))
    }
}
