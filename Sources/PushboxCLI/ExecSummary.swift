import Foundation
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxPayload

/// What `pushbox exec` says at the end: the command's status and what its requests came to,
/// in words on stderr and as JSON (`--json-summary`), and whether `--fail-on` fails the run.
struct ExecSummary {
    /// What `--fail-on` may name.
    enum Failing: String, CaseIterable {
        case rejected, refused
        case notTargeted = "not-targeted"
        case discarded
        /// The fleet's findings (`pushbox device add`): a device got the run's campaign twice,
        /// none of it, or in another language.
        /// `duplicate` is also a message delivered twice after a failure answered for it (retries).
        case duplicate, missed
        case wrongLanguage = "wrong-language"
        /// The verdict on the command's retries (`RetryVerdict`).
        case retriedPermanent = "retried-permanent"
        case noBackoff = "no-backoff"
        case ignoredRetryAfter = "ignored-retry-after"
        case gaveUp = "gave-up"

        /// The kind of fleet finding it names; nil for a request count.
        var finding: FleetFinding.Kind? { FleetFinding.Kind(rawValue: rawValue) }
        /// The retry finding it names.
        var retry: RetryVerdict.Finding? { RetryVerdict.Finding(rawValue: rawValue) }
    }

    /// The exit status of a run whose command succeeded but sent what `--fail-on` names.
    static let failedOnStatus: Int32 = 3

    var command: [String]
    /// The command's exit status (128 + signal when a signal ended it).
    var commandStatus: Int32
    var tally: RequestTally
    var failOn: [Failing]
    /// Connections closed because no pushbox answered on the port socket.
    var unreachable = 0
    /// Where the pushes went: the running pushbox's port socket, or exec's own intake.
    var servedBy: String
    /// The fleet's findings in the run's pushes, taken as one campaign (none without added devices).
    var findings: [FleetFinding] = []
    /// The verdict on the run's retries (nil: the pushbox that took them gave none).
    var retries: RetryVerdict? = nil

    /// `--fail-on rejected,refused`: the names, or the usage error.
    static func parseFailOn(_ text: String?) throws(UsageError) -> [Failing] {
        guard let text else { return [] }
        var list: [Failing] = []
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            guard let f = Failing(rawValue: item) else {
                throw UsageError(message: "--fail-on \(item): expected \(Failing.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            list.append(f)
        }
        return list
    }

    /// How many requests each `--fail-on` kind counted.
    func count(_ kind: Failing) -> Int {
        switch kind {
        case .rejected: tally.rejected.values.reduce(0, +)
        case .refused: tally.refused.values.reduce(0, +)
        case .notTargeted: tally.count(.notTargeted)
        case .discarded: tally.count(.discarded)
        case .duplicate: findings.filter { $0.kind == kind.finding }.count + (retries?.count(.duplicate) ?? 0)
        case .missed, .wrongLanguage: findings.filter { $0.kind == kind.finding }.count
        case .retriedPermanent, .noBackoff, .ignoredRetryAfter, .gaveUp: kind.retry.map { retries?.count($0) ?? 0 } ?? 0
        }
    }

    /// The kinds of `--fail-on` that counted anything.
    var failedOn: [Failing] { failOn.filter { count($0) > 0 } }

    /// pushbox's exit status: the command's when it failed, else 3 when `--fail-on` counted
    /// something, else 0.
    var exitStatus: Int32 {
        if commandStatus != 0 { return commandStatus }
        return failedOn.isEmpty ? 0 : Self.failedOnStatus
    }

    /// The lines on stderr.
    var lines: [String] {
        func reasons(_ map: [String: Int]) -> String {
            map.isEmpty
                ? ""
                : " ("
                    + map.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(
                        separator: ", ") + ")"
        }
        let status = commandStatus > 128 ? "was ended by signal \(commandStatus - 128)" : "exited \(commandStatus)"
        var lines = [
            // The program only: its arguments may hold a token.
            "pushbox exec: \(TerminalText.sanitize(command.first ?? "")) \(status); \(tally.requests) request\(tally.requests == 1 ? "" : "s") to \(servedBy), \(tally.pushes) push\(tally.pushes == 1 ? "" : "es")"
        ]
        lines.append("  delivered      \(tally.count(.delivered))")
        if tally.count(.stored) > 0 { lines.append("  stored         \(tally.count(.stored)) (device offline)") }
        if tally.count(.discarded) > 0 { lines.append("  discarded      \(tally.count(.discarded)) (device offline: not kept)") }
        lines.append("  not targeted   \(tally.count(.notTargeted))")
        lines.append("  rejected       \(count(.rejected))\(reasons(tally.rejected))")
        lines.append("  refused (auth) \(count(.refused))\(reasons(tally.refused))")
        if !findings.isEmpty {
            var kinds: [String: Int] = [:]
            for f in findings { kinds[f.kind.rawValue, default: 0] += 1 }
            lines.append("  fleet findings \(findings.count)\(reasons(kinds))")
            for f in findings { lines.append("    \(f.kind.rawValue): \(TerminalText.sanitize(f.detail))") }
        }
        if let retries, !retries.messages.isEmpty {
            lines.append("  retries        " + retries.lines[0])
            lines += retries.lines.dropFirst().map { "  " + $0 }
        }
        if unreachable > 0 {
            lines.append("  \(unreachable) connection\(unreachable == 1 ? "" : "s") closed: no pushbox answered on the port socket")
        }
        if !failedOn.isEmpty, commandStatus == 0 {
            lines.append("pushbox exec: --fail-on \(failedOn.map(\.rawValue).joined(separator: ",")): exit \(Self.failedOnStatus)")
        }
        return lines
    }

    /// The summary for scripts: stable keys, no times.
    var json: JSONValue {
        var fields: [(key: String, value: JSONValue)] = [
            ("command", .string(command.first ?? "")), ("commandStatus", .number(String(commandStatus))),
            ("exitStatus", .number(String(exitStatus))), ("servedBy", .string(servedBy)),
        ]
        fields += tally.json.objectValue?.entries ?? []
        fields.append(("failOn", .array(failOn.map { .string($0.rawValue) })))
        fields.append(("failedOn", .array(failedOn.map { .string($0.rawValue) })))
        fields.append(("unreachableConnections", .number(String(unreachable))))
        fields.append(("findings", .array(findings.map(\.json))))
        fields.append(("retries", retries?.json ?? .null))
        return .object(JSONObject(fields))
    }
}
