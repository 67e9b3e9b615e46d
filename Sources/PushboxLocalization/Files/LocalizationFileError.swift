/// A localization file that cannot be read: the whole file is refused, as Foundation refuses
/// it, and the error names file, line and column.
public struct LocalizationFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    /// An error at a place in a file.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Something readable but suspicious in a localization file, with where it is.
public struct FileNote: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public var description: String { "\(file):\(line): \(message)" }
}
