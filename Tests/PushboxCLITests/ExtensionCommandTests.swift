import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

@Suite("keygen, encrypt, and render with the extension")
struct ExtensionCommandTests {
    func object(_ line: String) throws -> JSONObject {
        try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
    }

    @Test("keygen, then encrypt a payload, then render it decrypted with --key")
    func roundTrip() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(CLIRun(["keygen", dir + "/k.key"]).status == 0)
        #expect(CLIRun(["keygen", dir + "/k.key"]).status == 1)
        let plain = #"{"aps":{"alert":{"title":"Secret","body":"Meet at 8"}}}"#
        let encrypted = CLIRun(["encrypt", "--key", dir + "/k.key", "-"], stdin: plain)
        #expect(encrypted.status == 0)
        #expect(!encrypted.out.contains("Meet at 8"))
        let payload = try object(encrypted.out.replacingOccurrences(of: "\n", with: ""))
        #expect(payload.value(atPath: "aps.mutable-content") == .number("1"))
        let rendered = try object(CLIRun(["render", "--json", "--app", dir, "--key", dir + "/k.key", "-"], stdin: encrypted.out).lines[0])
        #expect(rendered["delivered"] == "modified")
        #expect(rendered["title"] == "Secret")
        #expect(rendered["body"] == "Meet at 8")
        let withoutKey = try object(CLIRun(["render", "--json", "--app", dir, "-"], stdin: encrypted.out).lines[0])
        #expect(withoutKey["body"] == "New message")
    }

    @Test("the image sample renders with its attachment's type, size and pixel size, and the alarm with its actions")
    func samples() throws {
        let run = CLIRun(["render", "--json", ProjectPaths.samples + "/05-rich-image.json", ProjectPaths.samples + "/06-alarm.json"])
        let image = try object(run.lines[0])
        #expect(image["delivered"] == "modified")
        let a = try #require(image["attachments"]?.arrayValue?.first?.objectValue)
        #expect(a["type"] == "image/png")
        #expect(a["width"] == .number("320") && a["height"] == .number("200"))
        #expect(a["bytes"]?.intValue == 1522)
        #expect(a["source"]?.stringValue?.hasSuffix("sample-payloads/media/lighthouse.png") == true)
        let alarm = try object(run.lines[1])
        let actions = try #require(alarm["actions"]?.arrayValue)
        #expect(actions.map { $0.objectValue?["title"]?.stringValue } == ["Stop", "Snooze"])
        #expect(actions.first?.objectValue?["options"] == .array(["destructive"]))
    }

    @Test("--time-limit and --no-extension are honoured; a bad limit is a usage error")
    func flags() throws {
        let feed = ProjectPaths.samples + "/02-feed-post.json"
        let off = try object(CLIRun(["render", "--json", "--no-extension", feed]).lines[0])
        #expect(off["title"] == "New post")
        let on = try object(CLIRun(["render", "--json", "--time-limit", "5", feed]).lines[0])
        #expect(on["title"] == "Mina shared a new post")
        #expect(on["trace"]?.arrayValue?.contains { $0.objectValue?["detail"]?.stringValue?.contains("5 s, fallback best-attempt") == true } == true)
        #expect(CLIRun(["render", "--time-limit", "0", feed]).status == 2)
    }
}
