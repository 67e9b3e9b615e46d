import CNcursesw
import Foundation
import PushboxUI

/// Why the terminal cannot show pushbox.
public struct TerminalError: Error, CustomStringConvertible {
    /// Why the terminal could not be used.
    public var description: String
}

/// The curses layer: turns a `Screen` into ncursesw calls, drawing only the cells that changed,
/// and turns keys, mouse and resizes into messages. Everything else is in PushboxUI.
public final class Terminal {
    private var previous: Screen?
    /// Each role's attributes and colours, as the theme gives them on this terminal.
    private var styles: [Role: Style] = [:]
    /// The terminal's own control strings (terminfo), read once ncurses loaded its entry.
    private var controls = TerminalControls(ansi: ())
    /// Colours the terminal has (256, 8 or 0).
    public private(set) var colors = 0
    private var screen: OpaquePointer?

    /// Starts curses on the terminal (UTF-8 locale, colours, mouse); fails with a reason when there is no usable terminal.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(TerminalError) {
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else {
            throw TerminalError(
                description:
                    "the terminal (TERM=\(term.isEmpty ? "unset" : term)) cannot address the cursor; pushbox needs a full-screen terminal. Use pushbox render FILE… for plain text"
            )
        }
        setlocale(LC_ALL, "")
        guard let s = newterm(nil, pb_stdout(), pb_stdin()) else {
            throw TerminalError(description: "the terminal type \(term) is unknown to this machine's terminfo; try TERM=xterm-256color")
        }
        screen = s
        controls = TerminalControls()
        guard pb_has_cursor_addressing() != 0 else {
            endwin()
            throw TerminalError(description: "the terminal (TERM=\(term)) cannot address the cursor; pushbox needs a full-screen terminal")
        }
        cbreak()
        noecho()
        keypad(pb_stdscr(), true)
        curs_set(0)
        set_escdelay(25)
        _ = mousemask(pb_mouse_mask(), nil)
        mouseinterval(0)
        // ncurses's first refresh clears the terminal; it happens now, not on the first key read
        // after pushbox drew its first frame.
        refresh()
    }

    /// Maps a theme's roles to colours (256 or 8) or, without colour, to attributes alone.
    public func apply(_ theme: Theme, noColor: Bool) {
        let useColor = !noColor && has_colors()
        var effective = theme
        if useColor {
            start_color()
            use_default_colors()
            colors = Int(pb_colors())
        } else {
            colors = 0
            effective = .monochrome
        }
        styles.removeAll()
        for role in Role.allCases {
            let style = effective.style(role)
            styles[role] = Style(
                bold: style.bold, underline: style.underline, reverse: style.reverse,
                foreground: useColor ? color(style.foreground) : -1, background: useColor ? color(style.background) : -1)
        }
        previous = nil  // everything is drawn again in the new colours
    }

    /// A theme colour on this terminal: itself with 256 colours, else the nearest basic one.
    private func color(_ c: ThemeColor) -> Int16 {
        switch c {
        case .terminalDefault: return -1
        case .ansi(let i): return Int16(colors >= 16 ? i : i % 8)
        case .indexed(let n): return Int16(colors >= 256 ? n : c.basic)
        }
    }

    /// The terminal's size in cells.
    public var size: (width: Int, height: Int) { (Int(pb_cols()), Int(pb_lines())) }

    /// The palette thumbnails may use: 256, 16 or 8 colours, or 0 without colour.
    public var palette: Int { colors >= 256 ? 256 : colors >= 16 ? 16 : colors >= 8 ? 8 : 0 }

    /// Draws the cells that differ from the last frame, writing the bytes itself through the
    /// terminal's terminfo strings (`TerminalOutput`): every scalar of every cluster reaches the
    /// terminal, which ncurses's cell model cannot promise for a ZWJ sequence or an Indic
    /// conjunct. Input still comes through ncurses, which draws nothing after the start.
    public func draw(_ next: Screen) {
        let last = previous.flatMap { $0.width == next.width && $0.height == next.height ? $0 : nil }
        let bytes = TerminalOutput.frame(next, previous: last, styles: styles, controls: controls)
        fflush(pb_stdout())
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + written, bytes.count - written) }
            if n > 0 {
                written += n
            } else if n < 0 && errno != EINTR && errno != EAGAIN {
                break
            }
        }
        previous = next
    }

    /// The next key, mouse or resize event, waiting at most `timeoutMs`; nil when none came.
    public func nextEvent(timeoutMs: Int32) -> Message? {
        timeout(timeoutMs)
        var ch: wint_t = 0
        let kind = get_wch(&ch)
        if kind == ERR { return nil }
        if kind == KEY_CODE_YES {
            switch Int32(ch) {
            case KEY_UP: return .key(.up)
            case KEY_DOWN: return .key(.down)
            case KEY_LEFT: return .key(.left)
            case KEY_RIGHT: return .key(.right)
            case KEY_NPAGE: return .key(.pageDown)
            case KEY_PPAGE: return .key(.pageUp)
            case KEY_HOME: return .key(.home)
            case KEY_END: return .key(.end)
            case KEY_ENTER: return .key(.enter)
            case KEY_BACKSPACE: return .key(.backspace)
            case KEY_BTAB: return .key(.backTab)
            case KEY_RESIZE:
                // ncurses resized its own (blank) screen: let it settle now, so it never repaints
                // over the frame drawn next.
                refresh()
                previous = nil
                return .resize(width: size.width, height: size.height)
            case KEY_MOUSE:
                var event = MEVENT()
                guard getmouse(&event) == OK else { return nil }
                if pb_wheel_up(event.bstate) != 0 { return .wheel(up: true) }
                if pb_wheel_down(event.bstate) != 0 { return .wheel(up: false) }
                if pb_button1(event.bstate) != 0 { return .click(x: Int(event.x), y: Int(event.y)) }
                return nil
            default: return nil
            }
        }
        switch ch {
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 9: return .key(.tab)
        case 8, 127: return .key(.backspace)
        default:
            guard let scalar = Unicode.Scalar(UInt32(ch)), scalar.value >= 0x20 else { return nil }
            return .key(.char(Character(scalar)))
        }
    }

    /// Gives the terminal back.
    public func close() {
        guard screen != nil else { return }
        endwin()
        delscreen(screen)
        screen = nil
    }

    deinit { close() }
}
