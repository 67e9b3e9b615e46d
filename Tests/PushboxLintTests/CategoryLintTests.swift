import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import Testing

@testable import PushboxLint

/// What the profile says iOS formats: each category's summary format and placeholder against
/// every localization, and a communication capability without its step.
@Suite("Lint: categories and communication")
struct CategoryLintTests {
    static func lint(_ profileJSON: String, _ files: [String: String]) throws -> [LintFinding] {
        let folder = try LintTests.Folder(files.merging(["pushbox.json": profileJSON]) { a, _ in a })
        let profile = try AppProfile.load(directory: folder.path)
        return withExtendedLifetime(folder) {
            CategoryLinter(profile: profile, app: AppLocalizations(directory: folder.path, developmentRegion: "en")).lint()
        }
    }

    @Test(
        "a categorySummaryFormat whose translation reads %@ where iOS gives the count (%u) is an error in that language's file; %u and %@ are fine (Apple, categorySummaryFormat)"
    )
    func summaryFormat() throws {
        let findings = try Self.lint(
            #"{"categories": {"M": {"categorySummaryFormat": "SUMMARY", "hiddenPreviewsBodyPlaceholder": "HIDDEN"}}}"#,
            [
                "en.lproj/Localizable.strings": #""SUMMARY" = "%u more messages from %@"; "HIDDEN" = "%u new messages";"#,
                "ja.lproj/Localizable.strings": #""SUMMARY" = "%@からの%u件"; "HIDDEN" = "%u件の新着";"#,
                "de.lproj/Localizable.strings": #""SUMMARY" = "%u weitere von %@"; "HIDDEN" = "%u neue von %@";"#,
            ])
        let bad = findings.filter { $0.code == .categoryFormat }
        #expect(Set(bad.map { $0.language ?? "" }) == ["ja", "de"], "\(findings)")
        #expect(bad.allSatisfy { $0.severity == .error && $0.file.hasSuffix("/Localizable.strings") })
        #expect(bad.first { $0.language == "de" }?.key == "HIDDEN")
    }

    @Test("a literal format (no key of the app's strings) is checked as it is, against pushbox.json")
    func literal() throws {
        let findings = try Self.lint(#"{"categories": {"M": {"categorySummaryFormat": "%d more from %@ and %@"}}}"#, [:])
        #expect(findings.map(\.code) == [.categoryFormat])
        #expect(findings.first?.file.hasSuffix("/pushbox.json") == true && findings.first?.key == nil)
    }

    @Test(
        "lint --payloads judges what each payload asks of iOS against the app's capabilities: a critical sound without the entitlement, a volume outside 0–1, time-sensitive without the capability, summary-arg, a sender without the communicate step (Apple, UNNotificationInterruptionLevel; summaryArgument)"
    )
    func payloadsAgainstCapabilities() throws {
        let folder = try LintTests.Folder([
            "pushbox.json": #"{"capabilities": ["communication-notifications"]}"#,
            "en.lproj/Localizable.strings": #""k" = "v";"#,
            "p/critical.json": "{\"aps\": {\"alert\": \"x\",\n \"sound\": {\"critical\": 1, \"name\": \"a.caf\",\n \"volume\": 1.5}}}",
            "p/urgent.json": #"{"aps": {"alert": "x", "interruption-level": "time-sensitive"}}"#,
            "p/stack.json": #"{"aps": {"alert": {"body": "x", "summary-arg": "Mina"}}}"#,
            "p/chat.json": #"{"aps": {"alert": "x", "mutable-content": 1}, "sender": {"name": "Mina"}}"#,
            "p/plain.json": #"{"aps": {"alert": "x", "interruption-level": "passive"}}"#,
        ])
        let profile = try AppProfile.load(directory: folder.path)
        let app = AppLocalizations(directory: folder.path, developmentRegion: "en")
        let findings = PayloadKeyLinter(app: app, profile: profile).lint(folder: folder.path + "/p")
        func codes(_ name: String) -> Set<Diagnostic.Code> { Set(findings.filter { $0.file.hasSuffix("/" + name) }.map(\.code)) }
        #expect(codes("critical.json") == [.criticalAlertEntitlement, .soundType], "\(findings)")
        #expect(findings.first { $0.code == .soundType }?.line == 3)
        #expect(codes("urgent.json") == [.timeSensitiveCapability])
        #expect(codes("stack.json") == [.summaryArgIgnored])
        #expect(codes("chat.json") == [.communicationNoIntent])
        #expect(codes("plain.json").isEmpty)
        // Without a profile (no capabilities known) only what needs none is judged.
        let bare = PayloadKeyLinter(app: app).lint(folder: folder.path + "/p")
        #expect(!bare.contains { $0.code == .criticalAlertEntitlement || $0.code == .communicationNoIntent })
    }

    @Test("the Communication Notifications capability without a communicate step is a warning; with one, none")
    func communicationWithoutIntent() throws {
        let without = try Self.lint(#"{"capabilities": ["communication-notifications"]}"#, [:])
        #expect(without.map(\.code) == [.communicationNoIntent])
        let with = try Self.lint(
            #"{"capabilities": ["communication-notifications"], "extension": {"steps": [{"type": "communicate", "sender": "s.name"}]}}"#, [:])
        #expect(with.isEmpty, "\(with)")
    }
}
