import Foundation
import PushboxCrypto
import PushboxInbox
import PushboxPayload

#if canImport(Glibc)
    import Glibc
#endif

// @unchecked: the descriptors, `watches` and `scanned` are set in init and then touched only by
// the watch thread; `stopped` is under `lock`, and stop() waits for the thread before closing them.
/// Watches folders for `.json` and `.apns` payload files: written in place (`IN_CLOSE_WRITE`)
/// or moved in (`IN_MOVED_TO`), each ingested once. Files already there at start are ingested
/// unless the store holds that path with the same content. Files are never modified or
/// deleted. Without inotify, the folders are polled.
public final class FolderWatcher: @unchecked Sendable {
    /// The folders watched.
    public let folders: [String]
    private let service: IntakeService
    private let onFolderGone: @Sendable (String) -> Void
    private var inotifyFD: Int32 = -1
    private var wakePipe: [Int32] = [-1, -1]
    private var watches: [Int32: String] = [:]
    /// What the start-up scan took (path → content hash): a file moved in between the watch's
    /// start and the scan raises an event too, which must not take it in a second time.
    private var scanned: [String: String] = [:]
    private let lock = NSLock()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    /// True when inotify was unavailable and the folders are polled.
    public private(set) var polling = false

    /// Starts watching: files already there are taken in first; `onFolderGone` hears when a folder disappears.
    public init(
        folders: [String], service: IntakeService, forcePolling: Bool = false,
        onFolderGone: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ListenError) {
        self.folders = folders.map { ($0 as NSString).standardizingPath }
        self.service = service
        self.onFolderGone = onFolderGone
        for folder in self.folders {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
                throw ListenError(message: "--watch \(folder): no such folder")
            }
        }
        if !forcePolling { inotifyFD = inotify_init1(Int32(IN_CLOEXEC)) }
        polling = inotifyFD < 0
        if !polling {
            for folder in self.folders {
                let wd = inotify_add_watch(
                    inotifyFD, folder, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF))
                if wd >= 0 { watches[wd] = folder }
            }
            _ = pipe(&wakePipe)
        }
        // Existing files, before any event is read (events for them queue up meanwhile).
        for folder in self.folders { scan(folder) }
        Thread.detachNewThread { [self] in
            if polling { pollLoop() } else { eventLoop() }
            finished.signal()
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Ends the watch and waits for its thread.
    public func stop() {
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        stopped = true
        lock.unlock()
        if !polling {
            var b: UInt8 = 1
            _ = write(wakePipe[1], &b, 1)
        }
        finished.wait()
        if !polling {
            close(inotifyFD)
            close(wakePipe[0])
            close(wakePipe[1])
        }
    }

    deinit { stop() }

    /// Ingests every payload file in a folder not stored before with the same content.
    private func scan(_ folder: String) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for name in names where PayloadFile.isPayloadName(name) {
            ingest((folder as NSString).appendingPathComponent(name), skipIfKnown: true)
        }
    }

    private func ingest(_ path: String, skipIfKnown: Bool) {
        guard let raw = PayloadFile.read(path, source: .folder) else { return }
        let hash = Digest.sha256Hex(raw.bytes)
        if skipIfKnown {
            if service.store.contains(file: path, contentHash: hash) { return }
            scanned[path] = hash
        } else if let taken = scanned.removeValue(forKey: path), taken == hash {
            return  // the scan took this very file; its event is the same arrival
        }
        _ = service.receive(raw)
    }

    /// Why a folder stopped being watched, for the person who named it.
    static func goneMessage(_ folder: String) -> String {
        "the watched folder \(folder) was deleted or moved away; it is no longer watched (files already taken in stay in the inbox)"
    }

    private func eventLoop() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !isStopped, !watches.isEmpty {
            var fds = [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) > 0 else { continue }
            if fds[1].revents != 0 || isStopped { return }
            let n = read(inotifyFD, &buffer, buffer.count)
            guard n > 0 else { continue }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (16 bytes), then a NUL-padded name.
            while offset + 16 <= n {
                let wd = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset, as: Int32.self) }
                let mask = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) })
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += 16 + length
                if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0, let folder = watches.removeValue(forKey: wd) {
                    inotify_rm_watch(inotifyFD, wd)
                    onFolderGone(Self.goneMessage(folder))
                    continue
                }
                if let folder = watches[wd], PayloadFile.isPayloadName(name) {
                    ingest((folder as NSString).appendingPathComponent(name), skipIfKnown: false)
                }
            }
        }
    }

    /// Without inotify: every half second, ingest files that are new or changed. It starts from
    /// nothing; files the start-up scan took are skipped by the store's path-and-content check.
    /// Polls every half second. A file is taken in once its size and modification time are the
    /// same on two polls in a row: a file written in place (not renamed in) is seen mid-write
    /// otherwise, empty or cut short, and would be stored as a refusal before its real content.
    private func pollLoop() {
        var seen: [String: (Int, Double)] = [:]
        var settling: [String: (Int, Double)] = [:]
        var watched = folders
        while !isStopped, !watched.isEmpty {
            for folder in watched {
                guard let stamps = snapshot(folder) else {
                    watched.removeAll { $0 == folder }
                    onFolderGone(Self.goneMessage(folder))
                    continue
                }
                for (path, stamp) in stamps where seen[path].map({ $0 != stamp }) ?? true {
                    guard let previous = settling[path], previous == stamp else {
                        settling[path] = stamp
                        continue
                    }
                    settling[path] = nil
                    seen[path] = stamp
                    ingest(path, skipIfKnown: true)
                }
            }
            usleep(500_000)
        }
    }

    /// Size and modification time of each payload file in `folder`; nil when the folder is gone.
    private func snapshot(_ folder: String) -> [String: (Int, Double)]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var out: [String: (Int, Double)] = [:]
        for name in names where PayloadFile.isPayloadName(name) {
            let path = (folder as NSString).appendingPathComponent(name)
            if let a = try? FileManager.default.attributesOfItem(atPath: path) {
                out[path] = ((a[.size] as? Int) ?? 0, (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
            }
        }
        return out
    }
}
