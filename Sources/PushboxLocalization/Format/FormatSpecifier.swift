/// One conversion in a format string, as CFString.c reads it:
/// `%` [index `$`] [flags `-+ #0'`] [width: digits, `*` or `*n$`] [`.` precision] [length] conversion,
/// plus `.stringsdict`'s variable reference `%#@name@` (optionally `%n$#@name@`).
public struct FormatSpecifier: Sendable, Equatable {
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
    public var flags: Set<Character> = []
    public var width: Size = .none
    public var precision: Size = .none
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
    public static let integerConversions: Set<Character> = ["d", "i", "D", "u", "U", "o", "O", "x", "X"]
    public static let floatConversions: Set<Character> = ["f", "F", "e", "E", "g", "G", "a", "A"]
    public static let knownConversions: Set<Character> = integerConversions.union(floatConversions).union(["@", "c", "C", "s", "S", "p", "%", "n"])

    /// The family a translator must keep between languages (`%d` and `%ld` agree; `%@` and `%d` do not).
    public var family: String {
        if variable != nil { return "#@" }
        if Self.integerConversions.contains(conversion) { return "integer" }
        if Self.floatConversions.contains(conversion) { return "float" }
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
    public enum Segment: Sendable, Equatable {
        case literal(Substring)
        case specifier(FormatSpecifier)
        /// A `%` that starts no valid specifier (kept as written).
        case invalid(String)
    }

    public var segments: [Segment]

    public var specifiers: [FormatSpecifier] {
        segments.compactMap { if case .specifier(let s) = $0 { return s } else { return nil } }
    }

    /// Parses a format string; never fails: what is not a specifier stays literal.
    public init(_ format: String) {
        segments = []
        let scalars = Array(format.unicodeScalars)
        var literalStart = format.unicodeScalars.startIndex
        var scalarIndex = format.unicodeScalars.startIndex
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "%" else {
                i += 1
                scalarIndex = format.unicodeScalars.index(after: scalarIndex)
                continue
            }
            if literalStart < scalarIndex { segments.append(.literal(Substring(format.unicodeScalars[literalStart..<scalarIndex]))) }
            let (segment, consumed) = Self.parseSpecifier(scalars, at: i)
            segments.append(segment)
            for _ in 0..<consumed { scalarIndex = format.unicodeScalars.index(after: scalarIndex) }
            i += consumed
            literalStart = scalarIndex
        }
        if literalStart < format.unicodeScalars.endIndex {
            segments.append(.literal(Substring(format.unicodeScalars[literalStart...])))
        }
    }

    /// Reads one specifier starting at the `%`; returns it and how many scalars it spans.
    static func parseSpecifier(_ s: [Unicode.Scalar], at start: Int) -> (Segment, Int) {
        var i = start + 1
        func text() -> String { String(String.UnicodeScalarView(s[start..<min(i, s.count)])) }
        func number() -> Int? {
            var value = 0, digits = 0
            while i < s.count, s[i].value >= 0x30, s[i].value <= 0x39 {
                value = min(value * 10 + Int(s[i].value - 0x30), 1_000_000)
                i += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard i < s.count else { return (.invalid("%"), 1) }
        var spec = FormatSpecifier(conversion: "?", text: "")
        // Positional index: digits followed by '$'.
        let save = i
        if let n = number(), i < s.count, s[i] == "$" {
            spec.position = n
            i += 1
        } else {
            i = save
        }
        // Variable reference: #@name@
        if i + 1 < s.count, s[i] == "#", s[i + 1] == "@" {
            var j = i + 2
            var name = ""
            while j < s.count, s[j] != "@", name.unicodeScalars.count < 256 { name.unicodeScalars.append(s[j]); j += 1 }
            if j < s.count, s[j] == "@", !name.isEmpty {
                i = j + 1
                spec.conversion = "@"
                spec.variable = name
                spec.flags = ["#"]
                spec.text = text()
                return (.specifier(spec), i - start)
            }
        }
        while i < s.count, "-+ #0'".unicodeScalars.contains(s[i]) {
            spec.flags.insert(Character(s[i]))
            i += 1
        }
        func size() -> FormatSpecifier.Size {
            if i < s.count, s[i] == "*" {
                i += 1
                let save = i
                if let n = number(), i < s.count, s[i] == "$" { i += 1; return .argument(n) }
                i = save
                return .nextArgument
            }
            return number().map { .fixed($0) } ?? .none
        }
        spec.width = size()
        if i < s.count, s[i] == "." {
            i += 1
            spec.precision = size()
            if spec.precision == .none { spec.precision = .fixed(0) }
        }
        for candidate in ["hh", "ll", "h", "l", "q", "L", "t", "z", "j"] {
            let c = Array(candidate.unicodeScalars)
            if i + c.count <= s.count, Array(s[i..<i + c.count]) == c {
                spec.length = candidate
                i += c.count
                break
            }
        }
        guard i < s.count else { return (.invalid(text()), i - start) }
        let conversion = Character(s[i])
        i += 1
        guard FormatSpecifier.knownConversions.contains(conversion) else { return (.invalid(text()), i - start) }
        spec.conversion = conversion
        spec.text = text()
        return (.specifier(spec), i - start)
    }
}
