import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxCLI

@Suite("Table-driven argument parsing")
struct ArgumentParserTests {
    static let json = OptionSpec("--json", help: "JSON.")
    static let app = OptionSpec("--app", value: "DIR", help: "App.")
    static let header = OptionSpec("--header", value: "NAME:VALUE", repeatable: true, help: "Header.")
    static let count = OptionSpec("--count", value: "N", help: "Count.")
    static let ratio = OptionSpec("--ratio", value: "X", help: "Ratio.")
    let spec = CommandSpec(name: "demo", summary: "A demo.", operands: "FILE…", options: [json, app, header, count, ratio], run: { _, _ in 0 })

    @Test("flags, values in both forms, repeats, operands and stdin")
    func parses() throws {
        let p = try parseArguments(["a.json", "--json", "--app", "X", "--header=a:1", "--header", "b:2", "-", "--", "--not-an-option"], spec: spec)
        #expect(p.flag(Self.json))
        #expect(p.value(Self.app) == "X")
        #expect(p.all(Self.header) == ["a:1", "b:2"])
        #expect(p.operands == ["a.json", "-", "--not-an-option"])
    }

    @Test(
        "mistakes are refused with a message that says what to do",
        arguments: [
            (["--bogus"], "unknown option --bogus for pushbox demo; see pushbox demo --help"),
            (["--jsno"], "unknown option --jsno for pushbox demo; did you mean --json?; see pushbox demo --help"),
            (["--cuont=3"], "unknown option --cuont for pushbox demo; did you mean --count?; see pushbox demo --help"),
            (["--app"], "--app needs a value (DIR)"),
            (["--app", "a", "--app", "b"], "--app may be given only once"),
            (["--json=yes"], "--json takes no value"),
        ])
    func refuses(args: [String], message: String) {
        #expect { try parseArguments(args, spec: spec) } throws: { ($0 as! UsageError).message == message }
    }

    @Test("a mistyped word gets the nearest known one, and a word near none gets no guess")
    func spelling() {
        let options = ["--lang", "--app", "--json", "--golden", "--record"]
        #expect(Spelling.nearest("--lnag", among: options) == "--lang")  // two letters swapped
        #expect(Spelling.nearest("--goldn", among: options) == "--golden")
        #expect(Spelling.nearest("--LANG", among: options) == "--lang")
        #expect(Spelling.nearest("--zzzz", among: options) == nil)
        #expect(Spelling.nearest("--lang", among: options) == nil)  // nothing to correct
        #expect(Spelling.nearest("rendr", among: ["render", "send", "serve"]) == "render")
        #expect(Spelling.nearest("xy", among: ["send", "list"]) == nil)
        #expect(Spelling.distance(Array("ca"), Array("ac")) == 1)
        #expect(Spelling.distance(Array("kitten"), Array("sitting")) == 3)
    }

    @Test("numbers are checked where they are declared: whole or not, the range, and the option named in the message")
    func numbers() throws {
        let p = try parseArguments(["--count", "3", "--ratio", "0.5"], spec: spec)
        #expect(try p.wholeNumber(Self.count, minimum: 1) == 3)
        #expect(try p.number(Self.ratio, in: 0...1) == 0.5)
        #expect(try p.wholeNumber(Self.app) == nil)  // not given
        let bad = try parseArguments(["--count", "0", "--ratio", "2"], spec: spec)
        #expect { try bad.wholeNumber(Self.count, minimum: 1) } throws: { "\($0)" == "--count: expected a whole number of at least 1, got 0" }
        #expect { try bad.number(Self.ratio, in: 0...1) } throws: { "\($0)" == "--ratio: expected a number from 0 to 1, got 2" }
        let words = try parseArguments(["--count", "three"], spec: spec)
        #expect { try words.wholeNumber(Self.count) } throws: { "\($0)" == "--count: expected a whole number 0 or more, got three" }
    }

    @Test("every option is declared once, in Options.swift: no command declares one of its own")
    func declaredOnce() throws {
        let folder = ProjectPaths.projectRoot + "/Sources/PushboxCLI"
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 20)
        for file in files where file != "Options.swift" {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            #expect(!text.contains("OptionSpec(\""), "\(file) declares an option; declare it in Options.swift")
        }
        // Declared once, so one name has one kind everywhere it is listed.
        var kinds: [String: Bool] = [:]
        for option in Pushbox.commands.flatMap(\.options) + Pushbox.root.options {
            #expect(kinds[option.name].map { $0 == (option.value != nil) } ?? true, "\(option.name)")
            kinds[option.name] = option.value != nil
        }
    }

    @Test("help is generated from the table: every option and its placeholder")
    func help() {
        let text = spec.help()
        #expect(text.hasPrefix("Usage: pushbox demo [--json] [--app DIR] [--header NAME:VALUE]… [--count N] [--ratio X] [--help] FILE…"))
        for option in spec.options { #expect(text.contains(option.help)) }
        #expect(text.contains("(repeatable)"))
    }

    @Test("every command answers --help and lists itself in pushbox --help")
    func commandHelp() {
        let root = CLIRun(["--help"])
        #expect(root.status == 0)
        for command in Pushbox.commands {
            #expect(root.out.contains(command.name))
            let run = CLIRun([command.name, "--help"])
            #expect(run.status == 0)
            #expect(run.out.contains("Usage: pushbox \(command.name)"))
            #expect(CLIRun(["help", command.name]).out == run.out)
        }
    }

    @Test("unknown commands and stray operands fail with exit 2 and a hint")
    func unknown() {
        let run = CLIRun(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.err.contains("unknown command frobnicate; see pushbox --help"))
        #expect(CLIRun(["file.json"]).err.contains("pushbox render FILE"))
        let typo = CLIRun(["rendr", "x.json"])
        #expect(typo.status == 2 && typo.err.contains("unknown command rendr; did you mean render?"), "\(typo.err)")
        let option = CLIRun(["render", "--lnag", "ko", "x.json"])
        #expect(option.status == 2 && option.err.contains("unknown option --lnag for pushbox render; did you mean --lang?"), "\(option.err)")
    }
}
