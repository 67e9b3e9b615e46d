import Foundation
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering

/// `pushbox-bench render`: what `pushbox serve`'s background rendering costs per notification,
/// step by step, for the intake benchmark's payloads with the bundled sample app (serve's
/// default app): validation, rendering with the intake's report, and the JSON stored.
enum RenderBenchmark {
    static func run(count: Int, samples: String?) {
        guard let samples else {
            print("error: sample-payloads not found; run from the project root")
            exit(1)
        }
        let app = samples + "/SampleApp"
        let profile = try? AppProfile.load(directory: app)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-bench-cache-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let setup = Renderer.ExtensionSetup(
            recipe: profile?.recipe ?? .defaultRecipe(keyGiven: false),
            fetcher: AttachmentFetcher(cacheDirectory: cache, allowedRoots: [samples]),
            appDirectory: app, keyFile: nil)
        let renderer = Renderer(
            context: ValidationContext(), preferredLanguages: ["en"], localizer: Localizer(app: AppLocalizations(directory: app)),
            categories: profile?.categories ?? [], extensionSetup: setup)
        let raws = (0..<count).map { RawPayload(bytes: Array(SyntheticPayloads.make($0).utf8), envelope: Envelope(source: .socket)) }
        let reports = raws.map { Validator.validate($0, context: renderer.context) }
        let notes = zip(raws, reports).map { renderer.render($0, validated: $1) }
        print("pushbox-bench render: \(count) of the intake benchmark's payloads, the sample app, languages en")

        var sink = 0
        let parse = best(of: 3) { for r in raws where (try? JSONParser.parse(r.bytes)) != nil { sink &+= 1 } }
        let validate = best(of: 3) { for r in raws where Validator.validate(r, context: renderer.context).ok { sink &+= 1 } }
        let render = best(of: 3) { for (r, v) in zip(raws, reports) { sink &+= renderer.render(r, validated: v).trace.count } }
        let write = best(of: 3) { for n in notes { sink &+= JSONWriter.compact(n.json).utf8.count } }
        let bytes = notes.reduce(0) { $0 + JSONWriter.compact($1.json).utf8.count } / count
        let writeStored = best(of: 3) { for n in notes { sink &+= JSONWriter.compact(n.storedJSON).utf8.count } }
        let storedBytes = notes.reduce(0) { $0 + JSONWriter.compact($1.storedJSON).utf8.count } / count
        printSteps(
            [
                ("baseline: strict JSON parse of the payload", parse),
                ("validation (done again past 1,000 waiting)", validate),
                ("rendering with the intake's report", render),
                ("render --json's form (\(bytes) bytes)", write),
                ("the form the store keeps (\(storedBytes) bytes)", writeStored),
            ], count: count)
        if sink == 0 { print("(nothing rendered)") }
    }
}
