import Foundation
import PushboxTestSupport
import Testing

/// The reference pages under docs/reference are what `pushbox docs` writes from the code's
/// tables: a command, option, key, field or reason added without `make docs` fails here.
@Suite("Reference pages generated from the code")
struct ReferenceDocsTests {
    static let committed = ProjectPaths.projectRoot + "/docs/reference"

    @Test("docs/reference holds exactly the pages pushbox docs writes, byte for byte")
    func noDrift() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-docs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = CLIRun(["docs", "--output", dir])
        #expect(r.status == 0, "\(r.err)")
        let written = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(written == ["api.md", "commands.md", "keys.md", "reasons.md", "render-json.md"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.committed).sorted() == written)
        for name in written {
            let now = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            let kept = try String(contentsOfFile: Self.committed + "/" + name, encoding: .utf8)
            #expect(now == kept, "docs/reference/\(name) differs from what the code generates: run make docs")
        }
    }

    @Test("the pages name what the tables hold: a command's options, the inbox's z, render --json's presentation, BadDeviceToken at 400")
    func content() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-docs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(CLIRun(["docs", "--output", dir]).status == 0)
        func page(_ name: String) throws -> String { try String(contentsOfFile: dir + "/" + name, encoding: .utf8) }
        #expect(try page("commands.md").contains("| `--allow-people` | `HANDLE,…` |"))
        #expect(try page("keys.md").contains("| `z` `space` | collapse or expand the thread"))
        #expect(try page("render-json.md").contains("| `presentation` |  |  | yes |"))
        #expect(try page("reasons.md").contains("| `BadDeviceToken` | 400 |"))
        #expect(try page("api.md").contains("## `PUT /api/v1/device`"))
        #expect(CLIRun(["docs"]).status == 2)
    }
}
