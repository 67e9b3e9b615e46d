import Foundation

/// A folder of its own under /tmp for one test suite's instance, removed with it.
public final class TemporaryFolder: Sendable {
    /// The folder's path (created on first use by whatever writes into it).
    public let path: String

    /// A new, unique folder path beginning with `prefix`.
    public init(_ prefix: String) { path = "/tmp/\(prefix)-\(UUID().uuidString.prefix(8))" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
