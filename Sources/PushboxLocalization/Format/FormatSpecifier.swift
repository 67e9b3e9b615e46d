/// The flags of a specifier: `-` `+` space `#` `0` `'`.
public struct FormatFlags: OptionSet, Sendable, Hashable {
    /// The flags as bits.
    public let rawValue: UInt8
    /// Flags from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `-`: left-justified.
    public static let minus = FormatFlags(rawValue: 1)
    /// `+`: always a sign.
    public static let plus = FormatFlags(rawValue: 2)
    /// ` `: a space where a plus sign would be.
    public static let space = FormatFlags(rawValue: 4)
    /// `#`: the alternate form.
    public static let hash = FormatFlags(rawValue: 8)
    /// `0`: padded with zeros.
    public static let zero = FormatFlags(rawValue: 16)
    /// `'`: grouped thousands.
    public static let apostrophe = FormatFlags(rawValue: 32)

    init?(byte: UInt8) {
        switch byte {
        case UInt8(ascii: "-"): self = .minus
        case UInt8(ascii: "+"): self = .plus
        case UInt8(ascii: " "): self = .space
        case UInt8(ascii: "#"): self = .hash
        case UInt8(ascii: "0"): self = .zero
        case UInt8(ascii: "'"): self = .apostrophe
        default: return nil
        }
    }
}

/// One conversion in a format string, as CFString.c reads it:
/// `%` [index `$`] [flags `-+ #0'`] [width: digits, `*` or `*n$`] [`.` precision] [length] conversion,
/// plus `.stringsdict`'s variable reference `%#@name@` (optionally `%n$#@name@`).
public struct FormatSpecifier: Sendable, Equatable {
    /// The length modifier (`l`, `ll`, `h`, …).
    public enum Size: Sendable, Equatable {
        case none
        case fixed(Int)
        /// `*`: taken from the next sequential argument.
        case nextArgument
        /// `*n$`: taken from argument n.
        case argument(Int)
    }

    /// The 1-based `n` of `%n$`, nil for a sequential specifier.
    public var position: Int?
    /// The flags given.
    public var flags: FormatFlags = []
    /// The minimum width (none, a number, or `*`).
    public var width: Size = .none
    /// The precision (none, a number, or `*`).
    public var precision: Size = .none
    /// The length modifier (`l`, `ll`, `h`, …), as written.
    public var length = ""
    /// The conversion character (`@`, `d`, `f`, …); `%` for `%%`.
    public var conversion: Character
    /// The variable's name for `%#@name@`.
    public var variable: String?
    /// The specifier's text exactly as written.
    public var text: String

    /// Whether the conversion takes an argument at all.
    public var takesArgument: Bool { conversion != "%" }

    /// Conversions CFString knows, by family.
    public var isInteger: Bool { Self.isIntegerConversion(conversion) }
    /// Whether the conversion is a floating-point one.
    public var isFloat: Bool { Self.isFloatConversion(conversion) }

    /// Whether `c` converts an integer (`d`, `u`, `x`, …).
    public static func isIntegerConversion(_ c: Character) -> Bool {
        switch c {
        case "d", "i", "D", "u", "U", "o", "O", "x", "X": return true
        default: return false
        }
    }

    /// Whether `c` converts a floating-point number (`f`, `e`, `g`, …).
    public static func isFloatConversion(_ c: Character) -> Bool {
        switch c {
        case "f", "F", "e", "E", "g", "G", "a", "A": return true
        default: return false
        }
    }

    static func isKnownConversion(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "D"), UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "o"),
            UInt8(ascii: "O"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"),
            UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"), UInt8(ascii: "@"),
            UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "p"), UInt8(ascii: "%"),
            UInt8(ascii: "n"):
            return true
        default:
            return false
        }
    }

    /// The family a translator must keep between languages (`%d` and `%ld` agree; `%@` and `%d` do not).
    public var family: String {
        if variable != nil { return "#@" }
        if isInteger { return "integer" }
        if isFloat { return "float" }
        switch conversion {
        case "@": return "object"
        case "s", "S": return "C string"
        case "c", "C": return "character"
        default: return String(conversion)
        }
    }
}

/// A format string cut into literal text and specifiers.
public struct ParsedFormat: Sendable, Equatable {
    /// A piece of a format: literal text or a specifier.
    public enum Segment: Sendable, Equatable {
        case literal(Substring)
        case specifier(FormatSpecifier)
        /// A `%` that starts no valid specifier (kept as written).
        case invalid(String)
    }

