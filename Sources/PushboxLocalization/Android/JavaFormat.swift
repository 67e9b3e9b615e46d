import Foundation

/// `String.format(locale, format, args…)` as `java.util.Formatter` does it for string arguments —
/// what an Android app's `Resources.getString(id, args)` does with an FCM message's loc args,
/// which all arrive as strings. A specifier that cannot take a string throws as Java throws.
public enum JavaFormat {
    /// A Java exception `String.format` throws: its class's simple name and `getMessage()`.
    public struct Exception: Error, Sendable, Equatable, CustomStringConvertible {
        /// `IllegalFormatConversionException`, `MissingFormatArgumentException`, …
        public var name: String
        /// What Java's `getMessage()` says.
        public var message: String
        /// `java.util.IllegalFormatConversionException: d != java.lang.String`.
        public var description: String { "java.util.\(name): \(message)" }
        /// Whether the FCM SDK catches it (it catches only a missing argument, and shows no text).
        public var caughtByFCM: Bool { name == "MissingFormatArgumentException" }
    }

    /// One specifier: `%[index$][flags][width][.precision]conversion`.
    struct Specifier {
        var index: Int?  // explicit n$
        var previous = false  // <
        var flags: String
        var width: Int?
        var precision: Int?
        var conversion: Character
        var uppercase: Bool
        var text: String
        /// The `Y` of `%tY`: Java's message names it.
        var dateSuffix: Character? = nil
    }

    /// `format` with `args` (strings), in `locale` (for `%S`).
    public static func format(_ format: String, _ args: [String], locale: Locale = Locale(identifier: "en_US")) -> Result<String, Exception> {
        var out = ""
        var ordinary = 0
        var last = -1
        let chars = Array(format)
        var i = 0
        while i < chars.count {
            guard chars[i] == "%" else {
                out.append(chars[i])
                i += 1
                continue
            }
            let spec: Specifier
            switch parse(chars, at: i) {
            case .failure(let e): return .failure(e)
            case .success(let (s, next)):
                spec = s
                i = next
            }
            switch spec.conversion {
            case "%":
                if spec.precision != nil { return .failure(Exception(name: "IllegalFormatPrecisionException", message: String(spec.precision!))) }
                if let bad = spec.flags.first(where: { $0 != "-" }) {
                    return .failure(Exception(name: "IllegalFormatFlagsException", message: "Flags = '\(bad)'"))
                }
                if spec.flags.contains("-"), spec.width == nil { return .failure(Exception(name: "MissingFormatWidthException", message: spec.text)) }
                out += pad("%", spec)
                continue
            case "n":
                if spec.width != nil { return .failure(Exception(name: "IllegalFormatWidthException", message: String(spec.width!))) }
                if spec.precision != nil { return .failure(Exception(name: "IllegalFormatPrecisionException", message: String(spec.precision!))) }
                if !spec.flags.isEmpty { return .failure(Exception(name: "IllegalFormatFlagsException", message: "Flags = '\(spec.flags)'")) }
                out += "\n"
                continue
            default: break
            }
            // The argument: explicit, the previous one, or the next ordinary one.
            let index: Int
            if spec.previous {
                index = last
            } else if let n = spec.index {
                index = n - 1
            } else {
                index = ordinary
                ordinary += 1
            }
            guard index >= 0, index < args.count else {
                return .failure(Exception(name: "MissingFormatArgumentException", message: "Format specifier '\(spec.text)'"))
            }
            last = index
            let arg = args[index]
            if spec.flags.contains("-"), spec.width == nil { return .failure(Exception(name: "MissingFormatWidthException", message: spec.text)) }
            switch spec.conversion {
            case "s", "b", "h":
                let allowed: Set<Character> = ["-"]
                if let bad = spec.flags.first(where: { !allowed.contains($0) }) {
                    return .failure(
                        Exception(name: "FormatFlagsConversionMismatchException", message: "Conversion = \(spec.conversion), Flags = \(bad)"))
                }
                var value: String
                switch spec.conversion {
                case "b": value = "true"  // any non-null argument that is not a Boolean
                case "h": value = String(UInt32(bitPattern: javaHashCode(arg)), radix: 16)
                default: value = arg
                }
                // Precision counts UTF-16 units, as Java's chars; a pair cut in two becomes U+FFFD.
                if let p = spec.precision, value.utf16.count > p { value = String(decoding: Array(value.utf16.prefix(p)), as: UTF16.self) }
                if spec.uppercase { value = value.uppercased(with: locale) }
                out += pad(value, spec)
            case "c", "d", "o", "x", "e", "f", "g", "a", "t":
                if spec.conversion == "c" || spec.conversion == "d" || spec.conversion == "o" || spec.conversion == "x" {
                    if spec.precision != nil { return .failure(Exception(name: "IllegalFormatPrecisionException", message: String(spec.precision!))) }
                }
                let named = spec.dateSuffix ?? (spec.uppercase ? Character(spec.conversion.uppercased()) : spec.conversion)
                return .failure(Exception(name: "IllegalFormatConversionException", message: "\(named) != java.lang.String"))
            default:
                return .failure(
                    Exception(
                        name: "UnknownFormatConversionException",
                        message: "Conversion = '\(spec.uppercase ? Character(spec.conversion.uppercased()) : spec.conversion)'"))
            }
        }
        return .success(out)
    }

