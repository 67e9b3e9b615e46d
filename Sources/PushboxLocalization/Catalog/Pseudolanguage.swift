/// Xcode's pseudolanguages, usable as the device language: the development language's strings,
/// transformed to show what translation will do to a layout.
public enum Pseudolanguage: String, Sendable, CaseIterable {
    /// Letters with accents: checks clipping of ascenders and descenders.
    case accented
    /// Every string twice: checks room for longer languages.
    case doubleLength = "double-length"
    /// Every string in brackets: shows truncation and concatenation.
    case bounded
    /// Every string shown right to left.
    case rightToLeft = "right-to-left"

    /// The pseudolanguage named by `tag` (`accented`, `double`, …), if it is one.
    public init?(tag: String) {
        let t = tag.lowercased()
        if let p = Pseudolanguage(rawValue: t) {
            self = p
            return
        }
        if t == "rtl" {
            self = .rightToLeft
            return
        }
        return nil
    }

    static let accents: [Character: Character] = [
        "a": "à", "b": "ƀ", "c": "ç", "d": "ḓ", "e": "é", "f": "ƒ", "g": "ğ", "h": "ĥ", "i": "ï", "j": "ĵ", "k": "ķ", "l": "ļ", "m": "ḿ",
        "n": "ñ", "o": "ö", "p": "ƥ", "q": "ʠ", "r": "ř", "s": "š", "t": "ŧ", "u": "ü", "v": "ṽ", "w": "ŵ", "x": "ẋ", "y": "ÿ", "z": "ž",
        "A": "À", "B": "Ɓ", "C": "Ç", "D": "Ḓ", "E": "É", "F": "Ƒ", "G": "Ğ", "H": "Ĥ", "I": "Ï", "J": "Ĵ", "K": "Ķ", "L": "Ļ", "M": "Ḿ",
        "N": "Ñ", "O": "Ö", "P": "Ƥ", "Q": "Ǫ", "R": "Ř", "S": "Š", "T": "Ŧ", "U": "Ü", "V": "Ṽ", "W": "Ŵ", "X": "Ẋ", "Y": "Ÿ", "Z": "Ž",
    ]

    /// Transforms a format string before it is filled: only literal text changes, specifiers stay.
    public func transformFormat(_ format: String) -> String {
        guard self == .accented else { return format }
        var out = ""
        for segment in ParsedFormat(format).segments {
            switch segment {
            case .literal(let text): out += String(text.map { Self.accents[$0] ?? $0 })
            case .specifier(let spec): out += spec.text
            case .invalid(let text): out += text
            }
        }
        return out
    }

    /// Transforms the filled string.
    public func transformResult(_ text: String) -> String {
        switch self {
        case .accented: return text
        case .doubleLength: return text + " " + text
        case .bounded: return "[#" + text + "#]"
        case .rightToLeft: return String(text.reversed())
        }
    }
}
