import Foundation
import PushboxLoopback
import PushboxPayload
import Testing

@testable import PushboxFetch

@Suite("Attachments over a real loopback HTTP server")
final class AttachmentFetcherTests {
    let cache = Media.temporaryDirectory("cache")
    let roots = Media.temporaryDirectory("roots")

    // A class, so the folders each test made are removed when it ends, passed or failed.
    deinit {
        try? FileManager.default.removeItem(atPath: cache)
        try? FileManager.default.removeItem(atPath: roots)
    }

    var fetcher: AttachmentFetcher { AttachmentFetcher(cacheDirectory: cache, allowedRoots: [roots]) }

    func fetch(_ url: String, timeoutMs: Int = 5000) -> Result<FetchedAttachment, AttachmentFailure> {
        fetcher.fetch(url, timeoutMs: timeoutMs, cancel: CancelFlag())
    }

    @Test("an image is typed from its bytes, sized from its header, and saved with the right extension")
    func image() throws {
        let png = Media.png(width: 64, height: 48)
        let server = try LoopbackHTTPServer { _ in .init(headers: [("Content-Type", "image/png")], body: png) }
        defer { server.stop() }
        let a = try fetch(server.baseURL + "/photo.png").get()
        #expect(a.type == .png)
        #expect(a.bytes == png.count)
        #expect(a.width == 64 && a.height == 48)
        #expect(a.path.hasSuffix(".png"))
        #expect(FileManager.default.contents(atPath: a.path).map(Array.init) == png)
        #expect(a.warnings.isEmpty)
    }

    @Test("a file named .png holding GIF bytes is typed as GIF, with a warning")
    func lyingExtension() throws {
        let server = try LoopbackHTTPServer { _ in .init(headers: [("Content-Type", "image/png")], body: Media.gif) }
        defer { server.stop() }
        let a = try fetch(server.baseURL + "/cat.png").get()
        #expect(a.type == .gif)
        #expect(a.path.hasSuffix(".gif"))
        #expect(a.warnings.contains { $0.contains("named .png but holds image/gif") })
        #expect(a.warnings.contains { $0.contains("the server says image/png") })
    }

    @Test("an oversize image is dropped after at most the cap plus one chunk")
    func oversize() throws {
        let chunk = 65536
        let body = Media.pngHeader(width: 100, height: 100) + [UInt8](repeating: 0, count: 12_000_000)
        let server = try LoopbackHTTPServer { _ in .init(body: body, chunkSize: chunk) }
        defer { server.stop() }
        guard case .failure(.download(.tooLarge(let limit, let received))) = fetch(server.baseURL + "/huge.png") else {
            Issue.record("not refused as too large")
            return
        }
        #expect(limit == MediaType.cap(for: .image))
        #expect(received > limit && received <= limit + chunk)
    }

    @Test("a redirect loop stops after 5 redirects")
    func redirectLoop() throws {
        let server = try LoopbackHTTPServer { path in .redirect(to: path == "/a" ? "/b" : "/a") }
        defer { server.stop() }
        guard case .failure(.download(.tooManyRedirects(5))) = fetch(server.baseURL + "/a") else {
            Issue.record("the loop was followed")
            return
        }
        #expect(server.requestedPaths.count == 6)
    }

    @Test("a redirect to a file URL or another scheme is refused")
    func redirectScheme() throws {
        let server = try LoopbackHTTPServer { _ in .redirect(to: "file:///etc/passwd") }
        defer { server.stop() }
        guard case .failure(.download(let e)) = fetch(server.baseURL + "/x") else {
            Issue.record("followed")
            return
        }
        #expect(e == .schemeRefused("http") || "\(e)".contains("scheme") || "\(e)".contains("protocol"), "\(e)")
        guard case .failure(.download(.schemeRefused("ftp"))) = fetch("ftp://127.0.0.1/x.png") else {
            Issue.record("ftp allowed")
            return
        }
    }

    @Test("file URLs work under an allowed root and are refused outside it, symlinks included")
    func fileRoots() throws {
        let inside = roots + "/in.png"
        try Data(Media.png(width: 2, height: 2)).write(to: URL(fileURLWithPath: inside))
        #expect(try fetch(URL(fileURLWithPath: inside).absoluteString).get().width == 2)
        let outsideDir = Media.temporaryDirectory("outside")
        defer { try? FileManager.default.removeItem(atPath: outsideDir) }
        let outside = outsideDir + "/out.png"
        try Data(Media.png(width: 2, height: 2)).write(to: URL(fileURLWithPath: outside))
        guard case .failure(.refused(let why)) = fetch(URL(fileURLWithPath: outside).absoluteString) else {
            Issue.record("allowed")
            return
        }
        #expect(why.contains("outside the allowed folders"))
        try FileManager.default.createSymbolicLink(atPath: roots + "/link.png", withDestinationPath: outside)
        guard case .failure(.refused) = fetch(URL(fileURLWithPath: roots + "/link.png").absoluteString) else {
            Issue.record("symlink escaped")
            return
        }
    }

