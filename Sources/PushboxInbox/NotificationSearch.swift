import Foundation
import PushboxDevice
import PushboxPayload
import PushboxStore

extension IntakeService {
    /// Rows a search reads at most (a huge inbox is never read whole in one answer).
    public static let searchLimit = 100_000

    /// The inbox's notifications `query` matches, newest first, before row `before`; at most
    /// `limit`, reading at most `searchLimit` rows, each judged as its device shows it. Also the
    /// row to go on from when more may match (the API's cursor).
    public func search(_ query: NotificationQuery, limit: Int, before: Int64? = nil) -> (rows: [StoredNotification], next: Int64?) {
        let platforms = Dictionary(
            (phone.registration()?.devices ?? []).map { ($0.name, $0.platform.rawValue) }, uniquingKeysWith: { a, _ in a })
        let now = Date()
        // A query of the row's own fields reads no rendering (a stored one is a read and a parse a row).
        let rendered = query.needsRendering
        var out: [StoredNotification] = []
        var cursor = before ?? Int64.max
        var read = 0
        while out.count < limit && read < Self.searchLimit {
            guard let page = try? store.inbox(limit: 500, before: cursor), !page.isEmpty else { return (out, nil) }
            read += page.count
            for row in page {
                cursor = row.id
                let platform = row.device.flatMap { platforms[$0] } ?? DevicePlatform.ios.rawValue
                let subject = QuerySubject(row, rendered: rendered ? renderings?.shown(row) : nil, platform: platform)
                if query.isEmpty || query.matches(subject, now: now) {
                    out.append(row)
                    if out.count == limit { return (out, row.id) }
                }
            }
        }
        return (out, read >= Self.searchLimit ? cursor : nil)
    }
}
