import Foundation
import PushboxDevice
import PushboxInbox
import PushboxPayload
import PushboxStore

/// `pushbox clear`: empties an inbox, as deleting every notification in it would; a running
/// pushbox on the same inbox shows it empty within a second.
enum ClearCommand {
    static let spec = CommandSpec(
        name: "clear",
        summary:
            "Empty the inbox: every notification is deleted (the device, its registration, topics and Live Activities stay); with QUERY (the query language of list --query), only those it matches. A running pushbox on the same inbox follows within a second; the bundled samples are not seeded again.",
        operands: "[QUERY]",
        options: [Options.database] + RenderCommand.deviceOptions,
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard args.operands.count <= 1 else {
            io.err("pushbox clear: takes one query at most (quote it); see pushbox clear --help")
            return 2
        }
        if let text = args.operands.first {
            let query: NotificationQuery
            do throws(NotificationQuery.ParseError) { query = try NotificationQuery(text) } catch {
                io.err("pushbox clear: \(error)")
                return 2
            }
            if !query.isEmpty { return clear(query, args, &io) }
        }
        do {
            let store = try IntakeOptions.openStore(args, io, existing: true)
            let count = try store.clear()
            io.out("cleared \(count) notification\(count == 1 ? "" : "s") from \(store.path)")
            return 0
        } catch {
            io.err("pushbox clear: \(error)")
            return 1
        }
    }

    /// Deletes what `query` matches, each notification judged as its device shows it.
    static func clear(_ query: NotificationQuery, _ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        do {
            let store = try IntakeOptions.openStore(args, io, existing: true)
            let (renderings, _) = try IntakeOptions.renderings(args, store: store, io: io)
            let matcher = QueryMatcher(query, renderings: renderings, registration: DeviceRegistrationFile(databasePath: store.path).current())
            var deleted = 0
            for row in try store.history() where matcher.matches(row) {
                try store.delete(id: row.id)
                deleted += 1
            }
            io.out("cleared \(deleted) notification\(deleted == 1 ? "" : "s") from \(store.path)")
            return 0
        } catch {
            io.err("pushbox clear: \(error)")
            return 1
        }
    }
}
