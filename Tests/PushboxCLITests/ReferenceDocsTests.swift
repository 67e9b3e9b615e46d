import Foundation
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxTestSupport
import Testing

/// The reference pages under docs/reference are what `pushbox docs` writes from the code's
/// tables: a command, option, key, field or reason added without `make docs` fails here.
@Suite("Reference pages generated from the code")
struct ReferenceDocsTests {
    static let committed = ProjectPaths.projectRoot + "/docs/reference"

    /// What `pushbox docs --output` writes now, page by page (name → text), from a folder of its own.
    static func generated() throws -> [String: String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-docs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = CLIRun(["docs", "--output", dir])
        try #require(r.status == 0, "\(r.err)")
        return try Dictionary(
            uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: dir).map {
                ($0, try String(contentsOfFile: dir + "/" + $0, encoding: .utf8))
            })
    }

    @Test("docs/reference holds exactly the pages pushbox docs writes, byte for byte")
    func noDrift() throws {
        let pages = try Self.generated()
        let written = pages.keys.sorted()
        #expect(written == ["api.md", "commands.md", "diagnostics.md", "keys.md", "profile.md", "query.md", "reasons.md", "render-json.md"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.committed).sorted() == written)
        for (name, now) in pages {
            let kept = try String(contentsOfFile: Self.committed + "/" + name, encoding: .utf8)
            #expect(now == kept, "docs/reference/\(name) differs from what the code generates: run make docs")
        }
    }

    @Test("the pages name what the tables hold: a command's options, the inbox's z, render --json's presentation, BadDeviceToken at 400")
    func content() throws {
        let pages = try Self.generated()
        func page(_ name: String) throws -> String { try #require(pages[name], "pushbox docs wrote no \(name)") }
        #expect(try page("commands.md").contains("| `--allow-people` | `HANDLE,…` |"))
        // A `|` in a cell is escaped, in a code span too, or the row would split there.
        #expect(try page("commands.md").contains(#"| `--platform` | `ios\|android\|both` |"#))
        #expect(try page("keys.md").contains("| `z` `space` | collapse or expand the thread"))
        #expect(try page("render-json.md").contains("| `presentation` |  |  | yes |"))
        #expect(try page("reasons.md").contains("| `BadDeviceToken` | 400 | The token is not a device token"))
        #expect(try page("api.md").contains("## `PUT /api/v1/device`"))
        #expect(try page("diagnostics.md").contains("| `android-missing-resource` | warning |"))
        #expect(try page("diagnostics.md").contains("| `broken-file` | error |"))
        #expect(try page("profile.md").contains("## `extension.steps[type=communicate]`"))
        #expect(try page("profile.md").contains("| `hiddenPreviewsShowTitle` | bool |"))
        #expect(try page("query.md").contains("| `delivery:` | what became of it: `delivered`, `stored`,"))
        #expect(CLIRun(["docs"]).status == 2)
    }

    /// Every `Diagnostic.Code` declared in the sources (`public static let x = Self("code", …)`
    /// inside `extension Diagnostic.Code`), found by reading them.
    static func declaredCodes() throws -> Set<String> {
        let root = ProjectPaths.projectRoot + "/Sources"
        var found = Set<String>()
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        let declaration = /public static let \w+ = Self\(\s*"([a-z0-9-]+)",\s*\.(?:warning|error),/
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for block in text.components(separatedBy: "\nextension ") where block.hasPrefix("Diagnostic.Code ") {
                let body = block.components(separatedBy: "\n}")[0]
                for m in body.matches(of: declaration) { found.insert(String(m.1)) }
            }
        }
        return found
    }

    @Test("diagnostics.md lists every code the sources declare, each with a meaning: a code added without its catalog entry fails")
    func everyDeclaredCodeIsCatalogued() throws {
        let declared = try Self.declaredCodes()
        #expect(declared.count > 100)
        let page = try #require(try Self.generated()["diagnostics.md"])
        let rows = page.split(separator: "\n").compactMap { $0.firstMatch(of: /^\| `([a-z0-9-]+)` \| (warning|error) \| (.+) \|$/) }
        #expect(Set(rows.map { String($0.1) }) == declared)
        #expect(rows.count == declared.count, "a code is listed twice")
        #expect(rows.allSatisfy { $0.3.count > 10 })
    }

    @Test(
        "list --json writes exactly the row fields render-json.md lists and the rendering's listed ones: a field added to one and not the other fails"
    )
    func listFieldsAreDocumented() throws {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let socket = s.dir + "/s.sock"
        #expect(CLIRun(["send", "--socket", socket, ProjectPaths.samples + "/01-game-invite.json"]).status == 0)
        _ = CLIRun(["send", "--socket", socket, ProjectPaths.samples + "/invalid/BadPriority.json"])
        let rows = try s.list()
        #expect(rows.count == 2)
        let written = Set(rows.flatMap { $0.keys })
        let documented = Set(InboxListing.rowFields.map(\.key)).union(RenderedNotification.fields.filter(\.listed).map(\.key))
        #expect(written.isSubset(of: documented), "undocumented: \(written.subtracting(documented).sorted())")
        let always = Set(InboxListing.rowFields.filter { !$0.sometimes }.map(\.key))
        #expect(always.isSubset(of: written), "documented but never written: \(always.subtracting(written).sorted())")
    }
}
