import Foundation
import PushboxJSON
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// Runs the command line in-process and captures what it prints.
struct CLIRun {
    var status: Int32
    var out: String
    var err: String

    var lines: [String] { out.split(separator: "\n").map(String.init) }

    /// A cache folder for the tests, so they never write into the user's ~/.cache; one name,
    /// reused by every run, so runs leave nothing new in /tmp.
    static let cacheHome: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-test-cache").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// A data folder for the tests: a command given no `--db` addresses the default inbox there,
    /// never the user's (whose device, kept beside it, would choose the app and languages). One
    /// name, reused by every run, as the cache's.
    static let dataHome: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-test-data").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    init(
        _ args: [String], stdin: String = "", environment: [String: String] = ["XDG_CACHE_HOME": CLIRun.cacheHome, "XDG_DATA_HOME": CLIRun.dataHome]
    ) {
        let box = Locked<(out: String, err: String)>(("", ""))
        var io = CommandIO(
            out: { line in box.withLock { $0.out += line + "\n" } }, err: { line in box.withLock { $0.err += line + "\n" } },
            readStdin: { Array(stdin.utf8) }, environment: environment)
        status = Pushbox.main(args, io: &io)
        (out, err) = box.withLock { $0 }
    }
}

/// A fresh inbox for shell scripts run as a user runs them: a folder with its own HOME and XDG
/// folders, the built pushbox first on PATH (after `extraPath`, when given); removed with it.
final class ShellInbox {
    let dir: String
    var environment: [String: String]

    init(extraPath: String? = nil) throws {
        let binary = try #require(EndToEndTests.binary, "the pushbox binary is built beside the tests")
        dir = "/tmp/pbsh-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment = ProcessInfo.processInfo.environment
        for (name, sub) in [
            ("HOME", ""), ("XDG_RUNTIME_DIR", "/run"), ("XDG_DATA_HOME", "/data"), ("XDG_CACHE_HOME", "/cache"), ("XDG_CONFIG_HOME", "/config"),
        ] {
            environment[name] = dir + sub
        }
        environment["PATH"] = [extraPath, (binary as NSString).deletingLastPathComponent, environment["PATH"] ?? "/usr/bin:/bin"].compactMap { $0 }
            .joined(separator: ":")
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// `script` run by bash in the folder.
    func run(_ script: String, timeout: Double = 180) throws -> Subprocess.Result {
        try Subprocess.run("/bin/bash", ["-c", script], environment: environment, directory: dir, timeout: timeout)
    }
}
