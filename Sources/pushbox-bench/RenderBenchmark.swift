import Foundation
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering

/// `pushbox-bench render`: what `pushbox serve`'s background rendering costs per notification,
/// step by step, for the intake benchmark's payloads with the bundled sample app (serve's
/// default app): validation, rendering with the intake's report, and the JSON stored; then a
/// localized body of 200,000 characters against a short one.
enum RenderBenchmark {
    static func run(count: Int, samples: String?, markdown: String? = nil) {
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
            ], count: count, block: "render", command: "pushbox-bench render \(count)", markdown: markdown)
        if sink == 0 { print("(nothing rendered)") }
        longText()
    }

    /// A localized body of 200,000 characters with no break opportunity (a token, a URL, a
    /// hostile `.strings` entry) against a short one, rendered with the same app and judged under
    /// the banner preview, as `pushbox render` does: the wrap and truncation must stay linear in
    /// the text's length.
    static func longText() {
        let app = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-bench-long-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: app) }
        let long = 200_000
        let strings = "\"SHORT\" = \"Your order has shipped\";\n\"LONG\" = \"\(String(repeating: "x", count: long))\";\n"
        do {
            try FileManager.default.createDirectory(atPath: app + "/Resources/en.lproj", withIntermediateDirectories: true)
            try strings.write(toFile: app + "/Resources/en.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        } catch {
            print("error: cannot write the long-text app in \(app): \(error)")
            exit(1)
        }
        let renderer = Renderer(context: ValidationContext(), preferredLanguages: ["en"], localizer: Localizer(app: AppLocalizations(directory: app)))
        func payload(_ key: String) -> RawPayload {
            RawPayload(bytes: Array(#"{"aps":{"alert":{"title":"Token","loc-key":"\#(key)"}}}"#.utf8), envelope: Envelope(source: .socket))
        }
        var sink = 0
        let short = best(of: 5) { sink &+= renderer.render(payload("SHORT"), validated: nil).judged(under: .banner).trace.count }
        let longTime = best(of: 3) { sink &+= renderer.render(payload("LONG"), validated: nil).judged(under: .banner).trace.count }
        print("a localized body of \(long) characters with no break opportunity, against a short one (22 characters):")
        print(
            String(
                format: "  short body %8.3f ms   long body %8.1f ms   %.0f× the time for %.0f× the characters", short * 1e3, longTime * 1e3,
                longTime / short, Double(long) / 22))
        if sink == 0 { print("(nothing rendered)") }
    }
}