    /// Literal text and specifiers, in order.
    public var segments: [Segment]

    /// The specifiers alone, in order.
    public var specifiers: [FormatSpecifier] {
        segments.compactMap { if case .specifier(let s) = $0 { return s } else { return nil } }
    }

    /// Parses a format string; never fails: what is not a specifier stays literal.
    /// Works on UTF-8 bytes: every specifier character is ASCII.
    public init(_ format: String) {
        var segments: [Segment] = []
        let utf8 = format.utf8
        var copy = format
        copy.withUTF8 { s in
            let n = s.count
            var literalStart = 0
            var i = 0
            func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
            while i < n {
                guard s[i] == UInt8(ascii: "%") else {
                    i += 1
                    continue
                }
                if literalStart < i { segments.append(.literal(format[index(literalStart)..<index(i)])) }
                let (segment, end) = Self.parseSpecifier(s, at: i)
                segments.append(segment)
                i = end
                literalStart = end
            }
            if literalStart < n { segments.append(.literal(format[index(literalStart)...])) }
        }
        self.segments = segments
    }

    /// Reads one specifier starting at the `%`; returns it and the offset just after it.
    // Long on purpose: the specifier grammar in order (position, flags, width, precision, length, conversion), as CFString reads it.
    static func parseSpecifier(_ s: UnsafeBufferPointer<UInt8>, at start: Int) -> (Segment, Int) {
        let n = s.count
        var i = start + 1
        func text() -> String { String(decoding: UnsafeBufferPointer(rebasing: s[start..<min(i, n)]), as: UTF8.self) }
        func number() -> Int? {
            var value = 0
            var digits = 0
            while i < n, s[i] >= 0x30, s[i] <= 0x39 {
                value = min(value * 10 + Int(s[i] - 0x30), 1_000_000)
                i += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard i < n else { return (.invalid("%"), n) }
        var spec = FormatSpecifier(conversion: "?", text: "")
        let save = i
        if let p = number(), i < n, s[i] == UInt8(ascii: "$") {
            spec.position = p
            i += 1
        } else {
            i = save
        }
        // Variable reference: #@name@
        if i + 1 < n, s[i] == UInt8(ascii: "#"), s[i + 1] == UInt8(ascii: "@") {
            var j = i + 2
            while j < n, s[j] != UInt8(ascii: "@"), j - i < 258 { j += 1 }
            if j < n, s[j] == UInt8(ascii: "@"), j > i + 2 {
                spec.variable = String(decoding: UnsafeBufferPointer(rebasing: s[(i + 2)..<j]), as: UTF8.self)
                i = j + 1
                spec.conversion = "@"
                spec.flags = .hash
                spec.text = text()
                return (.specifier(spec), i)
            }
        }
        while i < n, let flag = FormatFlags(byte: s[i]) {
            spec.flags.insert(flag)
            i += 1
        }
        func size() -> FormatSpecifier.Size {
            if i < n, s[i] == UInt8(ascii: "*") {
                i += 1
                let save = i
                if let p = number(), i < n, s[i] == UInt8(ascii: "$") {
                    i += 1
                    return .argument(p)
                }
                i = save
                return .nextArgument
            }
            return number().map { .fixed($0) } ?? .none
        }
        spec.width = size()
        if i < n, s[i] == UInt8(ascii: ".") {
            i += 1
            spec.precision = size()
            if spec.precision == .none { spec.precision = .fixed(0) }
        }
        if i < n {
            switch s[i] {
            case UInt8(ascii: "h"), UInt8(ascii: "l"):
                let c = s[i]
                i += 1
                if i < n, s[i] == c {
                    i += 1
                    spec.length = c == UInt8(ascii: "h") ? "hh" : "ll"
                } else {
                    spec.length = c == UInt8(ascii: "h") ? "h" : "l"
                }
            case UInt8(ascii: "q"), UInt8(ascii: "L"), UInt8(ascii: "t"), UInt8(ascii: "z"), UInt8(ascii: "j"):
                spec.length = String(UnicodeScalar(s[i]))
                i += 1
            default:
                break
            }
        }
        guard i < n else { return (.invalid(text()), i) }
        let c = s[i]
        i += 1
        guard FormatSpecifier.isKnownConversion(c) else { return (.invalid(text()), i) }
        spec.conversion = Character(Unicode.Scalar(c))
        spec.text = c == UInt8(ascii: "@") && i - start == 2 ? "%@" : text()
        return (.specifier(spec), i)
    }
}
