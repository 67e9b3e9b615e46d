import Foundation
import PushboxTestSupport
import PushboxText
import Testing

@testable import PushboxCLI

@Suite("pushbox schedule --dry-run")
struct ScheduleCommandTests {
    @Test("the seed's alarm: 12 requests, soonest first, from a clock just before Monday 06:10")
    func alarm() throws {
        let run = CLIRun([
            "schedule", "--dry-run", "--json", "--clock", "2026-12-07T06:09:50", "--tz", "Asia/Seoul", ProjectPaths.samples + "/schedules/alarm.json",
        ])
        #expect(run.status == 0, "\(run.err)")
        let items = try run.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        #expect(items.map { $0["identifier"]?.stringValue } == (0..<12).map { "alarm-2-\($0 * 5)" })
        #expect(items.first?["nextFire"] == "2026-12-07T06:10:00+09:00")
        #expect(items.last?["nextFire"] == "2026-12-07T06:10:55+09:00")
        #expect(items.first?.value(atPath: "content.userInfo.deepLink") == "pushboxsample://alarm/2/0610")
        // Just after the minute, the next Monday.
        let later = CLIRun([
            "schedule", "--dry-run", "--json", "--clock", "2026-12-07T06:11:00", "--tz", "Asia/Seoul", ProjectPaths.samples + "/schedules/alarm.json",
        ])
        #expect(later.lines.first?.contains("\"nextFire\":\"2026-12-14T06:10:00+09:00\"") == true)
    }

    @Test("a refused request makes the exit status 1 and says why")
    func refused() {
        let run = CLIRun(
            ["schedule", "--dry-run", "-"],
            stdin: #"{"requests":[{"identifier":"fast","content":{"body":"x"},"trigger":{"timeInterval":5,"repeats":true}}]}"#)
        #expect(run.status == 1)
        #expect(run.err.contains("not scheduled: fast: time interval must be at least 60 if repeating"))
    }
}
