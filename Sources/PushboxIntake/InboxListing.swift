import Foundation
import PushboxCore
import PushboxStore
import PushboxText

/// A stored notification as scripts read it (`GET /inbox`, `pushbox list --json`).
public enum InboxListing {
    /// The formatter for `receivedAt`: make one per listing and pass it to every `json` call.
    public static func dateFormatter() -> ISO8601DateFormatter {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return iso
    }

    /// One notification as `GET /inbox` and `list --json` show it, with its rendering when there is one.
    public static func json(_ n: StoredNotification, rendered r: RenderedNotification?, dates: ISO8601DateFormatter) -> JSONValue {
        .object(
            JSONObject([
                ("id", .number(String(n.id))),
                ("apnsId", .string(n.apnsID)),
                ("receivedAt", .string(dates.string(from: n.receivedAt))),
                ("source", .string(n.source.rawValue)),
                ("file", .optionalString(n.file)),
                ("status", .optionalInt(n.status)),
                ("reason", .optionalString(n.reason)),
                ("collapseId", .optionalString(n.collapseID)),
                ("arrival", n.arrival?.json ?? .null),
                ("title", .optionalString(r?.title)),
                ("subtitle", .optionalString(r?.subtitle)),
                ("body", .optionalString(r?.body)),
                ("language", .optionalString(r?.language)),
                ("delivered", .optionalString(r?.delivered.rawValue ?? (n.reason != nil ? "rejected" : nil))),
                ("attachments", .array((r?.attachments ?? []).map(\.json))),
                ("warnings", .array((r?.warnings ?? []).map { .string($0.message) })),
                ("diagnostics", .array((r?.warnings ?? []).map(\.json))),
            ]))
    }
}
