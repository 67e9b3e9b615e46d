import Foundation
import PushboxLocalization
import PushboxUI
import Testing

@testable import PushboxTerminal

/// A terminal that reads pushbox's bytes: cursor moves, clears and attributes, and text laid
/// out code point by code point with its own idea of widths (`naive`: every emoji 2 columns,
/// ZWJ sequences not joined, as many terminals draw them), for checking where things land.
struct ModelTerminal {
    var grid: [[String]]
    var row = 0, column = 0
    let naive: Bool

    init(width: Int, height: Int, naive: Bool) {
        grid = Array(repeating: Array(repeating: " ", count: width), count: height)
        self.naive = naive
    }

    /// The columns this terminal gives a code point on its own.
    func width(_ s: Unicode.Scalar) -> Int {
        if [0x200D, 0xFE0F, 0xFE0E, 0x20E3].contains(s.value) || (0x1F3FB...0x1F3FF).contains(s.value) && !naive { return 0 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(s.value) { return 0 }
        if s.properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(s.value) || (0x1F3FB...0x1F3FF).contains(s.value) { return 2 }
        if (0x1100...0x115F).contains(s.value) || (0x2E80...0xA4CF).contains(s.value) || (0xAC00...0xD7A3).contains(s.value)
            || (0xFF00...0xFF60).contains(s.value) || (0x3000...0x303F).contains(s.value)
        {
            return 2
        }
        return 1
    }

    mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        var text: [UInt8] = []
        func flush(_ me: inout ModelTerminal) {
            for s in String(decoding: text, as: UTF8.self).unicodeScalars { me.put(s) }
            text.removeAll()
        }
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                flush(&self)
                var j = i + 2
                while j < bytes.count && !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                switch bytes[j] {
                case UInt8(ascii: "H"):
                    let parts = params.split(separator: ";").compactMap { Int($0) }
                    (row, column) = parts.count == 2 ? (parts[0] - 1, parts[1] - 1) : (0, 0)
                case UInt8(ascii: "J"):
                    grid = grid.map { $0.map { _ in " " } }
                default: break
                }
                i = j + 1
            } else {
                text.append(bytes[i])
                i += 1
            }
        }
        flush(&self)
    }

    mutating func put(_ s: Unicode.Scalar) {
        guard row < grid.count else { return }
        let w = width(s)
        if w == 0 {
            if column > 0 { grid[row][column - 1].unicodeScalars.append(s) }
            return
        }
        guard column < grid[row].count else { return }
        grid[row][column] = String(s)
        if w == 2 && column + 1 < grid[row].count { grid[row][column + 1] = "" }
        column += w
    }

    /// The column of every `ch` on a row.
    func columns(of ch: String, row: Int) -> [Int] { grid[row].indices.filter { grid[row][$0] == ch } }
}

/// The bytes the terminal layer writes: whole clusters, borders in place, nothing of a previous frame left.
@Suite("What pushbox writes to the terminal")
struct TerminalOutputTests {
    static let ansi = TerminalControls(ansi: ())
    static let emojiTest = "/usr/share/unicode/emoji/emoji-test.txt"

    /// Every fully-qualified sequence of Unicode's emoji-test.txt.
    static func fullyQualified() throws -> [String] {
        let text = try String(contentsOfFile: emojiTest, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard line.contains("; fully-qualified"), let codes = line.split(separator: ";").first else { return nil }
            let scalars = codes.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            return String(String.UnicodeScalarView(scalars))
        }
    }

