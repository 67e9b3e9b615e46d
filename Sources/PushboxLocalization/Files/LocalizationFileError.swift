import PushboxText

/// A localization file that cannot be read: the whole file is refused, as Foundation refuses
/// it, and the error names file, line and column.
public struct LocalizationFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broken file.
    public var file: String
    /// Where it breaks: line…
    public var line: Int
    /// …and column.
    public var column: Int
    /// What is wrong, in words.
    public var message: String

    /// An error at a place in a file.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, as compilers write it.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Something readable but suspicious in a localization file, with where it is.
public struct FileNote: Sendable, Equatable, CustomStringConvertible {
    /// What was found: the linter and tests match on this, never on `message`'s words.
    public enum Kind: String, Sendable {
        /// A key defined twice in one file (the last one wins).
        case duplicateKey = "duplicate-key"
        /// A `\U` escape or a UTF-16 file holding half a surrogate pair (shown as U+FFFD).
        case unpairedSurrogate = "unpaired-surrogate"
        /// An entry of the wrong type (not a string, not a dictionary, no format key): ignored.
        case ignoredEntry = "ignored-entry"
        /// A string catalog of a newer version than pushbox knows (read as the newest it knows).
        case newerCatalogVersion = "newer-catalog-version"
    }

    /// What was found.
    public var kind: Kind

    /// The diagnostic code the linter reports the note with (the same name as the kind).
    public var code: Diagnostic.Code { Diagnostic.Code(rawValue: kind.rawValue) }
    /// The file it is in.
    public var file: String
    /// Its line (1 when the reader keeps no lines for it).
    public var line: Int
    /// What was found, in a sentence for people.
    public var message: String

    /// A note of `kind` at `file`:`line`.
    public init(_ kind: Kind, file: String, line: Int, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`.
    public var description: String { "\(file):\(line): \(message)" }
}
