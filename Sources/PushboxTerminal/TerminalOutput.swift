import CNcursesw
import PushboxLocalization
import PushboxUI

/// A role's look on this terminal: attributes and colours (-1: the terminal's default).
struct Style: Equatable {
    var bold = false
    var underline = false
    var reverse = false
    var foreground: Int16 = -1
    var background: Int16 = -1
}

/// The control strings pushbox writes: the terminal's own, from terminfo (ncurses's
/// `tigetstr`/`tiparm`), or plain ANSI ones for tests that read the bytes.
struct TerminalControls: Sendable {
    /// Moves the cursor to row, column (0-based).
    var move: @Sendable (Int, Int) -> [UInt8]
    /// Clears the screen.
    var clear: [UInt8]
    /// Turns every attribute and colour off.
    var reset: [UInt8]
    var bold: [UInt8]
    var underline: [UInt8]
    var reverse: [UInt8]
    /// Sets the foreground, the background colour.
    var foreground: @Sendable (Int) -> [UInt8]
    var background: @Sendable (Int) -> [UInt8]

    /// The terminal's strings, from the terminfo entry ncurses loaded (empty where it has none).
    init() {
        @Sendable func bytes(_ s: UnsafePointer<CChar>?) -> [UInt8] { s.map { Array(String(cString: $0).utf8) } ?? [] }
        @Sendable func capability(_ name: String) -> String? { pb_capability(name).map { String(cString: $0) } }
        let cup = capability("cup")
        let setaf = capability("setaf")
        let setab = capability("setab")
        move = { row, column in cup.map { bytes(pb_tparm2($0, Int32(row), Int32(column))) } ?? [] }
        clear = Array((capability("clear") ?? "").utf8)
        reset = Array((capability("sgr0") ?? "").utf8)
        bold = Array((capability("bold") ?? "").utf8)
        underline = Array((capability("smul") ?? "").utf8)
        reverse = Array((capability("rev") ?? "").utf8)
        foreground = { n in setaf.map { bytes(pb_tparm1($0, Int32(n))) } ?? [] }
        background = { n in setab.map { bytes(pb_tparm1($0, Int32(n))) } ?? [] }
    }

    /// ECMA-48's strings, as xterm-256color's terminfo gives them.
    init(ansi: Void) {
        @Sendable func csi(_ s: String) -> [UInt8] { Array(("\u{1B}[" + s).utf8) }
        move = { row, column in csi("\(row + 1);\(column + 1)H") }
        clear = csi("H") + csi("2J")
        reset = csi("0m")
        bold = csi("1m")
        underline = csi("4m")
        reverse = csi("7m")
        foreground = { n in csi(n < 8 ? "3\(n)m" : n < 16 ? "9\(n - 8)m" : "38;5;\(n)m") }
        background = { n in csi(n < 8 ? "4\(n)m" : n < 16 ? "10\(n - 8)m" : "48;5;\(n)m") }
    }

    /// The bytes that turn `style` on from nothing.
    func set(_ style: Style) -> [UInt8] {
        var out = reset
        if style.bold { out += bold }
        if style.underline { out += underline }
        if style.reverse { out += reverse }
        if style.foreground >= 0 { out += foreground(Int(style.foreground)) }
        if style.background >= 0 { out += background(Int(style.background)) }
        return out
    }
}

/// The bytes of one frame: the cells that changed since the last frame, each cluster whole.
/// After an emoji — the clusters terminals measure differently — the cursor is placed at the column pushbox computed, and the columns
/// after it that a terminal could have drawn it over are drawn again, so a terminal that draws
/// the cluster wider or narrower shifts at most that cluster, never the rest of the line or the
/// border.
enum TerminalOutput {
    static func frame(_ next: Screen, previous: Screen?, styles: [Role: Style], controls: TerminalControls) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(previous == nil ? next.width * next.height * 2 : 256)
        if previous == nil { out += controls.clear }
        var current: Style? = nil
        for y in 0..<next.height {
            var cursor: Int? = nil  // the column the terminal's cursor is known to be at on this row
            var redrawBefore = 0  // cells starting before this column are drawn even if unchanged
            var x = 0
            while x < next.width {
                let cell = next[x, y]
                var span = 1
                while x + span < next.width && next[x + span, y].isContinuation { span += 1 }
                if cell.isContinuation {
                    // A continuation without its cluster (the cluster was cut at the left): a blank.
                    x += 1
                    continue
                }
                // Equal cells here mean the same cluster of the same width; a cell after it that
                // changed is a change of its own, drawn when reached.
                let changed = previous.map { p in (x..<(x + span)).contains { p[$0, y] != next[$0, y] } } ?? true
                guard changed || x < redrawBefore else {
                    x += span
                    continue
                }
                if cursor != x { out += controls.move(y, x) }
                let style =
                    cell.palette.map { Style(foreground: Int16($0.foreground), background: Int16($0.background)) } ?? styles[cell.role] ?? Style()
                if current != style {
                    out += controls.set(style)
                    current = style
                }
                let uncertain = cell.text.first.map { DisplayWidth.mayBeMeasuredOtherwise($0) || DisplayWidth.of($0) != span } ?? false
                if uncertain {
                    // Blanks over the whole span first: a terminal that draws the cluster narrower
                    // (tmux 3.3 gives 🏳️‍🌈 and 1️⃣ one column) would otherwise keep what the
                    // previous frame had in the columns it leaves, beside the emoji.
                    out += [UInt8](repeating: 0x20, count: span)
                    out += controls.move(y, x)
                }
                out += bytes(of: cell.text)
                cursor = x + span
                if uncertain, let g = cell.text.first {
                    // A terminal may have drawn it over as many columns as its code points take.
                    cursor = nil
                    redrawBefore = max(redrawBefore, x + span + max(1, DisplayWidth.widest(g) - span))
                }
                x += span
            }
        }
        out += controls.reset
        return out
    }

    /// A cell's text as UTF-8, any control character (which must never reach the terminal
    /// raw) as U+FFFD.
    static func bytes(of text: String) -> [UInt8] {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return Array(text.utf8) }
        return Array(
            String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "\u{FFFD}" : $0 })).utf8)
    }
}
