import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// `pushbox activity start` and `pushbox activities` on an inbox of their own, on the device
/// clock the file records.
@Suite("pushbox activity start and pushbox activities")
struct ActivityCommandTests {
    final class Folder {
        let dir = "/tmp/pba-\(UUID().uuidString.prefix(8))"
        var db: String { dir + "/inbox.sqlite" }
        init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        func file(_ name: String, _ text: String) throws -> String {
            try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
            return dir + "/" + name
        }
        deinit { try? FileManager.default.removeItem(atPath: dir) }
    }

    static func json(_ run: CLIRun) throws -> JSONObject { try #require(try JSONParser.parse(Array(run.out.utf8)).objectValue) }

    @Test("a local start on a simulated clock: its id and token; activities reads the same clock from the file, and ranks it")
    func localStart() throws {
        let f = try Folder()
        let attributes = try f.file("a.json", #"{"homeTeam": "Seoul", "awayTeam": "Busan"}"#)
        let state = try f.file("s.json", #"{"homeScore": 0, "awayScore": 0, "period": "first-half"}"#)
        let started = CLIRun([
            "activity", "start", "--db", f.db, "--type", "MatchAttributes", "--attributes", attributes, "--state", state, "--relevance", "30",
            "--clock", "2030-01-01T09:00:00", "--tz", "UTC", "--json",
        ])
        #expect(started.status == 0, "\(started.err)")
        let outcome = try Self.json(started)
        #expect(outcome["applied"] == .bool(true) && outcome["pushToken"]?.stringValue?.count == 64)
        // No --clock: the clock the file recorded (2030), moving on from there.
        let listed = try Self.json(CLIRun(["activities", "--db", f.db, "--json"]))
        #expect(listed["now"]?.stringValue?.hasPrefix("2030-01-01T09:0") == true, "\(listed)")
        let activity = try #require(listed["activities"]?.arrayValue?.first?.objectValue)
        #expect(activity["startedAt"] == "2030-01-01T09:00:00Z" && activity["startedBy"] == "app" && activity["islandRank"] == 1)
        #expect(activity["line"] == "Seoul 0–0 Busan · first-half")  // the sample profile's template
        #expect(listed["island"] == .array([activity["id"]!]))
        // Text: the device clock and the activity.
        let text = CLIRun(["activities", "--db", f.db, "--tz", "UTC"])
        #expect(text.out.contains("device clock            2030-01-01 09:0"))
        #expect(text.out.contains("MatchAttributes \(activity["id"]?.stringValue ?? "")  active · island #1 · relevance 30"))
    }

    @Test("a start the app's types refuse: Activity.request fails with the reason (exit 1); a broken file names line and column (exit 2)")
    func refusals() throws {
        let f = try Folder()
        let attributes = try f.file("a.json", #"{"homeTeam": "Seoul", "awayTeam": "Busan"}"#)
        let bad = try f.file("s.json", #"{"homeScore": "0", "awayScore": 0, "period": "first-half"}"#)
        let r = CLIRun(["activity", "start", "--db", f.db, "--type", "MatchAttributes", "--attributes", attributes, "--state", bad, "--json"])
        #expect(r.status == 1)
        #expect(try Self.json(r)["reason"] == "content-state-does-not-decode")
        let unknown = CLIRun(["activity", "start", "--db", f.db, "--type", "Pizza", "--attributes", attributes, "--json"])
        #expect(try Self.json(unknown)["reason"] == "unknown-attributes-type")
        let broken = try f.file("b.json", "{\n  \"homeTeam\": ,\n}")
        let b = CLIRun(["activity", "start", "--db", f.db, "--type", "MatchAttributes", "--attributes", broken])
        #expect(b.status == 2 && b.err.contains("\(broken):2:"), "\(b.err)")
    }

    @Test("render --json of a Live Activity update tries it against the device's activities and changes nothing")
    func renderTries() throws {
        let f = try Folder()
        let attributes = try f.file("a.json", #"{"homeTeam": "Seoul", "awayTeam": "Busan"}"#)
        let state = try f.file("s.json", #"{"homeScore": 0, "awayScore": 0, "period": "first-half"}"#)
        // Started before the sample's timestamp (11:05), so the update is newer and its state is what fails.
        let start = ["activity", "start", "--db", f.db, "--type", "MatchAttributes", "--attributes", attributes, "--state", state]
        #expect(CLIRun(start + ["--clock", "2026-12-01T10:00:00", "--tz", "UTC"]).status == 0)
        let before = try String(contentsOfFile: f.dir + "/inbox.activities.json", encoding: .utf8)
        let sample = ProjectPaths.samples + "/16-match-live-bad-state.json"
        let r = CLIRun(["render", "--json", "--db", f.db, sample])
        let la = try #require(try Self.json(r)["liveActivity"]?.objectValue)
        #expect(la["applied"] == .bool(false) && la["reason"] == "content-state-does-not-decode")
        #expect(try String(contentsOfFile: f.dir + "/inbox.activities.json", encoding: .utf8) == before)
        // Without any activity the update reaches none.
        let empty = try Folder()
        let none = try #require(try Self.json(CLIRun(["render", "--json", "--db", empty.db, sample]))["liveActivity"]?.objectValue)
        #expect(none["reason"] == "no-activity")
    }
}
