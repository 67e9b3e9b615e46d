import Foundation
import PushboxCore
import PushboxStore
import PushboxText

/// The device's registration on disk, beside the inbox (`inbox.device.json` for
/// `inbox.sqlite`): `pushbox device` writes it, and a running pushbox reads it again whenever
/// it changed, so uninstalling the app takes effect on the next push.
public final class DeviceRegistrationFile: Sendable {
    /// The file.
    public let path: String
    /// What was read, and the file's stamp (modification time, size, inode) when it was.
    private let cache = Locked<(stamp: [Int]?, value: DeviceRegistration)>((nil, DeviceRegistration()))

    /// The registration file of the inbox at `databasePath`.
    public init(databasePath: String) {
        path = (databasePath as NSString).deletingPathExtension + ".device.json"
    }

    /// The registration now: the cached one while the file is unchanged; the default (installed,
    /// every token valid) when there is no file or it cannot be read.
    public func current() -> DeviceRegistration {
        var info = stat()
        let stamp = stat(path, &info) == 0 ? [info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int(info.st_size), Int(info.st_ino)] : nil
        if let hit = cache.withLock({ $0.stamp == stamp ? $0.value : nil }) { return hit }
        let registration = read()
        cache.withLock { $0 = (stamp, registration) }
        return registration
    }

    /// The registration as the file holds it now (the default when there is none).
    private func read() -> DeviceRegistration {
        FileManager.default.contents(atPath: path).flatMap { try? JSONParser.parse(Array($0)) }.map(DeviceRegistration.init(json:))
            ?? DeviceRegistration()
    }

    /// Changes the registration under a lock and writes it whole (a new file renamed into place).
    public func update(_ change: (inout DeviceRegistration) -> Void) throws(FileWriteError) -> DeviceRegistration {
        // The first change may come before any inbox was made.
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let lock = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(lock, LOCK_UN) }
        var registration = read()
        change(&registration)
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((JSONWriter.pretty(registration.json) + "\n").utf8)),
            rename(temporary, path) == 0
        else {
            unlink(temporary)
            throw FileWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        return registration
    }
}

extension DeviceRegistrationFile {
    /// What bringing the device back online did: its registration, and the notifications the
    /// push service had kept, each now delivered from storage or discarded.
    public struct BackOnline: Sendable {
        /// The registration as written.
        public var registration: DeviceRegistration
        /// Where each kept notification now stands.
        public var changed: [Int64: DeliveryRecord]
        /// How many were delivered from storage.
        public var delivered: Int { changed.values.filter { $0.state == .deliveredFromStorage }.count }
        /// How many were discarded, their expiration past.
        public var discarded: Int { changed.count - delivered }
    }

    /// Brings the device back online at `now` (`pushbox device online`, `O` in the inbox): what
    /// `store` kept while it was offline is delivered from storage, or discarded as expired.
    public func comeOnline(at now: Date, store: InboxStore) throws -> BackOnline {
        let registration = try update { $0.offlineSince = nil }
        return BackOnline(registration: registration, changed: try store.deliverStored(at: now))
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
