/// What one key maps to in one language.
public enum LocalizedValue: Sendable, Equatable {
    /// A format string (`.strings`, or a catalog's plain string unit).
    case text(String)
    /// A rule format (`.stringsdict`, or a catalog's plural/substitution variations).
    case rule(RuleFormat)
}

/// One entry with where it came from, for warnings and lint.
public struct LocalizedEntry: Sendable, Equatable {
    /// The string, or its plural and device variants.
    public var value: LocalizedValue
    /// The file it was read from.
    public var file: String
    /// Its line in that file, when the reader keeps lines.
    public var line: Int?
    /// A catalog's stringUnit state (`translated`, `new`, `needs_review`), nil for other files.
    public var state: String?
    /// Set when a catalog had no entry for this language and the source language's value stands in.
    public var fromSourceLanguage = false

    /// An entry and where it was read.
    public init(value: LocalizedValue, file: String, line: Int? = nil, state: String? = nil, fromSourceLanguage: Bool = false) {
        self.value = value
        self.file = file
        self.line = line
        self.state = state
        self.fromSourceLanguage = fromSourceLanguage
    }
}

/// One table (`Localizable`) in one localization, merged from every file that feeds it.
public struct LocalizationTable: Sendable {
    /// Entries by key.
    public var entries: [String: LocalizedEntry] = [:]
    /// Files that could not be read at all (each refused whole).
    public var errors: [LocalizationFileError] = []
    /// Readable oddities: duplicate keys, replaced surrogates, non-string values.
    public var notes: [FileNote] = []
    /// The files the table was read from.
    public var files: [String] = []

    /// An empty table.
    public init() {}
}