    @Test("the second identical download is served from the cache")
    func cached() throws {
        let server = try LoopbackHTTPServer { _ in .init(body: Media.png(width: 8, height: 8)) }
        defer { server.stop() }
        let first = try fetch(server.baseURL + "/same.png").get()
        let second = try fetch(server.baseURL + "/same.png").get()
        #expect(!first.fromCache && second.fromCache)
        #expect(first.path == second.path)
        #expect(second.width == 8)
        #expect(server.requestedPaths == ["/same.png"])
    }

    @Test(
        "a device downloads for itself: an image the cache holds from a slow download is late for a shorter deadline (Android's 5 s after the iPhone's 30 s)"
    )
    func cachedButSlow() throws {
        // About 600 ms: the image in 4 pieces, 150 ms apart.
        let image = Media.png(width: 8, height: 8)
        let server = try LoopbackHTTPServer { _ in .init(body: image, chunkSize: (image.count + 3) / 4, chunkDelay: 0.15) }
        defer { server.stop() }
        let first = try fetch(server.baseURL + "/slow.png", timeoutMs: 30_000).get()
        let took = try #require(first.downloadMs)
        #expect(took >= 400, "the download took \(took) ms")
        // The same image again: with a roomier deadline from the cache, with a tighter one late.
        let again = try fetch(server.baseURL + "/slow.png", timeoutMs: 30_000).get()
        #expect(again.fromCache && again.downloadMs == took)
        guard case .failure(.download(.timedOut(let ms))) = fetch(server.baseURL + "/slow.png", timeoutMs: took / 2) else {
            Issue.record("a cached image whose download took \(took) ms was on time for a \(took / 2) ms deadline")
            return
        }
        #expect(ms == took / 2)
        #expect(server.requestedPaths == ["/slow.png"])
    }

    @Test("unsupported and corrupt files are dropped; huge pixel counts refused before decoding")
    func dropped() throws {
        let server = try LoopbackHTTPServer { path in
            switch path {
            case "/text": return .init(body: Array("just text, not media".utf8))
            case "/broken.png": return .init(body: Array(Media.png(width: 4, height: 4).prefix(12)))
            default: return .init(body: Media.pngHeader(width: 12_000, height: 9_000) + [UInt8](repeating: 0, count: 64))
            }
        }
        defer { server.stop() }
        guard case .failure(.unsupported) = fetch(server.baseURL + "/text") else {
            Issue.record("text accepted")
            return
        }
        let broken = fetch(server.baseURL + "/broken.png")
        guard case .failure(.corrupt) = broken else {
            Issue.record("corrupt accepted: \(broken)")
            return
        }
        let giant = fetch(server.baseURL + "/giant.png")
        guard case .failure(.tooLarge(let why)) = giant else {
            Issue.record("giant accepted: \(giant)")
            return
        }
        #expect(why.contains("12000×9000 pixels is over 100 megapixels"))
    }

    @Test("a stalled server times out, and a cancel stops a download at once")
    func stalls() throws {
        let server = try LoopbackHTTPServer { _ in .init(stall: true) }
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        guard case .failure(.download(.timedOut)) = fetch(server.baseURL + "/slow", timeoutMs: 300) else {
            Issue.record("no timeout")
            return
        }
        // A deadline, not a speed: the stalled server never answers, so only the timeout (or the
        // cancel below) can end the call; 10 s leaves a loaded 2-core machine all the room it needs.
        #expect(clock.now - start < .seconds(10))
        let cancel = CancelFlag()
        Thread.detachNewThread {
            usleep(200_000)
            cancel.cancel()
        }
        let started = clock.now
        guard case .failure(.download(.cancelled)) = fetcher.fetch(server.baseURL + "/slow2", timeoutMs: 10_000, cancel: cancel) else {
            Issue.record("not cancelled")
            return
        }
        #expect(clock.now - started < .seconds(10))
    }

    @Test(
        "magic numbers of every supported type",
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0], "image/jpeg"), (Array("GIF87a".utf8), "image/gif"), (Array("ID3\u{3}".utf8), "audio/mpeg"),
            ([0xFF, 0xFB, 0x90, 0x00], "audio/mpeg"), (Array("RIFF\0\0\0\0WAVEfmt ".utf8), "audio/wav"),
            (Array("RIFF\0\0\0\0AVI LIST".utf8), "video/x-msvideo"),
            (Array("FORM\0\0\0\0AIFFCOMM".utf8), "audio/aiff"), (Array("\0\0\0\u{20}ftypM4A \0\0".utf8), "audio/mp4"),
            (Array("\0\0\0\u{20}ftypisom\0\0".utf8), "video/mp4"), ([0x00, 0x00, 0x01, 0xBA, 0x44], "video/mpeg"),
        ] as [([UInt8], String)])
    func magic(bytes: [UInt8], mime: String) {
        #expect(MediaType.sniff(bytes)?.mime == mime)
    }
}
