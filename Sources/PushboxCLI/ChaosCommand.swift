import Foundation
import PushboxIntake
import PushboxJSON
import PushboxPayload

/// `pushbox chaos`: the running pushbox's chaos rules, through its socket (`/api/v1/chaos`):
/// list them, add, remove, switch on and off, clear. The rules live in that pushbox's memory.
enum ChaosCommand {
    static let spec = CommandSpec(
        name: "chaos",
        summary:
            "The running pushbox's chaos rules — APNs and FCM failing as they fail in production — through its socket: list (the default), add RULE…, remove ID…, on ID…, off ID…, clear. A rule is a fault (apns STATUS [REASON], fcm STATUS [CODE], html 502, oauth STATUS [ERROR], goaway [REASON], refuse-stream, max-streams N, reset, delay 2s, hang, idle-close 10s [reset], token-expiry 60s, quota device|topic|project [N/min]), options (retry-after=SECONDS or retry-after=date:+SECONDS, accepted, processed, error=, debug=), a trigger (next=N, every=N, probability=P seed=S; every request by default) and matches (service=, token=, topic=, project=, push-type=, device=). Only push requests meet chaos; each injected answer names its rule in the request log and the inbox.",
        operands: "[list|add RULE…|remove ID…|on ID…|off ID…|clear]",
        options: [Options.socket, Options.json.with(help: "Print the rules as GET /api/v1/chaos gives them.")],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let verb = args.operands.first ?? "list"
        let rest = Array(args.operands.dropFirst())
        let body: JSONObject?
        switch verb {
        case "list":
            body = nil
        case "clear":
            body = JSONObject()
        case "add":
            guard !rest.isEmpty else {
                io.err("pushbox chaos add: give a rule, quoted: pushbox chaos add 'fcm 503 UNAVAILABLE next=2'")
                return 2
            }
            for rule in rest {
                do { _ = try ChaosRule.parse(rule) } catch {
                    io.err("pushbox chaos add: \(TerminalText.sanitize(rule)): \(error)")
                    return 2
                }
            }
            body = JSONObject([("add", .array(rest.map { .string($0) }))])
        case "remove", "on", "off":
            let ids = rest.compactMap { Int($0.hasPrefix("#") ? String($0.dropFirst()) : $0) }
            guard !rest.isEmpty, ids.count == rest.count else {
                io.err("pushbox chaos \(verb): give rule numbers, as pushbox chaos list shows them")
                return 2
            }
            body = JSONObject([(verb, .array(ids.map { .number(String($0)) }))])
        default:
            io.err("pushbox chaos: no \(TerminalText.sanitize(verb)); the verbs are list, add, remove, on, off, clear")
            return 2
        }
        let answer = LocalClient.call(
            body == nil ? "GET" : "PUT", "/api/v1/chaos", body: body.map { Array(JSONWriter.compact(.object($0)).utf8) } ?? [],
            headers: [("Content-Type", "application/json")], args, io)
        switch answer {
        case .failure(let failure):
            io.err("pushbox chaos: \(failure)")
            return 1
        case .success(let state):
            if args.flag(Options.json) {
                io.out(JSONWriter.compact(.object(state)))
                return 0
            }
            for line in lines(state) { io.out(TerminalText.sanitize(line)) }
            return 0
        }
    }

    /// `#1 on   fired 2 of 5  fcm 503 UNAVAILABLE next=2`, a line a rule; or that there is none.
    static func lines(_ state: JSONObject) -> [String] {
        let rules = state["rules"]?.arrayValue?.compactMap(\.objectValue) ?? []
        guard !rules.isEmpty else { return ["no chaos rule: pushes are answered as the services answer them"] }
        return rules.map { r in
            let active = r["active"] == .bool(true) ? (r["spent"] == .bool(true) ? "spent" : "on") : "off"
            let id = r["id"]?.intValue ?? 0
            let fired = "fired \(r["fired"]?.intValue ?? 0) of \(r["matched"]?.intValue ?? 0)"
            return
                "#\(id) \(active.padding(toLength: 5, withPad: " ", startingAt: 0)) \(fired.padding(toLength: 16, withPad: " ", startingAt: 0)) \(r["rule"]?.stringValue ?? "")"
        }
    }
}
