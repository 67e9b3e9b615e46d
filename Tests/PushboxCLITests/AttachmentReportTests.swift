import Foundation
import PushboxJSON
import PushboxLoopback
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// An attachment that is not shown says why where people look — render's text, the card's
/// warnings, `--json`'s diagnostics — and one read from the cache says so; `--no-cache` downloads.
@Suite("Attachments said where people look", .serialized)
struct AttachmentReportTests {
    static let png = Array(FileManager.default.contents(atPath: ProjectPaths.samples + "/media/lighthouse.png") ?? Data())

    /// A server with an HTML page under a .png name, a missing image and a real one.
    static func server() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { path in
            switch path {
            case "/page.png": .init(headers: [("Content-Type", "image/png")], body: Array("<html><body>not an image</body></html>".utf8))
            case "/real.png": .init(headers: [("Content-Type", "image/png")], body: Self.png)
            default: .init(status: 404, body: Array("not found".utf8))
            }
        }
    }

    func payload(_ url: String) -> String {
        #"{"aps":{"alert":{"title":"Photo","body":"Look"},"mutable-content":1},"image":"\#(url)"}"#
    }

    @Test("HTML under a .png name and a 404: render's text and its JSON say the image was not attached, and why")
    func dropsAreSaid() throws {
        let server = try Self.server()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("pbattach-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        for (path, why) in [("/page.png", "page.png is not a JPEG, PNG"), ("/missing.png", "HTTP status 404")] {
            let text = CLIRun(["render", "--cache", cache, "-"], stdin: payload(server.baseURL + path))
            #expect(text.out.contains("warning: image not attached: \(why)"), "\(text.out)")
            #expect(!text.out.contains("attach failed") && !text.out.contains("attach dropped"), "said twice: \(text.out)")
            let json = try #require(
                try JSONParser.parse(Array(CLIRun(["render", "--json", "--cache", cache, "-"], stdin: payload(server.baseURL + path)).lines[0].utf8))
                    .objectValue)
            let diagnostics = json["diagnostics"]?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(diagnostics.contains { $0["code"] == "attachment" && ($0["message"]?.stringValue ?? "").contains(why) }, "\(diagnostics)")
        }
    }

    @Test("the second render reads the cache and says so; --no-cache downloads the image again")
    func cacheIsSaid() throws {
        let server = try Self.server()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("pbattach-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let image = payload(server.baseURL + "/real.png")
        let first = CLIRun(["render", "--cache", cache, "-"], stdin: image)
        #expect(first.out.contains("attachment: ") && !first.out.contains("from the cache"), "\(first.out)")
        let second = CLIRun(["render", "--cache", cache, "-"], stdin: image)
        #expect(second.out.contains("(from the cache; --no-cache downloads it again)"), "\(second.out)")
        #expect(server.requestedPaths.count == 1)
        let again = CLIRun(["render", "--cache", cache, "--no-cache", "-"], stdin: image)
        #expect(again.out.contains("attachment: ") && !again.out.contains("from the cache"), "\(again.out)")
        #expect(server.requestedPaths.count == 2)
    }
}
