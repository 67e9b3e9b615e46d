import Foundation
import PushboxInbox
import PushboxLocalization
import PushboxPayload
import PushboxRendering
import PushboxStore

/// An inbox in a folder of its own, rendering with the bundled sample app in en-US, as the
/// benchmarks that measure the intake's service without `serve` set it up.
struct BenchInbox {
    let folder: String
    let store: InboxStore
    let service: IntakeService

    /// Makes it under the temporary folder (`pushbox-bench-NAME-PID`), or exits saying why.
    static func make(_ name: String, samples: String?) -> BenchInbox {
        guard let samples, let profile = try? AppProfile.load(directory: samples + "/SampleApp") else {
            print("error: sample-payloads not found; run from the project root")
            exit(1)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-bench-\(name)-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard let store = try? InboxStore(path: folder + "/inbox.sqlite") else {
            print("error: cannot open an inbox in \(folder)")
            exit(1)
        }
        let renderer = Renderer(
            context: ValidationContext(), preferredLanguages: ["en-US"],
            localizer: Localizer(app: AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)),
            categories: profile.categories)
        let service = IntakeService(store: store, context: renderer.context, renderings: Renderings(base: renderer, store: store))
        return BenchInbox(folder: folder, store: store, service: service)
    }

    /// Removes its folder.
    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
