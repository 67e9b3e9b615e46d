import Foundation
import PushboxDevice
import PushboxPayload
import PushboxStore

/// A query ready to judge stored notifications: each as its device shows it (its rendering, read
/// only when the query reads renderings) on its device's platform, at one `now`.
public struct QueryMatcher: Sendable {
    /// The query.
    public let query: NotificationQuery
    private let renderings: Renderings?
    private let platforms: [String: String]
    private let now: Date

    /// `query` over the notifications `renderings` renders, for the fleet `registration` holds.
    public init(_ query: NotificationQuery, renderings: Renderings?, registration: DeviceRegistration?, now: Date = Date()) {
        self.query = query
        // A query of the row's own fields reads no rendering (a stored one is a read and a parse a row).
        self.renderings = query.needsRendering ? renderings : nil
        platforms = registration?.platforms ?? [:]
        self.now = now
    }

    /// Whether `query` matches the stored notification `row`.
    public func matches(_ row: StoredNotification) -> Bool {
        guard !query.isEmpty else { return true }
        return matches(row, shown: renderings?.shown(row))
    }

    /// Whether `query` matches `row` as the device shows it, `shown` (an arrival's rendering,
    /// made just before; nil when there is none).
    public func matches(_ row: StoredNotification, shown: RenderedNotification?) -> Bool {
        guard !query.isEmpty else { return true }
        let platform = row.device.flatMap { platforms[$0] } ?? DevicePlatform.ios.rawValue
        return query.matches(QuerySubject(row, rendered: query.needsRendering ? shown : nil, platform: platform), now: now)
    }
}

extension IntakeService {
    /// Rows a search reads at most (a huge inbox is never read whole in one answer).
    public static let searchLimit = 100_000

    /// The inbox's notifications `query` matches, newest first, before row `before`; at most
    /// `limit`, reading at most `searchLimit` rows, each judged as its device shows it. Also the
    /// row to go on from when more may match (the API's cursor).
    public func search(_ query: NotificationQuery, limit: Int, before: Int64? = nil) -> (rows: [StoredNotification], next: Int64?) {
        let matcher = QueryMatcher(query, renderings: renderings, registration: phone.registration())
        var out: [StoredNotification] = []
        var cursor = before ?? Int64.max
        var read = 0
        while out.count < limit && read < Self.searchLimit {
            guard let page = try? store.inbox(limit: 500, before: cursor), !page.isEmpty else { return (out, nil) }
            read += page.count
            for row in page {
                cursor = row.id
                if matcher.matches(row) {
                    out.append(row)
                    if out.count == limit { return (out, row.id) }
                }
            }
        }
        return (out, read >= Self.searchLimit ? cursor : nil)
    }
}
