import Foundation
import PushboxCrypto
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxLoopback
import PushboxRendering
import PushboxTestSupport
import Testing

@testable import PushboxPayload

@Suite("The service-extension pipeline")
final class ExtensionPipelineTests {
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-ext-\(UUID().uuidString)").path
    private var keys: [String] = []

    // A class, so what each test made is removed when it ends, passed or failed.
    deinit {
        try? FileManager.default.removeItem(atPath: cache)
        for key in keys { try? FileManager.default.removeItem(atPath: key) }
    }

    static let png: [UInt8] = {
        // The bundled sample image: a real 320×200 PNG.
        Array(FileManager.default.contents(atPath: ProjectPaths.samples + "/media/lighthouse.png") ?? Data())
    }()

    func setup(_ recipe: ExtensionRecipe, key: String? = nil) -> Renderer.ExtensionSetup {
        Renderer.ExtensionSetup(
            recipe: recipe, fetcher: AttachmentFetcher(cacheDirectory: cache, allowedRoots: [ProjectPaths.samples]),
            appDirectory: ProjectPaths.samples + "/SampleApp", keyFile: key)
    }

    func render(_ text: String, recipe: ExtensionRecipe, key: String? = nil, languages: [String] = ["en"]) -> RenderedNotification {
        let app = AppLocalizations(directory: ProjectPaths.samples + "/SampleApp")
        let renderer = Renderer(
            context: ValidationContext(), preferredLanguages: languages, localizer: Localizer(app: app),
            extensionSetup: setup(recipe, key: key))
        return renderer.render(raw(text))
    }

    static let localizeStep = ExtensionRecipe.PlannedStep(.localize(.init(titleKey: "data.t", bodyKey: "data.b", args: "data.args")), critical: true)
    static let attachStep = ExtensionRecipe.PlannedStep(.attach(candidates: ["image"]), critical: false)

    func payload(image: String) -> String {
        #"{"aps":{"alert":{"title":"orig title","body":"orig body"},"mutable-content":1},"data":{"t":"FEED_POST_TITLE","b":"FEED_POST_BODY","args":["Mina","Busan"]},"image":"\#(image)"}"#
    }

