import Foundation
import PushboxJSON

/// Fills a format string with string arguments (loc-args are always strings), the way a
/// device would where that is defined, and readably with a warning where it is not: missing
/// arguments, indexes past 127, mixed positional and sequential forms, skipped arguments,
/// `%d` or `%s` given a string, `%n`. Never reads past the argument list; arguments are
/// inserted verbatim.
public struct FormatRenderer: Sendable {
    /// The locale's number formatter, for integer and float conversions given numeric strings.
    public var numbers: NumberFormatterICU?

    /// A renderer writing numbers for a locale (nil: plain digits).
    public init(numbers: NumberFormatterICU? = nil) {
        self.numbers = numbers
    }

    /// The highest `%n$` position accepted.
    public static let maxPosition = 127

    /// `format` filled with `args` as String(format:) on a device fills it; what it met goes to
    /// `warnings`, each with its code (the localizer adds the key and language).
    public func render(_ format: String, _ args: [String], warnings: inout [Diagnostic]) -> String {
        render(ParsedFormat(format), args, warnings: &warnings)
    }

    /// A parsed format filled with `args`.
    public func render(_ parsed: ParsedFormat, _ args: [String], warnings: inout [Diagnostic]) -> String {
        var out = ""
        out.reserveCapacity(64)
        var sequential = 0
        var sawPositional = false
        var sawSequential = false
        // Arguments read, as a bit set over indexes 1...128.
        var usedLow: UInt64 = 0
        var usedHigh: UInt64 = 0
        var notes: [Diagnostic] = []

        for segment in parsed.segments {
            switch segment {
            case .literal(let text):
                out += text
            case .invalid(let text):
                out += text
                Self.note(&notes, .invalidSpecifier, "\"\(text)\" is not a format specifier; shown as written")
            case .specifier(let spec):
                switch spec.conversion {
                case "%":
                    out += "%"
                    continue
                case "n":
                    out += spec.text
                    Self.note(&notes, .writesMemory, "\(spec.text) writes to memory on a device and is never rendered; shown as written")
                    continue
                default:
                    break
                }
                var width: Int?
                var precision: Int?
                if spec.width != .none { width = size(spec.width, spec.text, args, &sequential, &usedLow, &usedHigh, &notes) }
                if spec.precision != .none { precision = size(spec.precision, spec.text, args, &sequential, &usedLow, &usedHigh, &notes) }
                let index: Int
                if let p = spec.position {
                    index = p
                    sawPositional = true
                } else {
                    sequential += 1
                    index = sequential
                    sawSequential = true
                }
                guard let arg = argument(index, spec.text, args, positional: spec.position != nil, &usedLow, &usedHigh, &notes) else {
                    out += spec.text
                    continue
                }
                if spec.conversion == "@" && spec.flags.isEmpty && width == nil && precision == nil {
                    out += arg  // the common case: %@ and %n$@
                    continue
                }
                if spec.flags.contains(.space), spec.conversion == "@" {
                    Self.note(&notes, .spaceFlag, "\(spec.text) has a space flag (a typo for %@?); the device fills it like %@")
                }
                out += pad(convert(spec, arg, precision: precision, note: { Self.note(&notes, $0, $1) }), spec: spec, width: width)
            }
        }
        // Only a positional format can mix forms or skip one, and one that reads every position
        // up to its highest without a sequential form does neither: that case builds no set.
        if sawPositional {
            let highest = usedHigh != 0 ? 128 - usedHigh.leadingZeroBitCount : 64 - usedLow.leadingZeroBitCount
            if sawSequential || usedLow.nonzeroBitCount + usedHigh.nonzeroBitCount < highest {
                let used = Set((1...max(1, highest)).filter { Self.isUsed($0, usedLow, usedHigh) })
                for d in ArgumentUse(positional: true, sequential: sawSequential, used: used).diagnostics { Self.note(&notes, d.code, d.message) }
            }
        }
        if !notes.isEmpty { warnings += notes }
        return out
    }

    private static func note(_ notes: inout [Diagnostic], _ code: Diagnostic.Code, _ message: String) {
        if !notes.contains(where: { $0.message == message }) { notes.append(Diagnostic(code, message)) }
    }

    private static func isUsed(_ index: Int, _ low: UInt64, _ high: UInt64) -> Bool {
        index <= 64 ? low & (1 << UInt64(index - 1)) != 0 : high & (1 << UInt64(index - 65)) != 0
    }

