import Testing
@testable import PushboxCLI

@Suite("Table-driven argument parsing")
struct ArgumentParserTests {
    let spec = CommandSpec(name: "demo", summary: "A demo.", operands: "FILE…", options: [
        OptionSpec("--json", help: "JSON."),
        OptionSpec("--app", value: "DIR", help: "App."),
        OptionSpec("--header", value: "NAME:VALUE", repeatable: true, help: "Header."),
    ], run: { _, _ in 0 })

    @Test("flags, values in both forms, repeats, operands and stdin")
    func parses() throws {
        let p = try parseArguments(["a.json", "--json", "--app", "X", "--header=a:1", "--header", "b:2", "-", "--", "--not-an-option"], spec: spec)
        #expect(p.flag("--json"))
        #expect(p.value("--app") == "X")
        #expect(p.all("--header") == ["a:1", "b:2"])
        #expect(p.operands == ["a.json", "-", "--not-an-option"])
    }

    @Test("mistakes are refused with a message that says what to do", arguments: [
        (["--bogus"], "unknown option --bogus for pushbox demo; see pushbox demo --help"),
        (["--app"], "--app needs a value (DIR)"),
        (["--app", "a", "--app", "b"], "--app may be given only once"),
        (["--json=yes"], "--json takes no value"),
    ])
    func refuses(args: [String], message: String) {
        #expect { try parseArguments(args, spec: spec) } throws: { ($0 as! UsageError).message == message }
    }

    @Test("help is generated from the table: every option and its placeholder")
    func help() {
        let text = spec.help()
        #expect(text.hasPrefix("Usage: pushbox demo [--json] [--app DIR] [--header NAME:VALUE]… [--help] FILE…"))
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
    }
}
