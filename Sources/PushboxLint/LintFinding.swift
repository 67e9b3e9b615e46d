import PushboxJSON

/// One problem `pushbox lint` reports: a diagnostic and where it is.
public struct LintFinding: Sendable, Equatable {
    /// Error (exit 1) or warning.
    public typealias Severity = Diagnostic.Severity

    /// What was found: code, severity, message, key and language.
    public var diagnostic: Diagnostic
    /// The file it is about.
    public var file: String
    /// Its line, when known.
    public var line: Int?

    /// A diagnostic at a place.
    public init(_ diagnostic: Diagnostic, file: String, line: Int? = nil) {
        self.diagnostic = diagnostic
        self.file = file
        self.line = line
    }

    /// A finding at a place.
    public init(
        _ severity: Severity, _ code: Diagnostic.Code, file: String, line: Int? = nil, language: String? = nil, key: String? = nil, message: String
    ) {
        self.init(Diagnostic(code, message, severity: severity, key: key, language: language), file: file, line: line)
    }

    /// The diagnostic's code (`broken-file`, `missing-key`, `specifier-type`, …).
    public var code: Diagnostic.Code { diagnostic.code }
    /// The diagnostic's severity.
    public var severity: Severity { diagnostic.severity }
    /// What was found, in words.
    public var message: String { diagnostic.message }
    /// The localization it is in.
    public var language: String? { diagnostic.language }
    /// The key it is about.
    public var key: String? { diagnostic.key }
}
