import Foundation

/// Runs a tool to completion for a test. Standard error is discarded.
public enum Subprocess {
    /// Runs `executable` and returns what it printed. With `captureOutput` false the tool gets no
    /// pipe and the result is empty: for commands that may leave a daemon holding the pipe (tmux).
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], captureOutput: Bool = true) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.standardError = FileHandle.nullDevice
        guard captureOutput else {
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            return ""
        }
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
