import Foundation
import PushboxJSON
import PushboxSystem

/// A value of the device's kept as JSON beside the inbox, read again whenever the file
/// changed (its stamp: modification time, size, inode) and changed whole under a lock, so
/// pushbox's commands and a running pushbox share it.
public final class DeviceStateFile<Value: Sendable>: Sendable {
    /// The file.
    public let path: String
    private let decode: @Sendable (JSONValue?) -> Value
    private let encode: @Sendable (Value) -> JSONValue
    private let cache: Locked<(stamp: Stamp?, value: Value)>

    /// What tells a changed file from the one read: modification time, size, inode (a value, so
    /// checking it on every push allocates nothing).
    private struct Stamp: Equatable {
        var seconds: Int, nanoseconds: Int, size: Int, inode: UInt
    }

    /// The file at `path`, read by `decode` (given nil when there is no file or it cannot be
    /// read) and written by `encode`.
    public init(path: String, decode: @escaping @Sendable (JSONValue?) -> Value, encode: @escaping @Sendable (Value) -> JSONValue) {
        self.path = path
        self.decode = decode
        self.encode = encode
        cache = Locked((nil, decode(nil)))
    }

    /// The value now: the cached one while the file is unchanged.
    public func current() -> Value {
        var info = stat()
        let stamp =
            stat(path, &info) == 0
            ? Stamp(seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec, size: Int(info.st_size), inode: UInt(info.st_ino)) : nil
        if let hit = cache.withLock({ $0.stamp == stamp ? $0.value : nil }) { return hit }
        let value = read()
        cache.withLock { $0 = (stamp, value) }
        return value
    }

    /// The value as the file holds it now.
    private func read() -> Value {
        decode(FileManager.default.contents(atPath: path).flatMap { try? JSONParser.parse(Array($0)) })
    }

    /// Changes the value under a lock and writes it whole (a new file renamed into place);
    /// returns what `change` returned and the value written.
    public func update<T>(_ change: (inout Value) -> T) throws(FileWriteError) -> (result: T, value: Value) {
        // The first change may come before any inbox was made.
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let lock = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(lock, LOCK_UN) }
        var value = read()
        let result = change(&value)
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((JSONWriter.pretty(encode(value)) + "\n").utf8)),
            rename(temporary, path) == 0
        else {
            unlink(temporary)
            throw FileWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        return (result, value)
    }

    /// The file beside the inbox at `databasePath` with this suffix (`.device.json`).
    public static func beside(_ databasePath: String, suffix: String) -> String {
        (databasePath as NSString).deletingPathExtension + suffix
    }
}

/// A file that could not be written, and why.
public struct FileWriteError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The system's reason.
    public var reason: String
    /// `cannot write PATH: REASON`.
    public var description: String { "cannot write \(path): \(reason)" }
}
