import Foundation
import PushboxIntake
import PushboxJSON
import PushboxPayload

/// `pushbox requests`: the running pushbox's most recent HTTP requests, accepted and refused,
/// with why each refused one was (`GET /requests` on its socket).
enum RequestsCommand {
    static let spec = CommandSpec(
        name: "requests",
        summary:
            "The running pushbox's most recent HTTP requests on every listener, newest first: time, status, reason and pushbox's cause, method, path, how they came. Secrets (authorization) are never kept.",
        options: [
            Options.socket, Options.json.with(help: "One object per request per line, as GET /requests gives them."), Options.refused,
            Options.limit.with(help: "At most N requests, newest first (default 100, at most 1000)."),
            Options.allRequests, Options.retries,
        ],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        if args.flag(Options.retries) { return retries(args, &io) }
        var query = "?limit=\(args.value(Options.limit).flatMap(Int.init) ?? 100)"
        if args.flag(Options.refused) { query += "&refused=1" }
        if args.flag(Options.allRequests) { query += "&all=1" }
        let list: [JSONValue]
        switch LocalClient.callJSON("GET", "/requests" + query, body: [], headers: [], args, io) {
        case .failure(let failure):
            io.err("pushbox requests: \(failure)")
            return 1
        case .success(let value): list = value.arrayValue ?? []
        }
        for item in list {
            if args.flag(Options.json) {
                io.out(JSONWriter.compact(item))
                continue
            }
            let o = item.objectValue
            func text(_ key: String) -> String { o?[key]?.stringValue ?? "" }
            var line = "\(text("time")) \(o?["status"]?.intValue ?? 0)"
            if let reason = o?["reason"]?.stringValue { line += " \(reason)" }
            line += " \(text("method")) \(text("path")) \(text("protocol")) \(text("listener"))"
            if let cause = o?["cause"]?.stringValue { line += " — \(cause)" }
            if o?["chaos"]?.stringValue != nil { line += " [chaos]" }
            io.out(TerminalText.sanitize(line))
        }
        return 0
    }

    /// `--retries`: the verdict on the backend's retries, message by message.
    static func retries(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        switch LocalClient.callJSON("GET", "/requests/retries", body: [], headers: [], args, io) {
        case .failure(let failure):
            io.err("pushbox requests: \(failure)")
            return 1
        case .success(let value):
            if args.flag(Options.json) {
                io.out(JSONWriter.compact(value))
                return 0
            }
            guard let verdict = RetryVerdict(json: value) else {
                io.err("pushbox requests: the running pushbox gave no retry verdict (is it older than --retries?)")
                return 1
            }
            for line in verdict.lines { io.out(TerminalText.sanitize(line)) }
            return 0
        }
    }
}
