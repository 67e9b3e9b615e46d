import PushboxJSON
import PushboxPayload
import PushboxTestSupport
import Testing

@testable import PushboxCLI

@Suite("pushbox validate")
struct ValidateCommandTests {
    @Test("exit 0 only if every file passes")
    func exitStatus() {
        #expect(CLIRun(["validate", ProjectPaths.samples + "/01-game-invite.json"]).status == 0)
        let mixed = CLIRun(["validate", ProjectPaths.samples + "/01-game-invite.json", ProjectPaths.samples + "/invalid/BadPriority.json"])
        #expect(mixed.status == 1)
        #expect(mixed.lines.count == 2)
        #expect(mixed.lines[1].hasSuffix("BadPriority.json: 400 BadPriority: apns-priority \"7\" is not 10, 5 or 1"))
        #expect(CLIRun(["validate", "/nonexistent.json"]).status == 1)
        #expect(CLIRun(["validate"]).status == 2)
    }

    @Test("--json prints one object per file per line with the contract's fields")
    func json() throws {
        let run = CLIRun(["validate", "--json", ProjectPaths.samples + "/02-feed-post.json", ProjectPaths.samples + "/invalid/PayloadTooLarge.json"])
        #expect(run.lines.count == 2)
        let ok = try #require(try JSONParser.parse(Array(run.lines[0].utf8)).objectValue)
        #expect(Array(ok.keys.prefix(5)) == ["file", "ok", "status", "reason", "detail"])
        #expect(ok["ok"] == .bool(true))
        #expect(ok["reason"] == .null)
        #expect(ok["warnings"]?.arrayValue?.count == 1)
        // Scripts match on codes: every warning is a diagnostic with its code and field.
        let diagnostic = try #require(ok["diagnostics"]?.arrayValue?.first?.objectValue)
        #expect(diagnostic["code"] == .string("custom-key-in-aps") && diagnostic["field"] == .string("aps.data"))
        let bad = try #require(try JSONParser.parse(Array(run.lines[1].utf8)).objectValue)
        #expect(bad["ok"] == .bool(false))
        #expect(bad["status"] == .number("413"))
        #expect(bad["reason"] == .string("PayloadTooLarge"))
    }

    @Test(
        "--json says which body PayloadEmpty was given for",
        arguments: [
            ("PayloadEmpty-array.json", "not-an-object"), ("PayloadEmpty-empty-body.json", "empty"), ("PayloadEmpty-invalid-utf8.json", "not-utf8"),
            ("PayloadEmpty-no-aps.json", "no-aps"), ("PayloadEmpty-not-json.json", "not-json"), ("PayloadEmpty-nul-byte.json", "nul-byte"),
        ])
    func emptyCause(file: String, cause: String) throws {
        let run = CLIRun(["validate", "--json", ProjectPaths.samples + "/invalid/" + file])
        let line = try #require(run.lines.first)
        let o = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
        #expect(o["reason"] == .string("PayloadEmpty") && o["cause"] == .string(cause))
    }

    @Test("- reads stdin, and --header and --token reach the checks")
    func stdinAndHeaders() {
        let body = #"{"aps":{"alert":"hi"}}"#
        #expect(CLIRun(["validate", "-"], stdin: body).status == 0)
        let typed = CLIRun(["validate", "--header", "apns-push-type:banner", "-"], stdin: body)
        #expect(typed.out.contains("400 InvalidPushType"))
        #expect(CLIRun(["validate", "--token", "xyz", "-"], stdin: body).out.contains("BadDeviceToken"))
        #expect(
            CLIRun(["validate", "--header", "apns-priority:5", "--header", "apns-priority:10", "-"], stdin: body).out.contains("DuplicateHeaders"))
        #expect(CLIRun(["validate", "--header", "nocolon", "-"], stdin: body).status == 2)
    }

    @Test("--header overrides the sidecar .headers file")
    func sidecarOverride() {
        let file = ProjectPaths.samples + "/invalid/BadPriority.json"
        #expect(CLIRun(["validate", file]).status == 1)
        #expect(CLIRun(["validate", "--header", "apns-priority:5", file]).status == 0)
    }

    @Test("with --app, topics are checked against the app and FCM targeting is reported")
    func withApp() {
        let body = #"{"aps":{"alert":"hi"}}"#
        let run = CLIRun(["validate", "--app", ProjectPaths.sampleApp, "--header", "apns-topic:com.example.other", "-"], stdin: body)
        #expect(run.out.contains("DeviceTokenNotForTopic"))
        let fr = CLIRun(["validate", "--app", ProjectPaths.sampleApp, ProjectPaths.samples + "/04-fcm-news-fr.json"])
        #expect(fr.status == 0)
        #expect(fr.out.contains("not for this device"))
        let frDevice = CLIRun(["validate", "--app", ProjectPaths.sampleApp, "--lang", "fr-FR", ProjectPaths.samples + "/04-fcm-news-fr.json"])
        #expect(!frDevice.out.contains("not for this device"))
    }

    @Test("payload text never reaches the terminal with escape sequences")
    func sanitized() {
        let run = CLIRun(["validate", "--header", "apns-priority:\u{1B}[2J", "-"], stdin: #"{"aps":{"alert":"x"}}"#)
        #expect(!run.out.contains("\u{1B}"))
        #expect(run.out.contains("␛[2J"))
    }
}
