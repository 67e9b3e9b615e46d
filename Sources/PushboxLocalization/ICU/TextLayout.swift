import CICUWrap
import PushboxJSON
import PushboxSystem

/// Where a line may break and how a right-to-left line reads on screen, from ICU: UAX #14 line
/// breaking for the device's language (no line begins with closing punctuation or a small kana;
/// Thai and Lao at dictionary word boundaries; Korean between words, as iOS breaks Hangul, with
/// ICU's `lw=keepall`), and the Unicode Bidirectional Algorithm (UAX #9) for visual order.
public enum TextLayout {
    /// The ICU locale whose line breaking matches the phone's for `language` (a BCP 47 tag).
    /// Japanese and Chinese break strictly (no line begins with a small kana or a prolonged
    /// sound mark, as iOS sets them); Korean keeps words whole.
    public static func lineBreakLocale(_ language: String?) -> String {
        guard let language, !language.isEmpty else { return "" }
        let tag = String(language.map { $0 == "-" ? "_" : $0 })
        let lower = tag.lowercased()
        if lower.hasPrefix("ko") { return tag + "@lw=keepall" }
        if lower.hasPrefix("ja") || lower.hasPrefix("zh") { return tag + "@lb=strict" }
        return tag
    }

    /// Break opportunities already found, by locale and text (the card wraps the same text
    /// every frame); emptied when it holds 4,096.
    private static let cache = Locked<[String: [Int]]>([:])

    /// The offsets (in Characters) after which `text` may break into a new line; the last is
    /// the text's end. Every break is at a grapheme cluster boundary.
    public static func lineBreaks(_ text: String, language: String?) -> [Int] {
        let locale = lineBreakLocale(language)
        let key = locale + "\u{0}" + text
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let found = findLineBreaks(text, locale: locale)
        cache.withLock { table in
            if table.count >= 4096 { table.removeAll(keepingCapacity: true) }
            table[key] = found
        }
        return found
    }

    private static func findLineBreaks(_ text: String, locale: String) -> [Int] {
        let units = Array(text.utf16)
        guard !units.isEmpty else { return [] }
        var breaks = [Int32](repeating: 0, count: units.count + 1)
        let n = pb_line_breaks(units, Int32(units.count), locale, &breaks, Int32(breaks.count))
        guard n > 0 else { return [text.count] }
        // UTF-16 offsets to Character offsets; a break inside a cluster moves to its end.
        var out: [Int] = []
        var index = text.startIndex
        var characters = 0
        var utf16 = 0
        for b in breaks.prefix(Int(n)).map(Int.init) {
            while utf16 < b, index < text.endIndex {
                utf16 += text[index].utf16.count
                index = text.index(after: index)
                characters += 1
            }
            if out.last != characters { out.append(characters) }
        }
        if out.last != text.count { out.append(text.count) }
        return out
    }

    /// Whether a paragraph reads right to left: its first strong character is (Arabic, Hebrew, …).
    public static func isRightToLeft(_ text: String) -> Bool {
        // Text without a right-to-left letter cannot begin with one (most text: no ICU call).
        guard text.unicodeScalars.contains(where: isStrongRightToLeft) else { return false }
        let units = Array(text.utf16)
        return !units.isEmpty && pb_base_direction(units, Int32(units.count)) == 1
    }

    /// One line in visual order (left to right on screen) by the bidirectional algorithm, in a
    /// paragraph that reads right to left or not; brackets mirrored. Text with no right-to-left
    /// letter comes back as it is.
    public static func visualOrder(_ line: String, rightToLeft: Bool) -> String {
        guard rightToLeft || line.unicodeScalars.contains(where: { isStrongRightToLeft($0) }) else { return line }
        let units = Array(line.utf16)
        var out = [UInt16](repeating: 0, count: units.count * 2 + 8)
        let n = pb_bidi_visual(units, Int32(units.count), rightToLeft ? 1 : 0, &out, Int32(out.count))
        guard n >= 0 else { return line }
        return String(decoding: out.prefix(Int(n)), as: UTF16.self)
    }

    /// Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms.
    static func isStrongRightToLeft(_ s: Unicode.Scalar) -> Bool {
        (0x0590...0x08FF).contains(s.value) || (0xFB1D...0xFDFF).contains(s.value) || (0xFE70...0xFEFF).contains(s.value)
            || (0x10800...0x10FFF).contains(s.value) || (0x1E800...0x1EFFF).contains(s.value)
    }

    /// Wraps text into lines of at most `width` columns where the phone would break them: at
    /// UAX #14's opportunities for `language`, a word longer than a line cut at a grapheme
    /// cluster boundary; newlines end paragraphs. The text is shown as it is: clean it first.
    /// Linear in the text's length: each character's width is read once, however long a word
    /// without a break opportunity is (a token, a URL, a hostile localization).
    public static func wrap(_ text: String, width: Int, language: String? = nil) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let characters = Array(paragraph)
            var line = ""
            var lineWidth = 0
            var start = 0
            for end in TextLayout.lineBreaks(String(paragraph), language: language) where end > start {
                let widths = characters[start..<end].map(DisplayWidth.of)
                var from = start
                start = end
                var remaining = widths.reduce(0, +)
                let trailing = characters[from..<end].reversed().prefix { $0 == " " }.count
                if lineWidth + remaining - trailing <= width {
                    line += String(characters[from..<end])
                    lineWidth += remaining
                    continue
                }
                if !line.isEmpty {
                    lines.append(trimmingTrailingSpaces(line))
                    (line, lineWidth) = ("", 0)
                }
                // A segment wider than a line: cut at cluster boundaries, walking it once.
                var next = 0  // into `widths`
                while remaining - min(trailing, end - from) > width {
                    var head = 0
                    var headWidth = 0
                    while next + head < widths.count {
                        let w = widths[next + head]
                        if headWidth + w > width && head > 0 { break }
                        head += 1
                        headWidth += w
                    }
                    lines.append(String(characters[from..<from + head]))
                    from += head
                    next += head
                    remaining -= headWidth
                }
                line = String(characters[from..<end])
                lineWidth = remaining
            }
            lines.append(trimmingTrailingSpaces(line))
        }
        return lines
    }

    static func trimmingTrailingSpaces(_ s: String) -> String {
        var t = Substring(s)
        while t.last == " " { t.removeLast() }
        return String(t)
    }
}
