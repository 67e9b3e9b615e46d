import Foundation
import PushboxPayload
import Testing

@testable import PushboxStore

/// Faults from outside: a file that is no inbox, a database another program holds. Each ends in
/// a message that names the file and says what to do, not SQLite's words alone.
@Suite("The inbox when its file is damaged or held by another program")
final class StoreFaultTests {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-storefault-\(UUID().uuidString)").path

    init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    @Test("a file that is not a database, or a damaged one: the message names the file and says to move it aside", arguments: ["random", "header"])
    func notAnInbox(_ kind: String) throws {
        let path = dir + "/inbox.sqlite"
        // Random bytes, or SQLite's magic followed by garbage (a damaged database).
        let bytes =
            kind == "random"
            ? (0..<8192).map { _ in UInt8.random(in: 0...255) }
            : Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xA5, count: 8176)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        #expect { try InboxStore(path: path) } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .notAnInbox && error.message.contains(path) && error.message.contains("move it aside")
        }
        // The file is left as it was, for the user to look at.
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))
    }

    @Test("a place the inbox cannot be made (under a file, even for root): a clear error at start, naming the file and what to do")
    func unwritable() throws {
        let blocker = dir + "/a-file"
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        // Its folder cannot be made, or the folder is there and the file cannot be (a folder of that name).
        try FileManager.default.createDirectory(atPath: dir + "/taken.sqlite", withIntermediateDirectories: true)
        for path in [blocker + "/inbox.sqlite", dir + "/taken.sqlite"] {
            #expect { try InboxStore(path: path) } throws: { error in
                guard let error = error as? StoreError else { return false }
                return error.kind == .unwritable && error.message.contains(path)
            }
        }
    }

    @Test("a database another program holds locked: after the busy wait, the message names the file and the other program")
    func lockedByAnother() throws {
        let path = dir + "/held.sqlite"
        // Another connection (in rollback-journal mode, as most SQLite tools leave a file) holds an
        // exclusive lock, so pushbox cannot even switch the file to WAL.
        let other = try SQLiteConnection(path: path)
        try other.execute("CREATE TABLE t(x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);")
        #expect { try InboxStore(path: path) } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .locked && error.message.contains(path) && error.message.contains("locked by another program")
        }
        try other.execute("COMMIT")
        let store = try InboxStore(path: path)  // released: it opens
        #expect(store.journalMode == "wal")
    }
}
