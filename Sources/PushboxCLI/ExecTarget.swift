import Foundation
import PushboxInbox
import PushboxIntake
import PushboxJSON

/// Where `pushbox exec` sends its command's connections: the running pushbox's port socket, or
/// an intake of its own for the run, storing into the usual inbox.
enum ExecTarget: CustomStringConvertible {
    /// A pushbox answers on `portSocket` (and on the socket beside it).
    case running(portSocket: String)
    /// exec's own intake, listening on `portSocket` (and on the socket, when no one else is).
    case own(RunningIntake, portSocket: String)

    /// The running pushbox's port socket, else a new intake's.
    static func connect(_ args: ParsedArguments, _ io: CommandIO) throws -> ExecTarget {
        let socket = IntakeOptions.socketPath(args, io)
        let portSocket = Listeners.portSocketPath(beside: socket)
        if Listeners.isAnswering(portSocket) { return .running(portSocket: portSocket) }
        let socketTaken = Listeners.isAnswering(socket)
        if socketTaken {
            io.err(
                "pushbox exec: warning: the pushbox on \(socket) serves no port socket (started with --listen off?); exec takes the pushes in itself, into the inbox, and that pushbox shows them when it reads the inbox again"
            )
        }
        let own = socketTaken ? (socket as NSString).deletingLastPathComponent + "/exec-\(getpid())-port.sock" : portSocket
        let running = try RunningIntake.start(
            args, io, command: "exec", accessLog: { _ in nil },
            configure: { options, profile throws(UsageError) in
                options.socket = !socketTaken
                try PortOptions.apply(args, profile: profile, io: io, to: &options)
                // Only the namespace's connections: no TCP port on the host.
                options.tcp = nil
                options.portSocketPath = own
            })
        return .own(running, portSocket: own)
    }

    /// The socket the relay connects to.
    var portSocket: String {
        switch self {
        case .running(let path), .own(_, let path): path
        }
    }

    /// Who took the pushes in, for the summary.
    var description: String {
        switch self {
        case .running(let path): "the running pushbox (\(path))"
        case .own: "exec's own intake"
        }
    }

    /// This process's connections, as the port socket names them: `unix PATH (pid N)`.
    var listenerPrefix: String { "unix \(portSocket) (pid \(getpid()))" }

    /// Adds the run's `--chaos` rules to the intake that takes its pushes; their numbers, to
    /// remove them when the run ends (a running pushbox keeps its own rules).
    func addChaos(_ rules: [ChaosRule], _ args: ParsedArguments, _ io: CommandIO) -> [Int] {
        guard !rules.isEmpty else { return [] }
        switch self {
        case .own(let running, _): return rules.map { running.server.router.chaos.add($0) }
        case .running:
            let body = JSONWriter.compact(.object(JSONObject([("add", .array(rules.map { .string($0.text) }))])))
            guard case .success(let state) = LocalClient.call("PUT", "/api/v1/chaos", body: Array(body.utf8), headers: [], args, io) else {
                return []
            }
            let ids = (state["rules"]?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.intValue }
            return Array(ids.suffix(rules.count))
        }
    }

    /// Removes the run's rules from a running pushbox.
    func removeChaos(_ ids: [Int], _ args: ParsedArguments, _ io: CommandIO) {
        guard !ids.isEmpty, case .running = self else { return }
        let body = JSONWriter.compact(.object(JSONObject([("remove", .array(ids.map { .number(String($0)) }))])))
        _ = LocalClient.call("PUT", "/api/v1/chaos", body: Array(body.utf8), headers: [], args, io)
    }

    /// The verdict on this run's retries.
    func retries(_ args: ParsedArguments, _ io: CommandIO) -> RetryVerdict? {
        switch self {
        case .own(let running, _): return RetryVerdict.judge(running.server.router.requests.recent().filter { $0.listener.hasPrefix(listenerPrefix) })
        case .running:
            let query = listenerPrefix.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            guard case .success(let value) = LocalClient.callJSON("GET", "/requests/retries?listener=" + query, body: [], headers: [], args, io)
            else { return nil }
            return RetryVerdict(json: value)
        }
    }

    /// What this run's requests came to (a running pushbox is asked on the socket of `args`).
    func tally(_ args: ParsedArguments, _ io: CommandIO) -> RequestTally {
        switch self {
        case .own(let running, _): return running.server.router.requests.tally(listenerPrefix: listenerPrefix)
        case .running:
            let query = listenerPrefix.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            switch LocalClient.callJSON("GET", "/requests/summary?listener=" + query, body: [], headers: [], args, io) {
            case .success(let value): return RequestTally(json: value) ?? RequestTally()
            case .failure: return RequestTally()
            }
        }
    }

    /// The latest row of the inbox that takes the pushes, before the command runs: the fleet's
    /// findings are made from what arrives after it.
    func latestID(_ args: ParsedArguments, _ io: CommandIO) -> Int64 {
        switch self {
        case .own(let running, _): return running.store.latestID
        case .running:
            let answer = LocalClient.callJSON("GET", "/pushbox/findings?after=\(Int64.max)", body: [], headers: [], args, io)
            guard case .success(let value) = answer else { return 0 }
            return Int64(value.objectValue?["latest"]?.intValue ?? 0)
        }
    }

    /// The fleet's findings in this run's pushes (stored after row `after`), as one campaign.
    func findings(after: Int64, _ args: ParsedArguments, _ io: CommandIO) -> [FleetFinding] {
        switch self {
        case .own(let running, _):
            let rows = ((try? running.store.rows(after: after, limit: FleetRoute.limit)) ?? []).filter {
                $0.arrival?.listener.hasPrefix(listenerPrefix) == true
            }
            return running.server.service.findings(rows, oneCampaign: true)
        case .running:
            let query = listenerPrefix.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let answer = LocalClient.callJSON("GET", "/pushbox/findings?after=\(after)&listener=" + query, body: [], headers: [], args, io)
            guard case .success(let value) = answer else { return [] }
            return (value.objectValue?["findings"]?.arrayValue ?? []).compactMap(FleetFinding.init(json:))
        }
    }

    /// Ends exec's own intake (after what it took in is processed); nothing for a running pushbox.
    func stop() {
        if case .own(let running, _) = self { running.stop() }
    }
}
