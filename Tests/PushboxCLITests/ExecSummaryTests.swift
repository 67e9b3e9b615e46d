import Foundation
import PushboxInbox
import PushboxIntake
import PushboxJSON
import Testing

@testable import PushboxCLI

/// exec's exit status and its summary from the counts: the command's status first, then
/// `--fail-on`.
@Suite("pushbox exec's verdict")
struct ExecSummaryTests {
    func summary(status: Int32 = 0, rejected: [String: Int] = [:], refused: [String: Int] = [:], notTargeted: Int = 0, failOn: String?) throws
        -> ExecSummary
    {
        var tally = RequestTally()
        tally.rejected = rejected
        tally.refused = refused
        if notTargeted > 0 { tally.accepted[Acceptance.notTargeted.rawValue] = notTargeted }
        return ExecSummary(
            command: ["backend", "--token", "SECRET"], commandStatus: status, tally: tally, failOn: try ExecSummary.parseFailOn(failOn),
            servedBy: "exec's own intake")
    }

    @Test("--fail-on turns a succeeding command's refused pushes into exit 3; a failing command keeps its status; nothing counted is 0")
    func exitStatus() throws {
        #expect(try summary(rejected: ["BadDeviceToken": 2], failOn: "rejected").exitStatus == ExecSummary.failedOnStatus)
        #expect(try summary(rejected: ["BadDeviceToken": 2], failOn: "refused").exitStatus == 0)
        #expect(try summary(refused: ["InvalidProviderToken": 1], failOn: "rejected,refused").exitStatus == ExecSummary.failedOnStatus)
        #expect(try summary(notTargeted: 1, failOn: "not-targeted").exitStatus == ExecSummary.failedOnStatus)
        #expect(try summary(status: 5, rejected: ["BadDeviceToken": 1], failOn: "rejected").exitStatus == 5)
        #expect(try summary(rejected: ["BadDeviceToken": 1], failOn: nil).exitStatus == 0)
        #expect(throws: UsageError.self) { try ExecSummary.parseFailOn("rejected,everything") }
    }

    @Test("the summary names the program only, never its arguments (a token may be one), and each reason with its count")
    func words() throws {
        let s = try summary(rejected: ["BadDeviceToken": 2, "PayloadEmpty": 1], failOn: "rejected")
        let text = s.lines.joined(separator: "\n")
        #expect(!text.contains("SECRET"))
        #expect(text.contains("BadDeviceToken ×2, PayloadEmpty ×1"))
        #expect(s.json.objectValue?["command"] == .string("backend"))
        #expect(s.json.objectValue?["failedOn"] == .array([.string("rejected")]))
    }
}
