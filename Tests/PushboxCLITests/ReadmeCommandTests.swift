import Foundation
import PushboxTestSupport
import Testing

/// The README is a guide a newcomer reads in minutes, and every command it shows works: each
/// ```` ```sh ```` block marked `<!-- runnable -->` runs as written, in bash with `set -e`, against
/// an inbox of its own (a temporary folder with the samples beside it), and must exit 0.
/// `<!-- runnable: venv=NAME -->` runs with that PyPI client first on `PATH` (`make pyclients`);
/// `<!-- runnable: port -->` needs APNs' port 2197 free, as the README's reader has it;
/// `expect="TEXT"` in a marker asks that the block print TEXT (a block showing a failure on purpose);
/// a plain ```` ``` ```` block right after a runnable one is the output the README shows, and the
/// command must still print it.
@Suite("The README's commands, run as written", .serialized)
struct ReadmeCommandTests {
    /// One runnable block: what its marker asks for, and its shell text.
    struct Block: Sendable, CustomTestStringConvertible {
        var options: String
        var script: String
        /// The output the README shows right after the block (a plain ```` ``` ```` block), if any.
        var shown: String?
        var testDescription: String { (options.isEmpty ? "" : "[\(options)] ") + (script.split(separator: "\n").first.map(String.init) ?? "") }
    }

    static let readmePath = ProjectPaths.projectRoot + "/README.md"

    /// Every marked block of the README, in order.
    static func blocks(_ text: String) -> [Block] {
        text.matches(of: /<!-- runnable(?:: ([^>]*?))? -->\n```sh\n((?:.|\n)*?)\n```\n(?:\n```\n((?:.|\n)*?)\n```\n)?/).map {
            Block(options: $0.1.map(String.init) ?? "", script: String($0.2), shown: $0.3.map(String.init))
        }
    }

    static let all: [Block] = (try? String(contentsOfFile: readmePath, encoding: .utf8)).map(blocks) ?? []
    static var plain: [Block] { all.filter { !$0.options.hasPrefix("venv=") && !$0.options.hasPrefix("port") } }
    static var withVenv: [Block] { all.filter { $0.options.hasPrefix("venv=") } }
    static var onPort: [Block] { all.filter { $0.options.hasPrefix("port") } }

    /// The text a block's marker expects it to print (`expect="…"`), if any.
    static func expected(_ block: Block) -> String? { block.options.firstMatch(of: /expect="([^"]*)"/).map { String($0.1) } }

    /// Whether nothing listens on 127.0.0.1:2197 (a developer's own pushbox may).
    static var port2197Free: Bool {
        (try? Subprocess.run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/2197"], timeout: 5).status != 0) ?? false
    }

    /// Runs a block in a fresh inbox: its own HOME and XDG folders, the samples beside it, the
    /// built pushbox first on PATH (then `extraPath`); background jobs stopped when it ends.
    static func run(_ block: Block, extraPath: String? = nil) throws -> Subprocess.Result {
        let inbox = try ShellInbox(extraPath: extraPath)
        try FileManager.default.createSymbolicLink(
            atPath: inbox.dir + "/sample-payloads", withDestinationPath: ProjectPaths.projectRoot + "/sample-payloads")
        return try inbox.run("trap 'for j in $(jobs -p); do kill $j; done; wait' EXIT\nset -e\n" + block.script + "\n")
    }

    @Test("the README is a guide: under 400 lines, a table of contents, and each task section shows a command that runs")
    func shape() throws {
        let text = try String(contentsOfFile: Self.readmePath, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 400)
        #expect(!text.contains("../shared"), "the README stands alone")
        let sections = text.components(separatedBy: "\n## ").dropFirst()
        #expect(sections.first?.hasPrefix("Contents") == true)
        for section in sections
        where !["Contents", "Set up", "Everything else"].contains(where: { section.hasPrefix($0) }) {
            #expect(!Self.blocks(section).isEmpty, "the section \(section.prefix { $0 != "\n" }) has no runnable command")
        }
        #expect(Self.all.count >= 12)
        // Every link to a page of the project leads to a file that is there.
        for link in text.matches(of: /\]\(((?:docs|ARCHITECTURE)[^)#]*)/) {
            #expect(FileManager.default.fileExists(atPath: ProjectPaths.projectRoot + "/" + link.1), "README links to \(link.1), which is not there")
        }
    }

    @Test("each runnable block exits 0", arguments: plain)
    func runs(_ block: Block) throws {
        let r = try Self.run(block)
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
        if let text = Self.expected(block) { #expect(r.out.contains(text), "\(r.out)\n\(r.err)") }
        if let shown = block.shown { #expect(r.out.contains(shown), "the README shows output the command no longer prints:\n\(r.out)") }
    }

    @Test(
        "each runnable block with a PyPI client exits 0",
        .enabled(if: ProviderLibraryTests.venvReady("aioapns"), "needs the venvs make pyclients installs"),
        arguments: withVenv)
    func runsWithClient(_ block: Block) throws {
        let venv = String(block.options.dropFirst("venv=".count))
        try #require(ProviderLibraryTests.venvReady(venv), "needs the \(venv) venv")
        let r = try Self.run(block, extraPath: ProjectPaths.projectRoot + "/.build/pyclients/\(venv)/bin")
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
    }

    @Test("each runnable block on APNs' port 2197 exits 0", .enabled(if: port2197Free, "port 2197 is taken on this machine"), arguments: onPort)
    func runsOnPort(_ block: Block) throws {
        let r = try Self.run(block)
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
    }
}
