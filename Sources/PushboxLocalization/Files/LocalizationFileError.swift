import PushboxJSON

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

        // What CoreFoundation reads though a strict parser would not: the file works on a
        // device but is fragile (another tool, or a strict XML parser, refuses it).

        /// A control character XML 1.0 forbids (U+0000–U+001F but tab, LF, CR), raw or as `&#…;`.
        case controlCharacter = "control-character"
        /// Text after the top-level element of an XML plist, which CoreFoundation ignores.
        case contentAfterPlist = "content-after-plist"
        /// An XML declaration that is not at the very start of the file.
        case misplacedXMLDeclaration = "misplaced-xml-declaration"
        /// An XML comment holding `--`.
        case commentDoubleHyphen = "comment-double-hyphen"
        /// A `<key>` where a dictionary's value belongs, read as a string.
        case keyAsValue = "key-as-value"
        /// Bytes that are not UTF-8 outside every string of an XML plist (in a comment, say).
        case invalidUTF8OutsideStrings = "invalid-utf8-outside-strings"
        /// UTF-16 or UTF-32 text whose length is not a whole number of units: the rest is ignored.
        case trailingBytes = "trailing-bytes"
        /// UTF-16 without a byte-order mark, read as CoreFoundation reads it (the first two
        /// bytes dropped, the rest little-endian): it works only while the file starts with
        /// whitespace.
        case utf16WithoutBOM = "utf16-without-bom"
        /// Something where a key of a `.strings` file belongs (a stray character, a string
        /// that never ends): CoreFoundation stops there and ignores the rest of the file.
        case restOfFileIgnored = "rest-of-file-ignored"
        /// A byte 0xA9 that starts no UTF-8 character (Mac Roman's ©), read as U+FFFD: the one
        /// byte CoreFoundation's UTF-8 decoder lets through.
        case strayA9Byte = "stray-a9-byte"
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
