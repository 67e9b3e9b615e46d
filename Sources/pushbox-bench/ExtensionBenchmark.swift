import Foundation
import PushboxFetch
import PushboxLocalization
import PushboxLoopback
import PushboxPayload
import PushboxRendering

/// `pushbox-bench extension`: notifications with attachments from a loopback server, through
/// the whole renderer (validation, localization, the extension), with a cold and a warm cache.
enum ExtensionBenchmark {
    static func run(count: Int, samples: String?) {
        guard let samples, let png = FileManager.default.contents(atPath: samples + "/media/lighthouse.png") else {
            print("error: sample-payloads/media/lighthouse.png not found; run from the project root")
            exit(1)
        }
        let body = Array(png)
        guard let server = try? LoopbackHTTPServer(handler: { _ in .init(headers: [("Content-Type", "image/png")], body: body) }) else {
            print("error: cannot start the loopback server")
            exit(1)
        }
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-bench-cache-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let app = samples + "/SampleApp"
        let profile = try? AppProfile.load(directory: app)
        let localizer = Localizer(app: AppLocalizations(directory: app))
        let setup = Renderer.ExtensionSetup(
            recipe: profile?.recipe ?? .defaultRecipe(keyGiven: false),
            fetcher: AttachmentFetcher(cacheDirectory: cache, allowedRoots: [samples]),
            appDirectory: app, keyFile: nil)
        let renderer = Renderer(
            context: ValidationContext(), preferredLanguages: ["ko-KR", "en"], localizer: localizer,
            categories: profile?.categories ?? [], extensionSetup: setup)
        // Each notification its own image URL (a cold cache downloads every one).
        let payloads = (0..<count).map { i in
            RawPayload(
                bytes: Array(
                    #"{"aps":{"alert":{"title":"New post","body":"…"},"mutable-content":1,"data":{"subsMsgTitleKey":"FEED_POST_TITLE","subsMsgBodyKey":"FEED_POST_BODY","subsMsgArgs":["Mina","Busan"]}},"image":"\#(server.baseURL)/img/\#(i).png"}"#
                        .utf8),
                envelope: Envelope(source: .commandLine))
        }
        print("pushbox-bench extension: \(count) notifications, each localized from custom keys with a \(body.count)-byte PNG from \(server.baseURL)")
        for pass in ["cold cache", "warm cache"] {
            let before = server.requestedPaths.count
            var times: [Double] = []
            times.reserveCapacity(count)
            var modified = 0
            let clock = ContinuousClock()
            let start = clock.now
            for p in payloads {
                let t0 = clock.now
                let note = renderer.render(p)
                times.append(seconds(clock.now - t0))
                if note.delivered == .modified, note.attachments.count == 1 { modified += 1 }
            }
            let total = seconds(clock.now - start)
            times.sort()
            let p50 = times[times.count / 2] * 1000
            let p99 = times[min(times.count - 1, times.count * 99 / 100)] * 1000
            let downloads = server.requestedPaths.count - before
            print(
                String(
                    format: "  %@: %7.0f notifications/s   p50 %6.2f ms   p99 %6.2f ms   %d downloads   %d/%d with their attachment",
                    pass, Double(count) / total, p50, p99, downloads, modified, count))
            guard modified == count else {
                print("error: not every notification got its attachment")
                exit(1)
            }
        }
    }

    static func seconds(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) + Double(atto) / 1e18
    }
}