    @Test("no extension runs without mutable-content 1 or without a visible alert")
    func onlyWhenIOSWould() {
        let recipe = ExtensionRecipe(steps: [Self.localizeStep])
        let plain = render(#"{"aps":{"alert":"hi"},"data":{"t":"FEED_POST_TITLE"}}"#, recipe: recipe)
        #expect(plain.delivered == .original)
        #expect(plain.body == "hi")
        #expect(plain.trace.contains { $0.step == .`extension` && $0.outcome == .notRun && $0.cause == .noMutableContent })
        let silent = render(#"{"aps":{"content-available":1,"mutable-content":1},"data":{"t":"FEED_POST_TITLE"}}"#, recipe: recipe)
        #expect(silent.trace.contains { $0.outcome == .notRun && $0.cause == .nothingVisible })
    }

    @Test("custom keys none of which is translated: the step names them, with no empty list before them")
    func everyKeyMissing() {
        let recipe = ExtensionRecipe(steps: [Self.localizeStep])
        let note = render(
            #"{"aps":{"alert":{"title":"t","body":"b"},"mutable-content":1},"data":{"t":"NO_SUCH_TITLE","b":"NO_SUCH_BODY"}}"#, recipe: recipe,
            languages: ["es"])
        let step = note.trace.first { $0.outcome == .missingKeys }
        let detail = step?.detail ?? ""
        #expect(detail.hasSuffix("in es: missing (shown as the key): NO_SUCH_TITLE, NO_SUCH_BODY") && !detail.contains(": ;"), "\(detail)")
    }

    @Test("custom keys localize in ko and en, and an attachment is added: delivered modified")
    func modified() throws {
        let server = try LoopbackHTTPServer { _ in .init(headers: [("Content-Type", "image/png")], body: Self.png) }
        defer { server.stop() }
        let recipe = ExtensionRecipe(steps: [Self.localizeStep, Self.attachStep])
        let ko = render(payload(image: server.baseURL + "/a.png"), recipe: recipe, languages: ["ko-KR"])
        #expect(ko.delivered == .modified)
        #expect(ko.title == "Mina 님이 새 글을 공유했습니다")
        #expect(ko.body == "Busan에서 Mina 님이 글을 올렸습니다. 탭하여 읽어 보세요.")
        let a = try #require(ko.attachments.first)
        #expect(a.type == "image/png" && a.width == 320 && a.height == 200 && a.bytes == Self.png.count)
        let en = render(payload(image: server.baseURL + "/a.png"), recipe: recipe, languages: ["en"])
        #expect(en.title == "Mina shared a new post")
        #expect(en.body == "Mina posted from Busan. Tap to read it.")
    }

    @Test("a stalled server: the best attempt is handed over within the time limit plus 0.5 s")
    func stalledBestAttempt() throws {
        let server = try LoopbackHTTPServer { _ in .init(stall: true) }
        defer { server.stop() }
        var recipe = ExtensionRecipe(steps: [Self.localizeStep, Self.attachStep])
        recipe.timeLimit = 1
        let clock = ContinuousClock()
        let start = clock.now
        let note = render(payload(image: server.baseURL + "/slow.png"), recipe: recipe)
        let elapsed = clock.now - start
        #expect(elapsed < .milliseconds(1500), "took \(elapsed)")
        #expect(elapsed >= .milliseconds(900))
        #expect(note.delivered == .bestAttempt)
        #expect(note.title == "Mina shared a new post")
        #expect(note.attachments.isEmpty)
        let deadline = try #require(note.trace.first { $0.step == .deadline })
        #expect(deadline.outcome == .expired && deadline.cause == .timeLimit)
        #expect(deadline.detail.contains(ExtensionRecipe.Step.attach(candidates: []).name))  // the step it cut short, by name
    }

    @Test("with the original fallback, a timeout shows the original content")
    func stalledOriginal() throws {
        let server = try LoopbackHTTPServer { _ in .init(stall: true) }
        defer { server.stop() }
        var recipe = ExtensionRecipe(steps: [Self.localizeStep, Self.attachStep], fallback: .original)
        recipe.timeLimit = 0.5
        let note = render(payload(image: server.baseURL + "/slow.png"), recipe: recipe)
        #expect(note.delivered == .original)
        #expect(note.title == "orig title")
    }

    @Test("tampered ciphertext fails the critical decrypt: the fallback applies and the trace says why")
    func tamperedCiphertext() throws {
        let keyPath = try temporaryKey()
        let key = try KeyFile.load(keyPath)
        var sealed = try AESGCM.seal(Array(#"{"title":"secret"}"#.utf8), key: key)
        sealed[15] ^= 0xFF
        let text = #"{"aps":{"alert":{"body":"placeholder"},"mutable-content":1},"encrypted_data":"\#(Data(sealed).base64EncodedString())"}"#
        let note = render(text, recipe: .defaultRecipe(keyGiven: true), key: keyPath)
        #expect(note.delivered == .bestAttempt)
        #expect(note.body == "placeholder")
        #expect(note.trace.contains { $0.step == .decrypt && $0.outcome == .failed && $0.cause == .authenticationFailed })
        #expect(note.trace.contains { $0.step == .`extension` && $0.outcome == .failed && $0.cause == .criticalStepFailed })
        let badBase64 = render(
            #"{"aps":{"alert":{"body":"p"},"mutable-content":1},"encrypted_data":"%%%"}"#, recipe: .defaultRecipe(keyGiven: true), key: keyPath)
        #expect(badBase64.trace.contains { $0.step == .decrypt && $0.cause == .badBase64 })
    }

    @Test("a key file readable by others is refused by the decrypt step")
    func looseKey() throws {
        let keyPath = try temporaryKey()
        chmod(keyPath, 0o644)
        let note = render(
            #"{"aps":{"alert":{"body":"p"},"mutable-content":1},"encrypted_data":"AAAA"}"#, recipe: .defaultRecipe(keyGiven: true), key: keyPath)
        #expect(note.trace.contains { $0.step == .decrypt && $0.cause == .keyFilePermissions })
    }

    @Test("the sample encrypted payload renders decrypted with the sample key")
    func sampleEncrypted() throws {
        let key = ProjectPaths.samples + "/SampleApp/keys/sample.key"
        chmod(key, 0o600)  // git keeps 0644; `make` sets 0600 as well
        let profile = try AppProfile.load(directory: ProjectPaths.samples + "/SampleApp")
        let text = try String(contentsOfFile: ProjectPaths.samples + "/11-encrypted.json", encoding: .utf8)
        let note = render(text, recipe: try #require(profile.recipe))
        #expect(note.delivered == .modified)
        #expect(note.title == "Mina")
        #expect(note.body?.hasPrefix("Table for two") == true)
    }

    @Test("the default recipe attaches from image, media_url, attachment-url or fcm_options.image")
    func defaultRecipe() throws {
        let server = try LoopbackHTTPServer { _ in .init(body: Self.png) }
        defer { server.stop() }
        #expect(ExtensionRecipe.defaultRecipe(keyGiven: false).steps.map(\.step.name) == ["attach"])
        let fcm =
            #"{"message":{"token":"t","notification":{"title":"T","body":"B","image":"\#(server.baseURL)/f.png"},"apns":{"payload":{"aps":{"mutable-content":1}}}}}"#
        let note = render(fcm, recipe: .defaultRecipe(keyGiven: false))
        #expect(note.attachments.first?.source == server.baseURL + "/f.png")
        #expect(note.delivered == .modified)
    }

    func temporaryKey() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-key-\(UUID().uuidString).key").path
        _ = try KeyFile.generate(path)
        keys.append(path)
        return path
    }
}

@Suite("Rendered notifications as JSON")
struct RenderedJSONTests {
    @Test("what json writes, init(json:) reads back")
    func roundTrip() throws {
        var n = RenderedNotification(delivered: .bestAttempt)
        n.title = "게임 초대"
        n.body = "body\nline"
        n.language = "ko"
        n.badge = 3
        n.attachments = [RenderedAttachment(path: "/c/x.png", type: "image/png", bytes: 10, width: 2, height: 3, source: "https://x/y.png")]
        n.actions = [RenderedAction(identifier: "STOP", title: "중지", options: [.destructive])]
        n.warnings = [Diagnostic(.missingKey, "w", key: "K", language: "ko")]
        n.trace = [TraceEntry(step: .decrypt, ms: 1.5, outcome: .ok, detail: "d")]
        let text = JSONWriter.compact(n.json)
        let object = try #require(try JSONParser.parse(Array(text.utf8)).objectValue)
        let back = try #require(RenderedNotification(json: object))
        #expect(JSONWriter.compact(back.json) == text)
    }

    @Test("the stored form leaves out nulls, empty lists and the repeated warnings, and reads back the same")
    func storedForm() throws {
        var n = RenderedNotification(delivered: .original)
        n.title = "t"
        n.warnings = [Diagnostic(.unknownCategory, "category \"X\" is unknown", field: "aps.category")]
        n.trace = [TraceEntry(step: .validate, ms: 0.1, outcome: .accepted, detail: "APNs payload")]
        let stored = try #require(n.storedJSON.objectValue)
        #expect(stored.keys == ["title", "delivered", "status", "diagnostics", "trace"])
        let read = try #require(try JSONParser.parse(Array(JSONWriter.compact(.object(stored)).utf8)).objectValue)
        let back = try #require(RenderedNotification(json: read))
        #expect(JSONWriter.compact(back.json) == JSONWriter.compact(n.json))
        #expect(back.warnings.map(\.code) == [.unknownCategory])
    }
}
