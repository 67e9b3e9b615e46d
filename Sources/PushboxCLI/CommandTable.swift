/// One option of a command, as the parser and `--help` both read it.
public struct OptionSpec: Sendable {
    /// The option's name with its dashes.
    public var name: String
    /// The value's placeholder (`DIR`); nil for a flag.
    public var value: String?
    /// Whether it may be given more than once (`--watch A --watch B`).
    public var repeatable: Bool
    /// The `--help` line.
    public var help: String

    /// An option: its name, its value's placeholder (nil for a flag), whether it repeats, its help.
    public init(_ name: String, value: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.value = value
        self.repeatable = repeatable
        self.help = help
    }

    /// The same option with the help one command gives it (and, rarely, another placeholder).
    public func with(value: String? = nil, help: String) -> OptionSpec {
        OptionSpec(name, value: value ?? self.value, repeatable: repeatable, help: help)
    }
}

/// A subcommand: its name, what it does, its options and operands, and the code that runs it.
public struct CommandSpec: Sendable {
    /// The subcommand's name.
    public var name: String
    /// One line for `pushbox --help`.
    public var summary: String
    /// The operands, as `--help` shows them.
    public var operands: String
    /// Its options table (parsing, validation and help come from it).
    public var options: [OptionSpec]
    /// Runs the command; returns the exit status.
    public var run: @Sendable (ParsedArguments, inout CommandIO) -> Int32

    /// A subcommand from its table; `--help` is added to its options.
    public init(
        name: String, summary: String, operands: String = "", options: [OptionSpec],
        run: @escaping @Sendable (ParsedArguments, inout CommandIO) -> Int32
    ) {
        self.name = name
        self.summary = summary
        self.operands = operands
        self.options = options + [Options.help]
        self.run = run
    }

    /// The usage line and option table, generated from the spec.
    public func help(program: String = "pushbox") -> String {
        let opts = options.map { "[\($0.name)\($0.value.map { " " + $0 } ?? "")]\($0.repeatable ? "…" : "")" }
        var lines = [
            "Usage: \(program)\(name.isEmpty ? "" : " " + name) \(opts.joined(separator: " "))\(operands.isEmpty ? "" : " " + operands)", "", summary,
            "", "Options:",
        ]
        let labels = options.map { "  \($0.name)\($0.value.map { " " + $0 } ?? "")" }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, options) {
            lines.append(label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help + (option.repeatable ? " (repeatable)" : ""))
        }
        return lines.joined(separator: "\n")
    }
}

extension CommandSpec {
    /// A command that writes one new key file (its one operand), refusing to replace a file, and
    /// says what it wrote: `keygen`, `provider-key`.
    static func writingOneKey(
        name: String, summary: String, wrote what: String,
        write: @escaping @Sendable (String) throws -> Void
    ) -> CommandSpec {
        CommandSpec(name: name, summary: summary, operands: "FILE", options: []) { args, io in
            guard args.operands.count == 1 else {
                io.err("pushbox \(name): give exactly one file to write; see pushbox \(name) --help")
                return 2
            }
            do {
                try write(args.operands[0])
                io.out("wrote \(args.operands[0]) (\(what))")
                return 0
            } catch {
                io.err("pushbox \(name): \(error)")
                return 1
            }
        }
    }
}

/// What the parser found: flags, option values (in order) and operands. Options are read back
/// through their declarations (`Options`), never by a name typed again.
public struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    /// The operands given, in order.
    public var operands: [String] = []

    /// Whether the flag was given.
    public func flag(_ option: OptionSpec) -> Bool { flags.contains(option.name) }
    /// The option's value (the last one given).
    public func value(_ option: OptionSpec) -> String? { values[option.name]?.last }
    /// Every value of a repeatable option, in order.
    public func all(_ option: OptionSpec) -> [String] { values[option.name] ?? [] }

    /// Gives an option a value, as if it had been typed (a saved setting standing in for it).
    public mutating func set(_ option: OptionSpec, _ value: String) { values[option.name] = [value] }

    /// The option's value as a whole number of at least `minimum`; nil when not given.
    public func wholeNumber(_ option: OptionSpec, minimum: Int = 0) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let n = Int(text), n >= minimum else {
            throw UsageError(message: "\(option.name): expected a whole number \(minimum > 0 ? "of at least \(minimum)" : "0 or more"), got \(text)")
        }
        return n
    }

    /// The option's value as a number in `range`; nil when not given.
    public func number(_ option: OptionSpec, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let n = Double(text), range.contains(n) else {
            func plain(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
            throw UsageError(message: "\(option.name): expected a number from \(plain(range.lowerBound)) to \(plain(range.upperBound)), got \(text)")
        }
        return n
    }
}

/// A command line that does not fit the table.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the command line.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// Parses arguments against a spec: `--name VALUE`, `--name=VALUE`, flags, `--` ending options,
/// `-` as an operand (stdin).
public func parseArguments(_ args: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var i = 0
    var optionsEnded = false
    while i < args.count {
        let arg = args[i]
        i += 1
        if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
            parsed.operands.append(arg)
            continue
        }
        if arg == "--" {
            optionsEnded = true
            continue
        }
        var name = arg
        var inline: String?
        if let eq = arg.firstIndex(of: "=") {
            name = String(arg[..<eq])
            inline = String(arg[arg.index(after: eq)...])
        }
        if name == "-h" { name = "--help" }
        guard let option = spec.options.first(where: { $0.name == name }) else {
            let command = spec.name.isEmpty ? "pushbox" : "pushbox \(spec.name)"
            throw UsageError(
                message: "unknown option \(name) for \(command)\(Spelling.suggestion(name, among: spec.options.map(\.name))); see \(command) --help")
        }
        if let placeholder = option.value {
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count else { throw UsageError(message: "\(name) needs a value (\(placeholder))") }
                value = args[i]
                i += 1
            }
            if !option.repeatable, parsed.values[name] != nil {
                throw UsageError(message: "\(name) may be given only once")
            }
            parsed.values[name, default: []].append(value)
        } else {
            if inline != nil { throw UsageError(message: "\(name) takes no value") }
            parsed.flags.insert(name)
        }
    }
    return parsed
}