    /// Reads the specifier starting at the `%` at `start`.
    static func parse(_ chars: [Character], at start: Int) -> Result<(Specifier, Int), Exception> {
        var i = start + 1
        func digits() -> Int? {
            let from = i
            while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
            return i > from ? Int(String(chars[from..<i])) : nil
        }
        var index: Int?
        var previous = false
        // index$ (a number followed by $), else the digits are flags (0) and width.
        let save = i
        if let n = digits(), i < chars.count, chars[i] == "$" {
            index = n
            i += 1
        } else {
            i = save
        }
        if i < chars.count, chars[i] == "<" {
            previous = true
            i += 1
        }
        var flags = ""
        while i < chars.count, "-#+ 0,(".contains(chars[i]) {
            if flags.contains(chars[i]) { return .failure(Exception(name: "DuplicateFormatFlagsException", message: "Flags = '\(chars[i])'")) }
            flags.append(chars[i])
            i += 1
        }
        let width = digits()
        var precision: Int?
        if i < chars.count, chars[i] == "." {
            i += 1
            guard let p = digits() else {
                return .failure(Exception(name: "UnknownFormatConversionException", message: "Conversion = '.'"))
            }
            precision = p
        }
        guard i < chars.count else {
            return .failure(Exception(name: "UnknownFormatConversionException", message: "Conversion = '%'"))
        }
        var c = chars[i]
        var upper = false
        var dateSuffix: Character?
        if c == "t" || c == "T" {
            upper = c == "T"
            i += 1
            guard i < chars.count else { return .failure(Exception(name: "UnknownFormatConversionException", message: "Conversion = '\(c)'")) }
            dateSuffix = chars[i]
            c = "t"
        } else if "SBHCXEGAT".contains(c) {
            upper = true
            c = Character(c.lowercased())
        }
        i += 1
        let text = String(chars[start..<i])
        if index == 0 {
            return .failure(Exception(name: "IllegalFormatArgumentIndexException", message: "Illegal format argument index = 0"))
        }
        return .success(
            (
                Specifier(
                    index: index, previous: previous, flags: flags, width: width, precision: precision, conversion: c, uppercase: upper, text: text,
                    dateSuffix: dateSuffix), i
            ))
    }

    /// Android shows at most this many characters of a notification's text
    /// (`NotificationCompat.Builder.MAX_CHARSEQUENCE_LENGTH`): wider padding is never seen, and
    /// is not made (a `%100000000s` would otherwise allocate for ever).
    public static let maxShownLength = 5120

    static func pad(_ value: String, _ spec: Specifier) -> String {
        guard let asked = spec.width, value.utf16.count < asked else { return value }
        let width = min(asked, maxShownLength)
        guard value.utf16.count < width else { return value }
        let padding = String(repeating: " ", count: width - value.utf16.count)
        return spec.flags.contains("-") ? value + padding : padding + value
    }

    /// Java's `String.hashCode()`: s[0]·31^(n-1) + … over UTF-16 units, in 32 bits.
    static func javaHashCode(_ s: String) -> Int32 {
        var h: Int32 = 0
        for unit in s.utf16 { h = h &* 31 &+ Int32(unit) }
        return h
    }

    /// The arguments a Java format string consumes: position → conversion.
    public static func arguments(_ format: String) -> [Int: Character] {
        var out: [Int: Character] = [:]
        var ordinary = 0
        let chars = Array(format)
        var i = 0
        while i < chars.count {
            guard chars[i] == "%" else {
                i += 1
                continue
            }
            guard case .success(let (spec, next)) = parse(chars, at: i) else { break }
            i = next
            guard spec.conversion != "%" && spec.conversion != "n" else { continue }
            let position: Int
            if let n = spec.index {
                position = n
            } else if spec.previous {
                continue
            } else {
                ordinary += 1
                position = ordinary
            }
            out[position] = spec.conversion
        }
        return out
    }

    /// AAPT2's `VerifyJavaStringFormat`: false when a string has more than one non-positional
    /// substitution (`%s %d`), which translators cannot reorder.
    public static func verifiesNonPositional(_ text: String) -> Bool {
        // Two substitutions need two percent signs; nearly every string has fewer.
        var percents = 0
        for byte in text.utf8 where byte == UInt8(ascii: "%") { percents += 1 }
        if percents < 2 { return true }
        var count = 0
        var positional = false
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            if chars[i] == "%" {
                var j = i + 1
                var sawDollar = false
                while j < chars.count, !chars[j].isLetter, chars[j] != "%" {
                    if chars[j] == "$" { sawDollar = true }
                    j += 1
                }
                if j < chars.count, chars[j] != "%", chars[j] != "n" {
                    count += 1
                    if sawDollar { positional = true }
                }
                i = j + 1
                continue
            }
            i += 1
        }
        return !(count > 1 && !positional)
    }
}
