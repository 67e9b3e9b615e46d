import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem
import Testing

@testable import PushboxIntake

@Suite("The folder watch")
struct FolderWatchTests {
    func waitFor(_ condition: () -> Bool) -> Bool {
        for _ in 0..<100 {
            if condition() { return true }
            usleep(50_000)
        }
        return false
    }

    @Test("written and renamed-in files are ingested once; an invalid file is recorded with its reason", arguments: [false, true])
    func watch(polling: Bool) throws {
        let folder = "/tmp/pbw-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let f = try IntakeFixture(watch: [folder], polling: polling)
        #expect(f.server.isPolling == polling)
        try #"{"aps":{"alert":"written"}}"#.write(toFile: folder + "/a.json", atomically: false, encoding: .utf8)
        try #"{"aps":{"alert":"moved"}}"#.write(toFile: f.dir + "/b.apns.tmp", atomically: false, encoding: .utf8)
        try FileManager.default.moveItem(atPath: f.dir + "/b.apns.tmp", toPath: folder + "/b.apns")
        try #"{"aps":"#.write(toFile: folder + "/c.json", atomically: false, encoding: .utf8)
        try "ignored".write(toFile: folder + "/notes.txt", atomically: false, encoding: .utf8)
        #expect(waitFor { f.store.count == 3 })
        // No duplicate comes later: a last file is taken in after every event (or scan) of the
        // others, so once it is stored, a duplicate would be too.
        try #"{"aps":{"alert":"last"}}"#.write(toFile: folder + "/z-last.json", atomically: false, encoding: .utf8)
        #expect(waitFor { f.store.count >= 4 })
        let stored = try f.store.history().filter { !$0.file!.hasSuffix("z-last.json") }
        #expect(stored.count == 3, "stored: \(stored.map { ($0.file ?? "?") + " (" + ($0.reason ?? "ok") + ")" })")
        #expect(Set(stored.map { ($0.file! as NSString).lastPathComponent }) == ["a.json", "b.apns", "c.json"])
        #expect(stored.allSatisfy { $0.source == .folder })
        #expect(stored.first { $0.file!.hasSuffix("c.json") }?.reason == "PayloadEmpty")
        // Files are never modified or deleted.
        #expect(try String(contentsOfFile: folder + "/a.json", encoding: .utf8) == #"{"aps":{"alert":"written"}}"#)
    }

    @Test(
        "a watched folder deleted while watched: the watch says so once and ends; the other folder is still watched; stop is clean",
        arguments: [false, true])
    func folderDeleted(polling: Bool) throws {
        let gone = "/tmp/pbw-\(UUID().uuidString.prefix(8))"
        let kept = gone + "-kept"
        for folder in [gone, kept] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        defer { for folder in [gone, kept] { try? FileManager.default.removeItem(atPath: folder) } }
        let f = try IntakeFixture(bundleID: nil)
        let messages = Locked<[String]>([])
        let watcher = try FolderWatcher(
            folders: [gone, kept], service: f.server.service, forcePolling: polling,
            onFolderGone: { message in messages.withLock { $0.append(message) } })
        try FileManager.default.removeItem(atPath: gone)
        #expect(waitFor { !messages.withLock { $0 }.isEmpty })
        #expect(messages.withLock { $0 } == [FolderWatcher.goneMessage(gone)])
        try #"{"aps":{"alert":"still watched"}}"#.write(toFile: kept + "/a.json", atomically: false, encoding: .utf8)
        #expect(waitFor { f.store.count == 1 })
        watcher.stop()
        #expect(messages.withLock { $0 }.count == 1)
    }

    @Test("the last watched folder deleted: the watch's thread ends on its own, and stop still returns")
    func lastFolderDeleted() throws {
        let gone = "/tmp/pbw-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: gone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: gone) }
        let f = try IntakeFixture(bundleID: nil)
        let messages = Locked<[String]>([])
        let watcher = try FolderWatcher(
            folders: [gone], service: f.server.service, onFolderGone: { message in messages.withLock { $0.append(message) } })
        try FileManager.default.removeItem(atPath: gone)
        #expect(waitFor { messages.withLock { $0 }.count == 1 })
        watcher.stop()
    }

    @Test("files already there are ingested at start, and not again after a restart")
    func restart() throws {
        let folder = "/tmp/pbw-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{"aps":{"alert":"old"}}"#.write(toFile: folder + "/old.json", atomically: false, encoding: .utf8)
        let dbDir = "/tmp/pbd-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dbDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dbDir) }
        for round in 1...2 {
            let store = try PushboxStore.InboxStore(path: dbDir + "/inbox.sqlite")
            let service = IntakeService(store: store, context: ValidationContext(), renderings: nil)
            var options = IntakeServer.Options(socketPath: dbDir + "/s\(round).sock")
            options.watch = [folder]
            let server = try IntakeServer(service: service, options: options)
            server.stop()
            #expect(store.count == 1, "round \(round)")
        }
        // A changed file is new content: ingested again.
        try #"{"aps":{"alert":"changed"}}"#.write(toFile: folder + "/old.json", atomically: false, encoding: .utf8)
        let store = try PushboxStore.InboxStore(path: dbDir + "/inbox.sqlite")
        let server = try IntakeServer(
            service: IntakeService(store: store, context: ValidationContext(), renderings: nil),
            options: {
                var o = IntakeServer.Options(socketPath: dbDir + "/s3.sock")
                o.watch = [folder]
                return o
            }())
        server.stop()
        #expect(store.count == 2)
    }
}
