import Foundation
import PushboxFetch
import PushboxIntake
import PushboxJSON
import PushboxPayload

/// `pushbox wait Q`: waits, through the running pushbox's socket, until a notification the query
/// matches is stored; `pushbox health`: whether a pushbox answers and is ready. A test script's
/// two questions, answered with exit statuses.
enum WaitCommand {
    static let spec = CommandSpec(
        name: "wait",
        summary:
            "Wait until the running pushbox stores a notification QUERY matches (the query language of list --query), from now or after --after CURSOR: print it and exit 0; exit 1 when --timeout passes first (saying how many arrived), 2 when the query cannot be read or no pushbox answers.",
        operands: "QUERY",
        options: [
            Options.socket, Options.timeout, Options.after,
            Options.json.with(help: "Print the notification as one JSON object, as list --json does."),
        ],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard args.operands.count == 1, let text = args.operands.first else {
            io.err("pushbox wait: give one query (quote it: pushbox wait 'lang:ko 주문'); see pushbox wait --help")
            return 2
        }
        do throws(NotificationQuery.ParseError) { _ = try NotificationQuery(text) } catch {
            io.err("pushbox wait: \(error)")
            return 2
        }
        let seconds: Double
        do { seconds = try args.number(Options.timeout, in: 0...120) ?? 30 } catch {
            io.err("pushbox wait: \(error)")
            return 2
        }
        let after = args.value(Options.after)
        if let after, Int64(after).map({ $0 >= 0 }) != true {
            io.err("pushbox wait: --after takes a cursor, a whole number (0: every notification in the inbox)")
            return 2
        }
        let socket = IntakeOptions.socketPath(args, io)
        guard let client = UnixHTTPClient(socketPath: socket) else {
            io.err("pushbox wait: libcurl could not start")
            return 2
        }
        let query = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let url = "http://localhost/api/v1/wait?query=\(query)&timeout=\(seconds)" + (after.map { "&after=\($0)" } ?? "")
        switch client.request("GET", url: url, headers: [], body: [], timeoutMs: Int(seconds * 1000) + 10_000) {
        case .failure(let e):
            io.err("pushbox wait: cannot reach pushbox on \(socket) (\(e)); is pushbox (the TUI) or `pushbox serve` running?")
            return 2
        case .success(let answer):
            let object = (try? JSONParser.parse(answer.body))?.objectValue
            switch answer.status {
            case 200:
                guard let item = object?["notification"] else { return 2 }
                if args.flag(Options.json) {
                    io.out(JSONWriter.compact(item))
                } else {
                    let o = item.objectValue
                    let text = [o?["title"]?.stringValue, o?["body"]?.stringValue].compactMap { $0 }.joined(separator: " — ")
                    io.out(TerminalText.sanitize("\(o?["device"]?.stringValue ?? "phone")  \(text)"))
                }
                return 0
            case 408:
                io.err("pushbox wait: nothing matched in \(seconds) s (\(object?["arrived"]?.arrayValue?.count ?? 0) arrived)")
                return 1
            default:
                io.err("pushbox wait: \(answer.status) \(TerminalText.sanitize(object?["detail"]?.stringValue ?? ""))")
                return 2
            }
        }
    }
}

/// `pushbox health`: whether the running pushbox answers on its socket and is ready.
enum HealthCommand {
    static let spec = CommandSpec(
        name: "health",
        summary:
            "Whether a pushbox (the TUI or serve) answers on the socket and is ready: exit 0 and its state, else exit 1 (a CI job's readiness check).",
        options: [Options.socket, Options.json.with(help: "Print the answer as one JSON object.")],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        switch LocalClient.call("GET", "/api/v1/health", body: [], headers: [], args, io) {
        case .failure(let failure):
            io.err("pushbox health: \(failure)")
            return 1
        case .success(let o):
            if args.flag(Options.json) {
                io.out(JSONWriter.compact(.object(o)))
            } else {
                io.out("\(o["status"]?.stringValue ?? "?") · \(o["notifications"]?.intValue ?? 0) notifications")
            }
            return o["status"] == "ready" ? 0 : 1
        }
    }
}