    /// The argument for a 1-based index, or nil (with a warning) when it is not there.
    private func argument(
        _ index: Int, _ spec: String, _ args: [String], positional: Bool,
        _ usedLow: inout UInt64, _ usedHigh: inout UInt64, _ notes: inout [Diagnostic]
    ) -> String? {
        guard index >= 1, !positional || index <= Self.maxPosition else {
            Self.note(&notes, .argumentIndexOutOfRange, "\(spec): argument index \(index) is outside 1…\(Self.maxPosition); shown as written")
            return nil
        }
        guard index <= args.count else {
            Self.note(
                &notes, .missingArgument,
                "\(spec) needs argument \(index) but only \(args.count) \(args.count == 1 ? "was" : "were") given; shown as written")
            return nil
        }
        if index <= 64 { usedLow |= 1 << UInt64(index - 1) } else if index <= 128 { usedHigh |= 1 << UInt64(index - 65) }
        return args[index - 1]
    }

    private func size(
        _ s: FormatSpecifier.Size, _ spec: String, _ args: [String], _ sequential: inout Int,
        _ usedLow: inout UInt64, _ usedHigh: inout UInt64, _ notes: inout [Diagnostic]
    ) -> Int? {
        let index: Int
        switch s {
        case .none: return nil
        case .fixed(let n): return n
        case .nextArgument:
            sequential += 1
            index = sequential
        case .argument(let n): index = n
        }
        return argument(index, spec, args, positional: s != .nextArgument, &usedLow, &usedHigh, &notes)
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The text of one conversion of a string argument.
    private func convert(_ spec: FormatSpecifier, _ arg: String, precision: Int?, note: (Diagnostic.Code, String) -> Void) -> String {
        switch spec.conversion {
        case "@":
            if let p = precision { return String(arg.prefix(p)) }
            return arg
        case "s", "S":
            note(
                .cStringSpecifier,
                "\(spec.text) expects a C string but loc-args are strings objects: shown as the string (unconfirmed on a device; use %@)")
            if let p = precision { return String(arg.prefix(p)) }
            return arg
        case "c", "C":
            note(.characterSpecifier, "\(spec.text) expects a character code; shown as the argument's first character")
            return arg.first.map(String.init) ?? ""
        case "p":
            note(.pointerSpecifier, "\(spec.text) prints a pointer on a device; shown as the argument")
            return arg
        default:
            let trimmed = arg.trimmingCharacters(in: .whitespaces)
            guard let number = Double(trimmed) else {
                note(
                    .notANumber,
                    "\(spec.text) expects a number but the argument is \"\(arg.count > 30 ? String(arg.prefix(27)) + "…" : arg)\": shown as the string"
                )
                return arg
            }
            if spec.isInteger {
                if number.isFinite, number != number.rounded(.towardZero), !"xXoO".contains(spec.conversion) {
                    // A count such as "1.5": its plural form was chosen from 1.5, so it is shown as
                    // 1.5 in the locale's digits, not cut to 1 beside the wrong form (what a device
                    // prints for %ld given a string object is undefined; use %@ for decimals).
                    note(
                        .decimalForInteger,
                        "\(spec.text) is an integer specifier but the argument is \(trimmed): shown as the decimal \(trimmed); use %@ for decimal counts"
                    )
                    if let decimal = numbers?.format(decimal: trimmed) { return decimal }
                    return trimmed
                }
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
            if spec.flags.contains(.hash), n != 0 { digits = (radix == 16 ? (spec.conversion == "X" ? "0X" : "0x") : "0") + digits }
            return digits
        default:
            let plain = precision == nil && spec.flags.isDisjoint(with: [.zero, .plus, .space])
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
        if spec.flags.contains(.plus) { return "+" }
        if spec.flags.contains(.space) { return " " }
        return ""
    }

    /// Applies the width: spaces before, after (`-`), or zeros after the sign (`0`, numbers only).
    private func pad(_ text: String, spec: FormatSpecifier, width: Int?) -> String {
        guard let width, width > text.count, width <= 1024 else { return text }
        let fill = width - text.count
        if spec.flags.contains(.minus) { return text + String(repeating: " ", count: fill) }
        if spec.flags.contains(.zero), spec.isInteger || spec.isFloat {
            var t = text
            let signChar = t.first.flatMap { "+- ".contains($0) ? $0 : nil }
            if signChar != nil { t.removeFirst() }
            return (signChar.map(String.init) ?? "") + String(repeating: "0", count: fill) + t
        }
        return String(repeating: " ", count: fill) + text
    }
}
