/// One problem `pushbox lint` reports.
public struct LintFinding: Sendable, Equatable {
    /// An error breaks the app's strings on a device; a warning shows them differently than meant.
    public enum Severity: String, Sendable { case error, warning }

    /// Error (exit 1) or warning.
    public var severity: Severity
    /// Stable code: `broken-file`, `missing-key`, `specifier-type`, …
    public var code: String
    /// The file it is about.
    public var file: String
    /// Its line, when known.
    public var line: Int?
    /// The localization it is in.
    public var language: String?
    /// The key it is about.
    public var key: String?
    /// What was found, in words.
    public var message: String

    /// A finding at a place.
    public init(_ severity: Severity, _ code: String, file: String, line: Int? = nil, language: String? = nil, key: String? = nil, message: String) {
        self.severity = severity
        self.code = code
        self.file = file
        self.line = line
        self.language = language
        self.key = key
        self.message = message
    }
}
