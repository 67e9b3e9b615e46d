import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// `pushbox device add|remove|list`, `--device NAME` and `language`: the fleet kept with the
/// inbox, each device changed on its own, a wrong name a usage error that says what to do.
@Suite("A fleet of phones: the device command")
struct FleetCommandTests {
    static func device(_ db: String, _ args: [String]) -> CLIRun { CLIRun(["device"] + args + ["--db", db]) }

    static func listed(_ db: String) throws -> [String: JSONObject] {
        let run = device(db, ["list", "--json"])
        try #require(run.status == 0, "\(run.err)")
        var out: [String: JSONObject] = [:]
        for line in run.lines {
            let o = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
            out[o["name"]?.stringValue ?? ""] = o
        }
        return out
    }

    @Test("add, list, --device and remove; the default device is always listed first and cannot be added or removed")
    func lifecycle() throws {
        let folder = TemporaryFolder("pbfleetcli")
        let db = folder.path + "/inbox.sqlite"
        let added = Self.device(db, ["add", "ja", "--lang", "ja-JP", "--tz", "Asia/Tokyo", "--apns-environment", "production", "--json"])
        #expect(added.status == 0, "\(added.err)")
        let ja = try #require(try JSONParser.parse(Array(added.out.utf8)).objectValue)
        #expect(ja["timeZone"] == "Asia/Tokyo" && ja["apnsEnvironment"] == "production" && ja["languages"] == .array(["ja-JP"]))
        #expect(
            Self.device(db, ["add", "es", "--platform", "android", "--lang", "es-ES", "--clock", "2099-01-01T00:00:00", "--tz", "UTC"]).status == 0)
        let list = Self.device(db, ["list"])
        #expect(list.lines.count == 4 && list.lines[1].hasPrefix("phone ") && list.lines[2].hasPrefix("ja ") && list.lines[3].hasPrefix("es "))
        var all = try Self.listed(db)
        #expect(all["es"]?["apnsToken"] == .null && all["es"]?["platform"] == "android")
        let offset = Double(all["es"]?["clockOffset"]?.intValue ?? 0)
        #expect(abs(offset - Date(timeIntervalSince1970: 4_070_908_800).timeIntervalSinceNow) < 60, "the clock runs to 2099 from now: \(offset)")
        #expect(all["ja"]?["topics"]?.arrayValue?.contains("LangJaJP") == true)
        // Each device changed on its own.
        #expect(Self.device(db, ["--device", "ja", "offline"]).status == 0)
        #expect(Self.device(db, ["--device", "es", "uninstall"]).status == 0)
        #expect(Self.device(db, ["--device", "ja", "language", "ko-KR,ja"]).status == 0)
        all = try Self.listed(db)
        #expect(all["ja"]?["online"] == .bool(false) && all["phone"]?["online"] == .bool(true))
        #expect(all["es"]?["installed"] == .bool(false) && all["es"]?["topics"] == .array([]))
        #expect(all["ja"]?["languages"] == .array(["ko-KR", "ja"]) && all["ja"]?["topics"]?.arrayValue?.contains("LangKoKR") == true)
        // The default device's languages too: every command on the inbox then uses them.
        #expect(Self.device(db, ["language", "fr-FR"]).status == 0)
        #expect(try Self.listed(db)["phone"]?["languages"] == .array(["fr-FR"]))
        #expect(Self.device(db, ["remove", "ja"]).status == 0)
        #expect(try Self.listed(db).keys.sorted() == ["es", "phone"])
    }

    @Test("a name taken, the default device's, a bad name, an unknown device, a bad platform, zone or language: exit 2, nothing changed")
    func usageErrors() throws {
        let folder = TemporaryFolder("pbfleetcli")
        let db = folder.path + "/inbox.sqlite"
        #expect(Self.device(db, ["add", "ja"]).status == 0)
        let before = try Self.listed(db)
        for args in [
            ["add", "ja"], ["add", "phone"], ["add", "-x"], ["add", "a b"], ["add", "x", "--platform", "windows"],
            ["add", "x", "--tz", "Mars/Olympus"],
            ["remove", "phone"], ["remove", "nobody"], ["--device", "nobody", "offline"], ["--device", "ja", "language", "123"], ["list", "x"],
        ] {
            let run = Self.device(db, args)
            #expect(run.status == 2 && !run.err.isEmpty, "\(args): \(run.status) \(run.err)")
        }
        #expect(try Self.listed(db) == before)
        let list = CLIRun(["list", "--db", db, "--device", "nobody"])
        #expect(list.status == 2, "\(list.err)")
    }

    @Test("schedule, pending and cancel take --device: an added device's local notifications are its own; an unknown device is refused")
    func localNotificationsPerDevice() throws {
        let s = try ServeEndToEndTests.Served()
        try FileManager.default.createDirectory(atPath: s.dir, withIntermediateDirectories: true)
        #expect(Self.device(s.db, ["add", "ja", "--lang", "ja-JP", "--tz", "Asia/Tokyo"]).status == 0)
        try s.start()
        let file = s.dir + "/later.json"
        try #"{"requests":[{"identifier":"later-1","content":{"title":"Later"},"trigger":{"timeInterval":3600}}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let scheduled = CLIRun(["schedule", "--socket", s.socket, "--device", "ja", file])
        #expect(scheduled.status == 0, "\(scheduled.err)")
        let theirs = CLIRun(["pending", "--socket", s.socket, "--device", "ja", "--json"])
        #expect(theirs.status == 0 && theirs.lines.count == 1 && theirs.out.contains("later-1"), "\(theirs.out) \(theirs.err)")
        let own = CLIRun(["pending", "--socket", s.socket, "--json"])
        #expect(own.status == 0 && !own.out.contains("later-1"), "\(own.out)")
        #expect(CLIRun(["cancel", "--socket", s.socket, "--device", "ja", "later-*"]).status == 0)
        #expect(!CLIRun(["pending", "--socket", s.socket, "--device", "ja", "--json"]).out.contains("later-1"))
        let unknown = CLIRun(["schedule", "--socket", s.socket, "--device", "nobody", file])
        #expect(unknown.status != 0 && unknown.err.contains("NoSuchDevice"), "\(unknown.err)")
    }

    @Test("list --query: words, fields and negation over what each device shows; a query that cannot be read is exit 2 with where")
    func listQuery() throws {
        let s = try ServeEndToEndTests.Served()
        try FileManager.default.createDirectory(atPath: s.dir, withIntermediateDirectories: true)
        #expect(Self.device(s.db, ["add", "ja", "--lang", "ja-JP"]).status == 0)
        try s.start(["--lang", "en-US"])
        for (topic, title) in [("NewsApp", "Breaking"), ("LangJaJP", "ご注文を発送しました"), ("LangEnUS", "Your order has shipped")] {
            let message = #"{"message":{"topic":"\#(topic)","notification":{"title":"\#(title)","body":"x"}}}"#
            let r = try Subprocess.run(
                "/usr/bin/curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", s.socket, "-H", "content-type: application/json", "--data-binary",
                    message, "http://localhost/v1/projects/shop/messages:send",
                ])
            #expect(r.out == "200", "\(r.out) \(r.err)")
        }
        func titles(_ query: String) throws -> [String] {
            let run = CLIRun(["list", "--db", s.db, "--json", "--no-extension", "--history", "--query", query])
            try #require(run.status == 0, "\(query): \(run.err)")
            return try run.lines.compactMap { try JSONParser.parse(Array($0.utf8)).objectValue?["title"]?.stringValue }
        }
        #expect(try titles("device:ja -source:command-line") == ["Breaking", "ご注文を発送しました"])
        #expect(try titles("order shipped device:phone") == ["Your order has shipped"])
        #expect(try titles("発送 lang:ja") == ["ご注文を発送しました"])
        #expect(try titles("source:fcm -device:ja").sorted() == ["Breaking", "Your order has shipped"])
        let bad = CLIRun(["list", "--db", s.db, "--query", "a colour:red"])
        #expect(bad.status == 2 && bad.err.contains("query at 3") && bad.err.contains("no field colour"), "\(bad.err)")
    }
}
