import Foundation

/// Fills a format string with string arguments (loc-args are always strings), the way a
/// device would where that is defined, and readably with a warning where it is not: missing
/// arguments, indexes past 127, mixed positional and sequential forms, skipped arguments,
/// `%d` or `%s` given a string, `%n`. Never reads past the argument list; arguments are
/// inserted verbatim.
public struct FormatRenderer: Sendable {
    /// The locale's number formatter, for integer and float conversions given numeric strings.
    public var numbers: NumberFormatterICU?

    public init(numbers: NumberFormatterICU? = nil) {
        self.numbers = numbers
    }

    public static let maxPosition = 127

    public func render(_ format: String, _ args: [String], warnings: inout [String]) -> String {
        render(ParsedFormat(format), args, warnings: &warnings)
    }

    public func render(_ parsed: ParsedFormat, _ args: [String], warnings: inout [String]) -> String {
        var out = ""
        var sequential = 0
        var sawPositional = false, sawSequential = false
        var used = Set<Int>()
        var notes: [String] = []
        func note(_ s: String) { if !notes.contains(s) { notes.append(s) } }

        /// The argument for a 1-based index, or nil (with a warning) when it is not there.
        func argument(_ index: Int, _ spec: String, positional: Bool = true) -> String? {
            guard index >= 1, !positional || index <= Self.maxPosition else {
                note("\(spec): argument index \(index) is outside 1…\(Self.maxPosition); shown as written")
                return nil
            }
            guard index <= args.count else {
                note("\(spec) needs argument \(index) but only \(args.count) \(args.count == 1 ? "was" : "were") given; shown as written")
                return nil
            }
            used.insert(index)
            return args[index - 1]
        }
        func size(_ s: FormatSpecifier.Size, _ spec: String) -> Int? {
            switch s {
            case .none: return nil
            case .fixed(let n): return n
            case .nextArgument:
                sequential += 1
                return argument(sequential, spec, positional: false).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            case .argument(let n): return argument(n, spec).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            }
        }

        for segment in parsed.segments {
            switch segment {
            case .literal(let text):
                out += text
            case .invalid(let text):
                out += text
                note("\"\(text)\" is not a format specifier; shown as written")
            case .specifier(let spec):
                if spec.conversion == "%" { out += "%"; continue }
                if spec.conversion == "n" {
                    out += spec.text
                    note("\(spec.text) writes to memory on a device and is never rendered; shown as written")
                    continue
                }
                let width = size(spec.width, spec.text)
                let precision = size(spec.precision, spec.text)
                let index: Int
                if let p = spec.position { index = p; sawPositional = true } else { sequential += 1; index = sequential; sawSequential = true }
                guard let arg = argument(index, spec.text, positional: spec.position != nil) else { out += spec.text; continue }
                if spec.flags.contains(" "), spec.conversion == "@" {
                    note("\(spec.text) has a space flag (a typo for %@?); the device fills it like %@")
                }
                out += pad(convert(spec, arg, precision: precision, note: note), spec: spec, width: width)
            }
        }
        if sawPositional && sawSequential {
            note("the format mixes positional (%n$) and sequential specifiers: undefined on a device")
        }
        if let highest = used.max(), used.count < highest, sawPositional {
            let skipped = (1...highest).filter { !used.contains($0) }.map(String.init).joined(separator: ", ")
            note("the format skips argument \(skipped): undefined on a device (it may crash or show garbage)")
        }
        warnings += notes
        return out
    }

    /// The text of one conversion of a string argument.
    private func convert(_ spec: FormatSpecifier, _ arg: String, precision: Int?, note: (String) -> Void) -> String {
        switch spec.conversion {
        case "@":
            if let p = precision { return String(arg.prefix(p)) }
            return arg
        case "s", "S":
            note("\(spec.text) expects a C string but loc-args are strings objects: shown as the string (unconfirmed on a device; use %@)")
            if let p = precision { return String(arg.prefix(p)) }
            return arg
        case "c", "C":
            note("\(spec.text) expects a character code; shown as the argument's first character")
            return arg.first.map(String.init) ?? ""
        case "p":
            note("\(spec.text) prints a pointer on a device; shown as the argument")
            return arg
        default:
            let trimmed = arg.trimmingCharacters(in: .whitespaces)
            guard let number = Double(trimmed) else {
                note("\(spec.text) expects a number but the argument is \"\(arg.count > 30 ? String(arg.prefix(27)) + "…" : arg)\": shown as the string")
                return arg
            }
            if FormatSpecifier.integerConversions.contains(spec.conversion) {
                return integer(spec, number, precision: precision)
            }
            return float(spec, number, precision: precision)
        }
    }

    private func integer(_ spec: FormatSpecifier, _ value: Double, precision: Int?) -> String {
        let clamped = value.isFinite ? max(min(value.rounded(.towardZero), 9.2e18), -9.2e18) : 0
        let n = Int64(clamped)
        switch spec.conversion {
        case "x", "X", "o", "O":
            let radix = spec.conversion == "o" || spec.conversion == "O" ? 8 : 16
            var digits = String(UInt64(bitPattern: n), radix: radix, uppercase: spec.conversion == "X")
            if let p = precision, digits.count < p { digits = String(repeating: "0", count: p - digits.count) + digits }
            if spec.flags.contains("#"), n != 0 { digits = (radix == 16 ? (spec.conversion == "X" ? "0X" : "0x") : "0") + digits }
            return digits
        default:
            let plain = precision == nil && !spec.flags.contains("0") && !spec.flags.contains("+") && !spec.flags.contains(" ")
            if plain, let localized = numbers?.format(Double(n)) { return localized }
            var digits = String(n.magnitude)
            if let p = precision, digits.count < p { digits = String(repeating: "0", count: p - digits.count) + digits }
            return sign(n < 0, spec) + digits
        }
    }

    private func float(_ spec: FormatSpecifier, _ value: Double, precision: Int?) -> String {
        let c = String(spec.conversion)
        let body = String(format: "%.\(precision ?? 6)\(c)", abs(value))
        return sign(value < 0 || (value == 0 && value.sign == .minus), spec) + body
    }

    private func sign(_ negative: Bool, _ spec: FormatSpecifier) -> String {
        if negative { return "-" }
        if spec.flags.contains("+") { return "+" }
        if spec.flags.contains(" ") { return " " }
        return ""
    }

    /// Applies the width: spaces before, after (`-`), or zeros after the sign (`0`, numbers only).
    private func pad(_ text: String, spec: FormatSpecifier, width: Int?) -> String {
        guard let width, width > text.count, width <= 1024 else { return text }
        let fill = width - text.count
        if spec.flags.contains("-") { return text + String(repeating: " ", count: fill) }
        let numeric = FormatSpecifier.integerConversions.contains(spec.conversion) || FormatSpecifier.floatConversions.contains(spec.conversion)
        if spec.flags.contains("0"), numeric {
            var t = text
            let signChar = t.first.flatMap { "+- ".contains($0) ? $0 : nil }
            if signChar != nil { t.removeFirst() }
            return (signChar.map(String.init) ?? "") + String(repeating: "0", count: fill) + t
        }
        return String(repeating: " ", count: fill) + text
    }
}
