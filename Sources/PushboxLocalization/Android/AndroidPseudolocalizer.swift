/// The pseudo-locales AAPT2 generates from an app's default strings when the build enables
/// them (`pseudoLocalesEnabled`): `en-XA` (accented, expanded, bracketed) and `ar-XB` (every
/// word forced right to left), byte for byte as `Pseudolocalizer.cpp` (aosp tools/aapt2/compile)
/// makes them.
public enum AndroidPseudolocalizer {
    /// Which pseudo-locale.
    public enum Method: Sendable {
        case accent, bidi
    }

    static let expansion = Array(
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fiveteen sixteen seventeen nineteen twenty".utf8)
    static let rlm = Array("\u{200F}".utf8)
    static let rlo = Array("\u{202E}".utf8)
    static let pdf = Array("\u{202C}".utf8)
    static let placeholderOpen = Array("\u{00BB}".utf8)
    static let placeholderClose = Array("\u{00AB}".utf8)

    /// `text` in the pseudo-locale: `Start()`, `Text()` of each translatable stretch (the
    /// `untranslatable` byte ranges, `<xliff:g>` sections, copied as they are), `End()`.
    public static func localize(_ text: String, _ method: Method, untranslatable: [Range<Int>] = []) -> String {
        let bytes = Array(text.utf8)
        var state = State(method: method)
        var out = state.start()
        var position = 0
        for section in untranslatable where section.lowerBound >= position && section.upperBound <= bytes.count {
            out += state.text(Array(bytes[position..<section.lowerBound]))
            out += bytes[section]
            position = section.upperBound
        }
        out += state.text(Array(bytes[position...]))
        out += state.end()
        return String(decoding: out, as: UTF8.self)
    }

    struct State {
        let method: Method
        var depth = 0
        var wordCount = 0
        var length = 0
        var lastDepth = 0

        mutating func start() -> [UInt8] {
            guard method == .accent else { return [] }
            let result: [UInt8] = depth == 0 ? Array("[".utf8) : []
            wordCount = 0
            length = 0
            depth += 1
            return result
        }

        mutating func end() -> [UInt8] {
            guard method == .accent else { return [] }
            var result: [UInt8] = []
            if length > 0 {
                result += Array(" ".utf8)
                result += AndroidPseudolocalizer.generateExpansion(wordCount > 3 ? length : length / 2)
            }
            wordCount = 0
            length = 0
            depth -= 1
            if depth == 0 { result += Array("]".utf8) }
            return result
        }

        /// `Pseudolocalizer::Text`: ICU-style `{…}` arguments are placeholders, the rest is text.
        mutating func text(_ s: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            var depth = lastDepth
            var lastpos = 0
            var escaped = false
            var pos = 0
            while pos < s.count {
                defer { pos += 1 }
                let c = s[pos]
                if escaped {
                    escaped = false
                    continue
                }
                if c == UInt8(ascii: "'") {
                    escaped = true
                    continue
                }
                if c == UInt8(ascii: "{") {
                    depth += 1
                } else if c == UInt8(ascii: "}") && depth > 0 {
                    depth -= 1
                }
                if lastDepth != depth || pos == s.count - 1 {
                    let pseudo = lastDepth % 2 == 0
                    var nextpos = pos
                    if !pseudo || depth == lastDepth { nextpos += 1 }
                    if nextpos > lastpos {
                        var chunk = Array(s[lastpos..<nextpos])
                        if pseudo {
                            chunk = methodText(chunk)
                        } else if s[lastpos] == UInt8(ascii: "{") && s[nextpos - 1] == UInt8(ascii: "}") {
                            chunk = placeholder(chunk)
                        }
                        out += chunk
                    }
                    if pseudo && depth < lastDepth {
                        out += end()
                    } else if !pseudo && depth > lastDepth {
                        out += start()
                    }
                    lastpos = nextpos
                    lastDepth = depth
                }
            }
            return out
        }

        func placeholder(_ s: [UInt8]) -> [UInt8] {
            switch method {
            case .accent: return AndroidPseudolocalizer.placeholderOpen + s + AndroidPseudolocalizer.placeholderClose
            case .bidi: return AndroidPseudolocalizer.rlm + AndroidPseudolocalizer.rlo + s + AndroidPseudolocalizer.pdf + AndroidPseudolocalizer.rlm
            }
        }

        mutating func methodText(_ s: [UInt8]) -> [UInt8] {
            method == .accent ? accentText(s) : bidiText(s)
        }

        static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }

        mutating func accentText(_ s: [UInt8]) -> [UInt8] {
            var result: [UInt8] = []
            var lastspace = true
            var i = 0
            while i < s.count {
                var c = s[i]
                if c == UInt8(ascii: "%") {
                    // A format specifier is a placeholder, untouched.
                    var chunk = [c]
                    var done = false
                    while !done && i + 1 < s.count {
                        i += 1
                        c = s[i]
                        chunk.append(c)
                        if Self.endsSpecifier(c) {
                            done = true
                        } else if i + 1 < s.count && c == UInt8(ascii: "t") {
                            i += 1
                            c = s[i]
                            chunk.append(c)
                            done = true
                        }
                    }
                    result += c == UInt8(ascii: "%") ? chunk : placeholder(chunk)
                } else if c == UInt8(ascii: "<") || c == UInt8(ascii: "&") {
                    // Markup and entities are not text.
                    var closed = false
                    while !closed && i < s.count {
                        if c == UInt8(ascii: "&") {
                            var escape = [c]
                            var done = false
                            var p = i
                            while !done && p < s.count {
                                p += 1
                                c = p < s.count ? s[p] : 0
                                escape.append(c)
                                if c == UInt8(ascii: ";") {
                                    done = true
                                    i = p
                                } else if !(c == UInt8(ascii: "#") || (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A)
                                    || (c >= 0x30 && c <= 0x39))
                                {
                                    done = true
                                }
                            }
                            result += escape
                            if escape != Array("&lt;".utf8) { closed = true }
                            continue
                        }
                        if c == UInt8(ascii: ">") {
                            closed = true
                            result.append(c)
                            continue
                        }
                        result.append(c)
                        i += 1
                        c = i < s.count ? s[i] : 0
                    }
                } else {
                    if let p = Self.accented[c] {
                        result += p
                    } else {
                        let space = Self.isSpace(c)
                        if lastspace && !space { wordCount += 1 }
                        lastspace = space
                        result.append(c)
                    }
                    length += 1
                }
                i += 1
            }
            return result
        }

        func bidiText(_ s: [UInt8]) -> [UInt8] {
            var result: [UInt8] = []
            var lastspace = true
            var escape = false
            for c in s {
                if !escape && c == UInt8(ascii: "\\") {
                    escape = true
                    continue
                }
                let space = (!escape && Self.isSpace(c)) || (escape && (c == UInt8(ascii: "n") || c == UInt8(ascii: "t")))
                if lastspace && !space {
                    result += AndroidPseudolocalizer.rlm + AndroidPseudolocalizer.rlo
                } else if !lastspace && space {
                    result += AndroidPseudolocalizer.pdf + AndroidPseudolocalizer.rlm
                }
                lastspace = space
                if escape {
                    result.append(UInt8(ascii: "\\"))
                    escape = false
                }
                result.append(c)
            }
            if !lastspace { result += AndroidPseudolocalizer.pdf + AndroidPseudolocalizer.rlm }
            return result
        }

        static func endsSpecifier(_ c: UInt8) -> Bool { "sScCdoxXfeEgGaAbBhH%n".utf8.contains(c) }

        static let accented: [UInt8: [UInt8]] = {
            let pairs: [(Character, String)] = [
                ("a", "\u{00e5}"), ("b", "\u{0253}"), ("c", "\u{00e7}"), ("d", "\u{00f0}"), ("e", "\u{00e9}"), ("f", "\u{0192}"), ("g", "\u{011d}"),
                ("h", "\u{0125}"), ("i", "\u{00ee}"), ("j", "\u{0135}"), ("k", "\u{0137}"), ("l", "\u{013c}"), ("m", "\u{1e3f}"), ("n", "\u{00f1}"),
                ("o", "\u{00f6}"), ("p", "\u{00fe}"), ("q", "\u{0051}"), ("r", "\u{0155}"), ("s", "\u{0161}"), ("t", "\u{0163}"), ("u", "\u{00fb}"),
                ("v", "\u{0056}"), ("w", "\u{0175}"), ("x", "\u{0445}"), ("y", "\u{00fd}"), ("z", "\u{017e}"), ("A", "\u{00c5}"), ("B", "\u{03b2}"),
                ("C", "\u{00c7}"), ("D", "\u{00d0}"), ("E", "\u{00c9}"), ("G", "\u{011c}"), ("H", "\u{0124}"), ("I", "\u{00ce}"), ("J", "\u{0134}"),
                ("K", "\u{0136}"), ("L", "\u{013b}"), ("M", "\u{1e3e}"), ("N", "\u{00d1}"), ("O", "\u{00d6}"), ("P", "\u{00de}"), ("Q", "\u{0071}"),
                ("R", "\u{0154}"), ("S", "\u{0160}"), ("T", "\u{0162}"), ("U", "\u{00db}"), ("V", "\u{03bd}"), ("W", "\u{0174}"), ("X", "\u{00d7}"),
                ("Y", "\u{00dd}"), ("Z", "\u{017d}"), ("!", "\u{00a1}"), ("?", "\u{00bf}"), ("$", "\u{20ac}"),
            ]
            return Dictionary(uniqueKeysWithValues: pairs.map { (Array(String($0.0).utf8)[0], Array($0.1.utf8)) })
        }()
    }

    /// `PseudoGenerateExpansion`: whole words of the expansion text, about `length` bytes.
    static func generateExpansion(_ length: Int) -> [UInt8] {
        var result = expansion
        if result.count < length {
            result += Array(" ".utf8)
            result += generateExpansion(length - result.count)
        } else {
            var ext = 0
            var i = length + 1
            while i < result.count {
                ext += 1
                if result[i] == 0x20 { break }
                i += 1
            }
            result = Array(result.prefix(length + ext))
        }
        return result
    }
}