    /// The text the bytes carry, escape sequences taken out.
    static func text(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B {
                var j = i + 2
                while j < bytes.count && !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                i = j + 1
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test(
        "every fully-qualified sequence of emoji-test.txt reaches the terminal byte-exact, is accounted 2 columns, and leaves the border in its column",
        .enabled(if: FileManager.default.fileExists(atPath: emojiTest), "needs Debian's unicode-data (make test installs it)"))
    func emojiSequences() throws {
        let sequences = try Self.fullyQualified()
        #expect(sequences.count > 3000)
        for sequence in sequences {
            #expect(DisplayWidth.of(sequence) == 2, "\(sequence.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // Ten to a row between borders, each row a frame of its own on a terminal that measures naively.
        for start in stride(from: 0, to: sequences.count, by: 10) {
            let row = sequences[start..<min(start + 10, sequences.count)]
            var screen = Screen(width: 40, height: 1)
            screen.put("│", x: 0, y: 0, role: .border)
            var x = 1
            for s in row { x += screen.put(s, x: x, y: 0, role: .body) }
            screen.put("│", x: 21, y: 0, role: .border)
            let bytes = TerminalOutput.frame(screen, previous: nil, styles: [:], controls: Self.ansi)
            let text = Self.text(bytes)
            for s in row { #expect(text.contains(s), "\(s) did not reach the terminal whole") }
            var terminal = ModelTerminal(width: 40, height: 1, naive: true)
            terminal.feed(bytes)
            #expect(terminal.columns(of: "│", row: 0) == [0, 21], "\(Array(row))")
        }
    }

    static let scripts = [
        "नमस्ते दुनिया क्षत्रिय", "নমস্কার পৃথিবী", "வணக்கம் உலகம்", "สวัสดีชาวโลก น้ำ", "\u{1100}\u{1161}\u{11A8} 한국어",
        "مَرْحَبًا بِالْعَالَمِ", "שָׁלוֹם עוֹלָם", "Hello مرحبا world", "👍🏽 👨‍👩‍👧 🇰🇷 1️⃣ ☺︎ 🍽️",
    ]

    @Test("Indic, Thai, Hangul jamo, Arabic with harakat, Hebrew with niqqud: every scalar reaches the terminal, in order", arguments: scripts)
    func everyScalarInOrder(_ text: String) {
        var screen = Screen(width: 60, height: 3)
        screen.put("│", x: 0, y: 1, role: .border)
        let used = screen.put(text, x: 1, y: 1, role: .body)
        screen.put("│", x: 1 + used, y: 1, role: .border)
        let bytes = TerminalOutput.frame(screen, previous: nil, styles: [:], controls: Self.ansi)
        // Each word whole and in order (an emoji's columns are blanked before it is drawn).
        let written = Self.text(bytes)
        var from = written.startIndex
        for word in text.split(separator: " ") {
            let found = written.range(of: word, range: from..<written.endIndex)
            #expect(found != nil, "\(word) did not reach the terminal whole, in order")
            from = found?.upperBound ?? from
        }
        var terminal = ModelTerminal(width: 60, height: 3, naive: false)
        terminal.feed(bytes)
        #expect(terminal.columns(of: "│", row: 1) == [0, 1 + used], "\(text)")
    }

    @Test("a frame after a change of width leaves nothing of the last one behind, and draws only what changed")
    func changeOfWidth() {
        var first = Screen(width: 30, height: 2)
        first.put("Dinner 🍽️ tonight 👍🏽 ok", x: 0, y: 0, role: .body)
        first.put("unchanged line", x: 0, y: 1, role: .muted)
        var second = Screen(width: 30, height: 2)
        second.put("Dinner at 8 tonight, ok", x: 0, y: 0, role: .body)
        second.put("unchanged line", x: 0, y: 1, role: .muted)
        for naive in [false, true] {
            var terminal = ModelTerminal(width: 30, height: 2, naive: naive)
            terminal.feed(TerminalOutput.frame(first, previous: nil, styles: [:], controls: Self.ansi))
            let diff = TerminalOutput.frame(second, previous: first, styles: [:], controls: Self.ansi)
            terminal.feed(diff)
            #expect(terminal.grid[0].joined() == second.lines[0], "naive \(naive)")
            #expect(!Self.text(diff).contains("unchanged"))
        }
    }

    @Test("writing over part of a wide cluster blanks the rest of it: no cluster without its columns")
    func overwrite() {
        var s = Screen(width: 10, height: 1)
        s.put("한국어", x: 0, y: 0, role: .body)
        s.put("x", x: 1, y: 0, role: .body)  // the second column of 한
        #expect(s.lines[0] == " x국어    ")
        s.fill(x: 2, y: 0, width: 1, height: 1, role: .normal)  // the first column of 국
        #expect(s.lines[0] == " x  어    ")
        #expect(
            !(0..<10).contains { s[$0, 0].isContinuation && (($0 == 0) || (!s[$0 - 1, 0].isContinuation && DisplayWidth.of(s[$0 - 1, 0].text) < 2)) })
    }

    @Test("control characters never reach the terminal raw")
    func controls() {
        #expect(TerminalOutput.bytes(of: "a\u{1B}b\u{9B}c") == Array("a\u{FFFD}b\u{FFFD}c".utf8))
        #expect(DisplayWidth.of("\u{9B}") == 0)
    }
}
