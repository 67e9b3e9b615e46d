import Foundation
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

    @Test("the Communication Notifications capability without a communicate step is a warning; with one, none")
    func communicationWithoutIntent() throws {
        let without = try Self.lint(#"{"capabilities": ["communication-notifications"]}"#, [:])
        #expect(without.map(\.code) == [.communicationNoIntent])
        let with = try Self.lint(
            #"{"capabilities": ["communication-notifications"], "extension": {"steps": [{"type": "communicate", "sender": "s.name"}]}}"#, [:])
        #expect(with.isEmpty, "\(with)")
    }
}
