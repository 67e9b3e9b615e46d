import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// Man pages and shell completions, generated from the command table: every command and option
/// in them, groff without a warning, bash's completion function driven for real.
@Suite("Man pages and shell completions")
struct ManAndCompletionTests {
    static let groff = Tools.find("groff")
    static let bash = "/bin/bash"

    @Test("a page per command, every option in its page, and pushbox(1) names every command")
    func pages() {
        let pages = ManPages.all
        #expect(pages.map(\.name) == ["pushbox.1"] + Pushbox.commands.map { "pushbox-\($0.name).1" })
        for command in Pushbox.commands {
            let text = ManPages.page(for: command).text
            for option in command.options { #expect(text.contains("\\fB" + ManPages.escape(option.name) + "\\fR"), "\(command.name) \(option.name)") }
        }
        let root = ManPages.page(for: nil).text
        for command in Pushbox.commands { #expect(root.contains(".B " + ManPages.escape(command.name)), "\(command.name)") }
    }

    @Test("every page has EXAMPLES, EXIT STATUS, ENVIRONMENT and FILES, and every example parses with its command's own table")
    func sections() throws {
        for spec in [Pushbox.root] + Pushbox.commands {
            let text = spec.name.isEmpty ? ManPages.page(for: nil).text : ManPages.page(for: spec).text
            for section in ["EXAMPLES", "EXIT STATUS", "ENVIRONMENT", "FILES"] {
                #expect(text.contains(".SH \(section)\n"), "pushbox \(spec.name): no \(section)")
            }
            let examples = try #require(ManExamples.examples[spec.name], "pushbox \(spec.name) has no examples")
            for example in examples {
                let argv = example.line.split(separator: " ").map(String.init)
                #expect(throws: Never.self, "pushbox \(spec.name) \(example.line)") { try parseArguments(argv, spec: spec) }
            }
        }
        #expect(Set(ManExamples.examples.keys) == Set(([Pushbox.root] + Pushbox.commands).map(\.name)))
    }

    @Test("pushbox man and pushbox help with a command that does not exist fail with exit 2 and the nearest command")
    func manUnknown() {
        let run = CLIRun(["man", "rendr"])
        #expect(run.status == 2 && run.out.isEmpty)
        #expect(run.err.contains("no command rendr; did you mean render?"), "\(run.err)")
        #expect(CLIRun(["man", "render"]).out.contains(".SH EXAMPLES"))
        let help = CLIRun(["help", "rendr"])
        #expect(help.status == 2 && help.out.isEmpty && help.err.contains("no command rendr; did you mean render?"), "\(help.err)")
    }

    @Test("roff escapes: a leading dot, backslashes, hyphens, and everything beyond ASCII")
    func escaping() {
        #expect(ManPages.escape(".hidden") == "\\&.hidden")
        #expect(ManPages.escape("a\\b") == "a\\eb")
        #expect(ManPages.escape("--app") == "\\-\\-app")
        #expect(ManPages.escape("L1,…") == "L1,\\[u2026]")
        #expect(ManPages.escape("😀") == "\\[u1F600]")
    }

    @Test("groff -man -ww reports no warning on any page", .enabled(if: groff != nil, "needs groff (Debian's groff-base)"))
    func groffClean() throws {
        for page in ManPages.all {
            let r = try Subprocess.run(try #require(Self.groff), ["-man", "-ww", "-Tutf8", "-z"], stdin: page.text)
            #expect(r.status == 0 && r.err.isEmpty, "\(page.name): \(r.err)")
        }
    }

    @Test("bash's completion function: commands, options, finite values, and the app's languages")
    func bashCompletion() throws {
        let bin = try Self.binFolder()
        defer { try? FileManager.default.removeItem(atPath: bin) }
        let script = """
            source <(pushbox completions bash)
            t() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _pushbox; echo "${COMPREPLY[*]}"; }
            t pushbox ren
            t pushbox render --plat
            t pushbox render --platform ""
            t pushbox --theme h
            t pushbox exec --fail-on ""
            t pushbox render --app \(ProjectPaths.sampleApp) --lang k
            t pushbox device of
            t pushbox device --db x.sqlite un
            t pushbox completions z
            t pushbox man rend
            """
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let r = try Subprocess.run(Self.bash, ["-c", script], environment: env)
        #expect(r.status == 0, "\(r.err)")
        #expect(
            r.out.split(separator: "\n", omittingEmptySubsequences: false).prefix(10).map(String.init) == [
                "render", "--platform", "ios android both", "high-contrast",
                "rejected refused not-targeted discarded duplicate missed wrong-language retried-permanent no-backoff ignored-retry-after gave-up",
                "ko",
                "offline", "uninstall unregister unsubscribe", "zsh", "render",
            ], "\(r.out)")
    }

    /// A folder with `pushbox` (the built binary) in it, for the shells' PATH.
    static func binFolder() throws -> String {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("pbcomp-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/pushbox", withDestinationPath: try #require(EndToEndTests.binary))
        return bin
    }

    @Test("fish's own completion (complete -C): commands, finite values, the app's languages", .enabled(if: Tools.find("fish") != nil, "needs fish"))
    func fishCompletion() throws {
        let bin = try Self.binFolder()
        defer { try? FileManager.default.removeItem(atPath: bin) }
        let file = bin + "/pushbox.fish"
        try Data(Completions.fish.utf8).write(to: URL(fileURLWithPath: file))
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        func complete(_ line: String) throws -> [String] {
            let r = try Subprocess.run(try #require(Tools.find("fish")), ["-c", "source \(file); complete -C \"\(line)\""], environment: env)
            return r.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("pushbox ren") == ["render"])
        #expect(try complete("pushbox render --platform ") == ["android", "both", "ios"])
        #expect(try complete("pushbox render --lang k") == ["ko"])
        #expect(try complete("pushbox device un") == ["uninstall", "unregister", "unsubscribe"])
        #expect(try complete("pushbox completions f") == ["fish"])
    }

    @Test("zsh reads the zsh completion without a syntax error", .enabled(if: Tools.find("zsh") != nil, "needs zsh"))
    func zshSyntax() throws {
        let r = try Subprocess.run(try #require(Tools.find("zsh")), ["-n"], stdin: Completions.zsh)
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
    }

    @Test("zsh and fish: every command and every option of each")
    func zshAndFish() {
        let zsh = Completions.zsh
        let fish = Completions.fish
        // device's actions, not file names, as its first operand.
        #expect(
            zsh.contains(
                "'1:action:(online offline install uninstall unregister register subscribe unsubscribe language focus summary previews ring silent add remove list)'"
            ))
        #expect(Completions.operandWords(RenderCommand.spec) == nil)
        for command in Pushbox.commands {
            #expect(zsh.contains("'\(command.name):"), "zsh \(command.name)")
            #expect(fish.contains("-a \(command.name) "), "fish \(command.name)")
            for option in command.options {
                #expect(zsh.contains(option.name + "["), "zsh \(command.name) \(option.name)")
                #expect(
                    fish.contains("__fish_seen_subcommand_from \(command.name)' -l \(option.name.dropFirst(2))"),
                    "fish \(command.name) \(option.name)")
            }
        }
    }
}
