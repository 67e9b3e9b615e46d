import Foundation
import PushboxIntake
import PushboxJSON
import PushboxStore
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// Commands that read or write files say when they could not, instead of reporting success.
/// (The tests run as root in CI, so a path through a regular file stands in for a folder that
/// cannot be made or read.)
@Suite("File failures are reported, not hidden")
final class FileFailureTests {
    let dir = NSTemporaryDirectory() + "pushbox-filefail-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    var plainFile: String { dir + "/plain" }

    init() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "not a folder".write(toFile: plainFile, atomically: true, encoding: .utf8)
    }
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    @Test("export into a folder that cannot be made: exit 2 with the reason, not \"wrote 0\"")
    func exportFolder() throws {
        _ = try InboxStore(path: dir + "/inbox.db")  // an inbox there: export refuses a --db that names none
        let run = CLIRun(["export", "--db", dir + "/inbox.db", plainFile + "/out"])
        #expect(run.status == 2)
        #expect(run.err.contains("cannot create the folder \(plainFile)/out"))
        #expect(!run.out.contains("wrote"))
    }

    @Test("replay of a folder that cannot be read: exit 2 with the reason")
    func replayFolder() {
        let run = CLIRun(["replay", "--socket", dir + "/none.sock", plainFile])
        #expect(run.status == 2)
        #expect(run.err.contains("cannot read the folder \(plainFile)"))
    }

    @Test("service-account keys that cannot be used are named, each with why its assertions go unverified")
    func accountKeys() throws {
        let keys = dir + "/keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        try "-----BEGIN PUBLIC KEY-----\nnot base64\n-----END PUBLIC KEY-----\n".write(
            toFile: keys + "/abc123.pem", atomically: true, encoding: .utf8)
        let (loaded, problems) = FCMEndpoint.loadAccountKeys(keys)
        #expect(loaded.isEmpty)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("abc123.pem") == true && problems.first?.contains("not verified") == true)
        #expect(FCMEndpoint.loadAccountKeys(dir + "/missing").problems.isEmpty)  // no folder yet: nothing to say
        #expect(FCMEndpoint.loadAccountKeys(plainFile).problems.first?.contains("cannot read") == true)
    }

    @Test("an attachment cache that cannot be written: the notification still renders, with a warning that names the folder and why")
    func cacheUnwritable() throws {
        let run = CLIRun(["render", "--json", "--cache", plainFile + "/attachments", ProjectPaths.samples + "/05-rich-image.json"])
        #expect(run.status == 0)
        let rendered = try #require(try JSONParser.parse(Array(run.out.utf8)).objectValue)
        #expect(rendered["body"] == "Ana shared a photo with you")
        #expect(rendered["attachments"] == .array([]))
        let warnings = rendered["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(
            warnings.contains(
                "the attachment cache \(plainFile)/attachments cannot be written: Not a directory (\(plainFile)/attachments); the notification is shown without its attachment"
            ), "\(warnings)")
    }
}
