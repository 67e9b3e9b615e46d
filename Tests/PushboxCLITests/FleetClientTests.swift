import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// A fleet of phones driven by the client libraries backends use, unchanged, under `pushbox
/// exec`: firebase-admin's per-language topics (the fleet guide's worked example) and aioapns's
/// per-user pushes, each phone showing its own in its language.
@Suite("A fleet of phones with real clients", .serialized)
struct FleetClientTests {
    /// Every device of the fixture's inbox, by name, as `device list --json` prints them.
    static func devices(_ f: ExecTests.ExecFixture) throws -> [String: JSONObject] { try FleetCommandTests.listed(f.db) }

    /// What `list --device NAME --json` lists.
    static func inbox(_ f: ExecTests.ExecFixture, device: String) throws -> [JSONObject] {
        let run = CLIRun(["list", "--db", f.db, "--device", device, "--json", "--no-extension"], environment: f.environment)
        try #require(run.status == 0, "\(run.err)")
        return try run.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
    }

    /// The three phones of the worked example: the inbox's own in Korean, a Japanese iPhone, a
    /// Spanish Android phone.
    static func threePhones(_ f: ExecTests.ExecFixture) throws {
        for args in [["language", "ko-KR"], ["add", "ja", "--lang", "ja-JP"], ["add", "es", "--platform", "android", "--lang", "es-ES"]] {
            let run = CLIRun(["device"] + args + ["--db", f.db], environment: f.environment)
            try #require(run.status == 0, "\(args): \(run.err)")
        }
    }

    @Test(
        "the fleet guide's worked example: firebase-admin subscribes each phone to its language topic and sends one message per topic; each phone shows exactly its own, then a language change that kept the old topic shows as a duplicate",
        .enabled(if: ExecTests.available, ExecTests.reason),
        .enabled(if: ProviderLibraryTests.venvReady("firebase"), "needs the firebase venv that make pyclients installs from PyPI"))
    func languageTopicsWithFirebaseAdmin() throws {
        let f = try ExecTests.ExecFixture()
        try Self.threePhones(f)
        let account = f.dir + "/service-account.json"
        let made = try Subprocess.run(ProviderLibraryTests.venvPython("firebase"), [ExecTests.clients + "/make_service_account.py", account, "shop"])
        try #require(made.status == 0, "\(made.err)")
        let devices = try Self.devices(f)
        func token(_ name: String) throws -> String { try #require(devices[name]?["fcmToken"]?.stringValue) }
        let script = [ProviderLibraryTests.venvPython("firebase"), ExecTests.clients + "/fleet_language_topics.py", account]
        let first = f.dir + "/first.json"
        let users = ["ko-KR=\(try token("phone"))", "ja-JP=\(try token("ja"))", "es-ES=\(try token("es"))"]
        let run = try f.exec(["--json-summary", first, "--fail-on", "duplicate,missed,wrong-language", "--"] + script + users)
        #expect(run.status == 0, "\(run.out) \(run.err)")
        #expect(
            run.out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("subscribed") } == [
                "subscribed ko-KR 1", "subscribed ja-JP 1", "subscribed es-ES 1",
            ], "\(run.out)")
        #expect(
            run.out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("sent") }.count == 3 && !run.out.contains("False"), "\(run.out)")
        #expect(try f.summary(first)["findings"] == .array([]), "\(run.err)")
        for (name, title) in [("phone", "주문이 발송되었습니다"), ("ja", "ご注文を発送しました"), ("es", "Tu pedido ha sido enviado")] {
            let shown = try Self.inbox(f, device: name)
            #expect(shown.map { $0["title"]?.stringValue } == [title], "\(name): \(shown)")
            #expect(shown.first?["device"]?.stringValue == name)
        }
        // The classic mistake: the app subscribes ja to a second language topic and keeps the old one.
        #expect(CLIRun(["device", "--device", "ja", "subscribe", "LangKoKR", "--db", f.db], environment: f.environment).status == 0)
        let second = f.dir + "/second.json"
        let again = try f.exec(["--json-summary", second, "--fail-on", "duplicate,wrong-language", "--"] + script)
        #expect(again.status == ExecSummary.failedOnStatus, "\(again.out) \(again.err)")
        let findings = try f.summary(second)["findings"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let kinds = findings.map { "\($0["kind"]?.stringValue ?? "") \($0["device"]?.stringValue ?? "") \($0["cause"]?.stringValue ?? "-")" }.sorted()
        #expect(kinds == ["duplicate ja -", "wrong-language ja language-topic"], "\(findings)")
        #expect(again.err.contains("fleet findings 2"), "\(again.err)")
        #expect(try Self.inbox(f, device: "ja").count == 3)
    }

    @Test(
        "aioapns sends each user's push to the user's token: each iPhone shows it in its own language with its user's loc-args; the Android phone gets none",
        .enabled(if: ExecTests.available, ExecTests.reason),
        .enabled(if: ProviderLibraryTests.venvReady("aioapns"), "needs the aioapns venv that make pyclients installs from PyPI"))
    func perDeviceAPNsWithAioapns() throws {
        let f = try ExecTests.ExecFixture()
        try Self.threePhones(f)
        #expect(CLIRun(["device", "add", "de", "--lang", "de-DE", "--db", f.db], environment: f.environment).status == 0)
        let devices = try Self.devices(f)
        #expect(devices["es"]?["apnsToken"] == .null, "an Android phone has no APNs token")
        func token(_ name: String) throws -> String { try #require(devices[name]?["apnsToken"]?.stringValue) }
        let file = f.dir + "/summary.json"
        let run = try f.exec(
            [
                "--json-summary", file, "--", ProviderLibraryTests.venvPython("aioapns"), ExecTests.clients + "/fleet_aioapns.py",
                ExecTests.sampleKey,
                "SAMPLEKEY1", "PUSHBOXDEV", "\(try token("phone"))=Minji", "\(try token("ja"))=Haruto", "\(try token("de"))=Lena",
            ])
        #expect(run.status == 0 && run.out.split(separator: "\n") == ["200 -", "200 -", "200 -"], "\(run.out) \(run.err)")
        #expect(try f.summary(file)["delivered"]?.intValue == 3)
        for (name, inviter, word) in [("phone", "Minji", "모노폴리"), ("ja", "Haruto", "モノポリー"), ("de", "Lena", "Monopoly")] {
            let shown = try Self.inbox(f, device: name)
            #expect(shown.count == 1, "\(name): \(shown)")
            let body = shown.first?["body"]?.stringValue ?? ""
            #expect(body.contains(inviter) && body.contains(word), "\(name): \(body)")
        }
        #expect(try Self.inbox(f, device: "es").isEmpty)
    }
}
