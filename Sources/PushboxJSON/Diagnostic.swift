/// A warning for the person who sent a push or wrote an app's strings: something a device
/// accepts but mishandles, or shows differently than meant. `code` is stable (the UI, tests and
/// scripts match on it); `message` is for people; `key`, `language` and `field` are the facts
/// behind it, when there are some. One type from the validator and the localizer to the card,
/// `render --json` and the store.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How much the diagnostic matters.
    public enum Severity: String, Sendable {
        /// Delivered, but not as meant.
        case warning
        /// Something was ignored entirely (a broken strings file).
        case error
    }

    /// A stable code, such as `missing-key`: what the UI, tests and `--json` readers match on.
    /// An open set: each module declares the codes of its rules as `static` constants
    /// (`Diagnostic.Code.missingKey`), and a code read back from JSON keeps its name.
    /// Each declaration carries the code's severity and its one-line meaning, which the reference
    /// page `docs/reference/diagnostics.md` is generated from (each module lists its codes in a
    /// catalog, and a test checks the catalogs against the declarations in the sources).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as JSON and the reference pages write it (`missing-key`).
        public let rawValue: String
        /// The severity it is reported with (at most: a lint may say less where it is harmless).
        public let severity: Severity
        /// What it means, in one line (empty for a code read back by name).
        public let meaning: String
        /// A code by its name, as read back from JSON.
        public init(rawValue: String) { self.init(rawValue, .warning, "") }
        /// A code's declaration: its name, its severity and its meaning.
        public init(_ name: String, _ severity: Severity, _ meaning: String) {
            self.rawValue = name
            self.severity = severity
            self.meaning = meaning
        }
        /// The name.
        public var description: String { rawValue }
        /// Codes are equal when their names are.
        public static func == (a: Self, b: Self) -> Bool { a.rawValue == b.rawValue }
        /// Hashes the name.
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }

    /// The stable code (`missing-key`): what the UI, tests and `--json` readers match on.
    public var code: Code
    /// How serious it is.
    public var severity: Severity
    /// The sentence for people.
    public var message: String
    /// The localization key concerned.
    public var key: String?
    /// The localization (or language) concerned.
    public var language: String?
    /// The payload field concerned, as a path (`aps.alert.title`).
    public var field: String?

    /// A diagnostic with its code, message, and the facts that are known.
    public init(_ code: Code, _ message: String, severity: Severity = .warning, key: String? = nil, language: String? = nil, field: String? = nil) {
        self.code = code
        self.severity = severity
        self.message = message
        self.key = key
        self.language = language
        self.field = field
    }

    /// The message.
    public var description: String { message }

    /// The diagnostic as a JSON object: code, severity, message, then the facts that are known.
    public var json: JSONValue {
        var object = JSONObject([("code", .string(code.rawValue)), ("severity", .string(severity.rawValue)), ("message", .string(message))])
        if let key { object["key"] = .string(key) }
        if let language { object["language"] = .string(language) }
        if let field { object["field"] = .string(field) }
        return .object(object)
    }

    /// A diagnostic read back from its JSON object (nil when it is not one).
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let code = o["code"]?.stringValue, let message = o["message"]?.stringValue else { return nil }
        self.init(
            Code(rawValue: code), message, severity: o["severity"]?.stringValue.flatMap(Severity.init(rawValue:)) ?? .warning,
            key: o["key"]?.stringValue, language: o["language"]?.stringValue, field: o["field"]?.stringValue)
    }
}
