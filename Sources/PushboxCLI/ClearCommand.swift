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
            "Empty the inbox: every notification is deleted (the device, its registration, topics and Live Activities stay); with QUERY (the query language of list --query), only those it matches. When a pushbox serving the same inbox answers on the socket, it deletes them (its event stream says so); the bundled samples are not seeded again.",
        operands: "[QUERY]",
        options: [Options.database, Options.socket] + RenderCommand.deviceOptions,
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
            if let cleared = throughRunning(text, args, &io) { return cleared }
            if !query.isEmpty { return clear(query, args, &io) }
        } else if let cleared = throughRunning("", args, &io) {
            return cleared
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

    /// Deletes through the pushbox answering on the socket when it serves this inbox (its views
    /// and event stream hear of it); nil when none does, or it serves another inbox.
    static func throughRunning(_ query: String, _ args: ParsedArguments, _ io: inout CommandIO) -> Int32? {
        let path = args.value(Options.database) ?? InboxStore.defaultPath(environment: io.environment)
        guard case .success(let device) = LocalClient.call("GET", "/api/v1/device", body: [], headers: [], args, io),
            let served = device["database"]?.stringValue,
            (served as NSString).standardizingPath == ((path as NSString).standardizingPath)
        else { return nil }
        let q = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        switch LocalClient.call("DELETE", "/api/v1/notifications?query=\(q)", body: [], headers: [], args, io) {
        case .success(let answer):
            var deleted = 0
            if case .number(let n)? = answer["deleted"] { deleted = Int(n) ?? 0 }
            io.out("cleared \(deleted) notification\(deleted == 1 ? "" : "s") from \(served) (by the running pushbox)")
            return 0
        case .failure(let why):
            io.err("pushbox clear: \(why)")
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
