/// The one table of what payload text must never pass to a terminal as it is: C0 controls,
/// DEL, C1 controls, and bidi overrides and isolates (which can make text print reversed and
/// misleading). `TerminalText` (text output) and the TUI's `DisplayText` both read it and
/// differ only in how each kind is shown.
public enum UnsafeScalar: Sendable, Equatable {
    case c0(UInt8)
    case delete
    case c1
    case bidiControl

    /// The kind of `scalar`, or nil when it is safe to print.
    public static func classify(_ scalar: Unicode.Scalar) -> UnsafeScalar? {
        switch scalar.value {
        case 0x00..<0x20: return .c0(UInt8(scalar.value))
        case 0x7F: return .delete
        case 0x80...0x9F: return .c1
        case 0x202A...0x202E, 0x2066...0x2069: return .bidiControl
        default: return nil
        }
    }

    /// What both sanitizers show where a bidi control was: ⸿.
    public static let bidiMarker: Unicode.Scalar = "\u{2E3F}"

    /// What the inbox and every command's text output show in its place: a C0 control's
    /// control picture (ESC → ␛), ␡ for DEL, ⍰ for a C1 control, ⸿ for a bidi control. Each
    /// sanitizer treats newlines, tabs and carriage returns its own way first.
    public var visible: Unicode.Scalar {
        switch self {
        case .c0(let code): return Unicode.Scalar(0x2400 + UInt32(code))!
        case .delete: return "\u{2421}"
        case .c1: return "\u{2370}"
        case .bidiControl: return Self.bidiMarker
        }
    }
}
