import Foundation
import PushboxJSON

/// A colour as a theme names it: one of the 8 ANSI names (with `bright-` variants), `default`
/// (the terminal's own), or a 256-colour index.
public enum ThemeColor: Sendable, Equatable {
    case terminalDefault
    case ansi(Int)  // 0…15
    case indexed(Int)  // 0…255

    static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    init?(_ value: JSONValue) {
        if let n = value.intValue, (0...255).contains(n) {
            self = .indexed(n)
            return
        }
        guard let s = value.stringValue?.lowercased() else { return nil }
        if s == "default" {
            self = .terminalDefault
            return
        }
        let bright = s.hasPrefix("bright-")
        guard let i = Self.names.firstIndex(of: bright ? String(s.dropFirst(7)) : s) else { return nil }
        self = .ansi(i + (bright ? 8 : 0))
    }

    /// The nearest of the 8 basic colours, for terminals that have only those.
    public var basic: Int {
        switch self {
        case .terminalDefault: return -1
        case .ansi(let i): return i % 8
        case .indexed(let n):
            if n < 16 { return n % 8 }
            if n >= 232 { return n < 244 ? 0 : 7 }  // greys
            let c = n - 16
            let r = c / 36
            let g = (c / 6) % 6
            let b = c % 6
            return (r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0)
        }
    }
}

/// How one role looks.
public struct Style: Sendable, Equatable {
    /// Text colour.
    public var foreground: ThemeColor = .terminalDefault
    /// Background colour.
    public var background: ThemeColor = .terminalDefault
    /// Bold text.
    public var bold = false
    /// Underlined text.
    public var underline = false
    /// Foreground and background swapped.
    public var reverse = false

    /// A style; by default the terminal's own colours, plain.
    public init(
        foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault, bold: Bool = false, underline: Bool = false,
        reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
    }
}

/// A theme: semantic roles mapped to styles (htop's elements × schemes), read from JSON:
/// `{"name": "dark", "roles": {"selected": {"fg": "black", "bg": "cyan", "bold": true}, …}}`.
public struct Theme: Sendable, Equatable {
    /// The theme's name (its file name).
    public var name: String
    /// A style per role.
    public var styles: [Role: Style]

    /// The style of `role`, else the normal style.
    public func style(_ role: Role) -> Style { styles[role] ?? styles[.normal] ?? Style() }

    /// Why a theme file could not be used, naming the file and the key.
    public struct LoadError: Error, CustomStringConvertible {
        /// What is wrong with the theme file.
        public var description: String
        /// An error with its message.
        public init(description: String) { self.description = description }
    }

    /// A theme file's bytes; `path` names it in errors and gives the theme its default name.
    /// (Finding and reading theme files is the CLI's: `ThemeFiles`.)
    public static func parse(_ bytes: [UInt8], path: String) throws(LoadError) -> Theme {
        let root: JSONObject
        do {
            guard let o = try JSONParser.parse(bytes).objectValue else { throw LoadError(description: "\(path): a theme is a JSON object") }
            root = o
        } catch let e as JSONParseError { throw LoadError(description: "\(path): \(e)") } catch let e as LoadError { throw e } catch {
            throw LoadError(description: "\(path): \(error)")
        }
        var theme = Theme(name: root["name"]?.stringValue ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension, styles: [:])
        guard let roles = root["roles"]?.objectValue else { throw LoadError(description: "\(path): roles: required, an object of role → style") }
        for key in root.keys where !["name", "description", "roles"].contains(key) {
            throw LoadError(description: "\(path): \(key): unknown key (name, description, roles)")
        }
        for (key, value) in roles.entries {
            guard let role = Role(rawValue: key) else {
                throw LoadError(description: "\(path): roles.\(key): unknown role (known: \(Role.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let o = value.objectValue else { throw LoadError(description: "\(path): roles.\(key): must be an object") }
            var style = Style()
            for (field, v) in o.entries {
                switch field {
                case "fg", "bg":
                    guard let c = ThemeColor(v) else {
                        throw LoadError(description: "\(path): roles.\(key).\(field): a colour name, bright-NAME, default, or 0…255")
                    }
                    if field == "fg" { style.foreground = c } else { style.background = c }
                case "bold": style.bold = v == .bool(true)
                case "underline": style.underline = v == .bool(true)
                case "reverse": style.reverse = v == .bool(true)
                default: throw LoadError(description: "\(path): roles.\(key).\(field): unknown (fg, bg, bold, underline, reverse)")
                }
            }
            theme.styles[role] = style
        }
        return theme
    }

    /// The look without colours (`NO_COLOR`, or a terminal without any): attributes only.
    public static let monochrome = Theme(
        name: "no-color",
        styles: [
            .header: Style(reverse: true), .footer: Style(reverse: true), .selected: Style(reverse: true),
            .title: Style(bold: true), .tabActive: Style(bold: true, underline: true), .error: Style(bold: true),
            .warning: Style(underline: true), .input: Style(reverse: true), .button: Style(bold: true),
            .destructiveButton: Style(bold: true, underline: true),
        ])
}
