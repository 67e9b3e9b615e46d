import Foundation

/// Where a command writes and reads: the real streams, or strings in tests.
public struct CommandIO {
    /// Writes a line to standard output.
    public var out: (String) -> Void
    /// Writes a line to standard error.
    public var err: (String) -> Void
    /// Reads all of standard input (fixed in tests).
    public var readStdin: () -> [UInt8]
    /// The environment (fixed in tests).
    public var environment: [String: String]

    /// Streams given as functions (tests capture them as strings).
    public init(
        out: @escaping (String) -> Void, err: @escaping (String) -> Void,
        readStdin: @escaping () -> [UInt8], environment: [String: String]
    ) {
        self.out = out
        self.err = err
        self.readStdin = readStdin
        self.environment = environment
    }

    /// The process's own stdout, stderr and stdin.
    public static func standard() -> CommandIO {
        CommandIO(
            out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
            readStdin: { Array(FileHandle.standardInput.readDataToEndOfFile()) },
            environment: ProcessInfo.processInfo.environment)
    }
}
