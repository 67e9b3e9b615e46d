import Foundation
import PushboxJSON

extension LiveActivityDevice {
    /// The device's Live Activities as `pushbox activities --json` and `GET /api/v1/activities`
    /// show them now: the push-to-start token, the Dynamic Island order, every activity with its
    /// phase, lock-screen line and timeline, the pushes that matched none, the broadcast channels.
    public func shownJSON() -> JSONValue {
        let now = now()
        let book = file.current().book
        let island = book.island(at: now)
        let templates = profile.types.mapValues(\.template)
        let shown = book.activities.map { a in
            a.shown(at: now, rank: island.firstIndex { $0.id == a.id }.map { $0 + 1 }, line: templates[a.type].flatMap { $0 }.map(a.line))
        }
        return .object(
            JSONObject([
                ("now", .string(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: now)))),
                ("pushToStartToken", .string(book.identity.pushToStart)), ("island", .array(island.map { .string($0.id) })),
                ("activities", .array(shown)), ("unmatched", .array(book.unmatched.map(\.json))),
                (
                    "channels",
                    .array(
                        book.channels.map { c in
                            .object(JSONObject([("id", .string(c.id)), ("messageStoragePolicy", .optionalInt(c.storagePolicy))]))
                        })
                ),
            ]))
    }
}
