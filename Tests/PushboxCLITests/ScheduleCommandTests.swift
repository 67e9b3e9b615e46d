import Foundation
import PushboxJSON
import PushboxTestSupport
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

/// A calendar trigger on a day the month lacks, and aligned columns.
@Suite("schedule --dry-run: shifted fires and columns")
struct ScheduleShiftTests {
    @Test("February 29 outside a leap year fires on March 1 at 09:00, and dry-run says so in text and JSON; identifiers line up")
    func shifted() throws {
        let folder = TemporaryFolder("pbshift")
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let file = folder.path + "/s.json"
        try
            #"{"requests":[{"identifier":"leap","content":{"body":"x"},"trigger":{"dateMatching":{"month":2,"day":29,"hour":9}}},{"identifier":"a-long-identifier","content":{"body":"y"},"trigger":{"timeInterval":60}}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let text = CLIRun(["schedule", "--dry-run", "--clock", "2026-12-07T06:00:00", "--tz", "UTC", file])
        let leap = try #require(text.lines.first { $0.contains("leap") })
        #expect(leap.hasPrefix("2027-03-01T09:00:00Z") && leap.contains("! month 2, day 29 does not exist then"), "\(text.out)")
        // The trigger column starts at the same place on every line.
        let starts = text.lines.compactMap { line in
            (line.range(of: "after 60 s") ?? line.range(of: "at *-02-29")).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }
        #expect(starts.count == 2 && Set(starts).count == 1, "\(text.out)")
        let json = CLIRun(["schedule", "--dry-run", "--json", "--clock", "2026-12-07T06:00:00", "--tz", "UTC", file])
        #expect(json.lines.contains { $0.contains(#""finding":"month 2, day 29 does not exist then"#) })
    }
}
