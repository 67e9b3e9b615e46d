import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxPayload

@Suite("Terminal text, app profiles, headers")
struct SupportTests {
    @Test("escape sequences and control characters never pass through")
    func sanitize() {
        #expect(TerminalText.sanitize("a\u{1B}[2Jb") == "a␛[2Jb")
        #expect(TerminalText.sanitize("\u{9B}31m\u{7F}\u{07}") == "⍰31m␡␇")
        #expect(TerminalText.sanitize("l1\nl2\tx") == "l1⏎l2 x")
        #expect(TerminalText.sanitize("l1\nl2", keepNewlines: true) == "l1\nl2")
        #expect(TerminalText.sanitize("한국어 😀 مرحبا") == "한국어 😀 مرحبا")
        // Bidi overrides and isolates cannot make text output print reversed: shown as the TUI shows them.
        #expect(TerminalText.sanitize("invoice\u{202E}fdp.exe\u{202C} \u{2066}x\u{2069}") == "invoice⸿fdp.exe⸿ ⸿x⸿")
        let cleaned = TerminalText.sanitize(String((0..<0x200).compactMap { Unicode.Scalar($0).map(Character.init) }))
        #expect(!cleaned.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test("the sample app's profile loads, with its categories and recipe")
    func sampleProfile() throws {
        let p = try AppProfile.load(directory: ProjectPaths.samples + "/SampleApp")
        #expect(p.category("ALARM")?.actions.map(\.identifier) == ["STOP", "SNOOZE"])
        #expect(p.category("MESSAGE")?.summaryFormat == "CHAT_SUMMARY_FORMAT")
        #expect(p.recipe?.steps.map(\.step.name) == ["decrypt", "localize-custom", "communicate", "attach"])
        #expect(p.recipe?.steps.map(\.critical) == [true, true, false, false])
        #expect(p.recipe?.fallback == .bestAttempt)
        #expect(p.bundleID == "dev.pushbox.sample")
        #expect(p.fcmTopics == ["NewsApp"])
        #expect(p.developmentRegion == "en")
        #expect(p.fcmTokens == .any)
        #expect(try AppProfile.parse(Array(#"{"fcmTokens": "strict"}"#.utf8), directory: "/x").fcmTokens == .strict)
    }

    @Test(
        "a bad profile names the file and the field",
        arguments: [
            (#"{"bundleId": 5}"#, "bundleId: must be a string"),
            (#"{"bundleID": "x"}"#, "bundleID: unknown key"),
            (#"{"fcmTopics": ["ok", "bad topic"]}"#, "fcmTopics[1]: must be a topic name"),
            (#"{"fcmTopics": "NewsApp"}"#, "fcmTopics: must be an array"),
            (#"{"fcmTokens": "lenient"}"#, "fcmTokens: must be \"any\" or \"strict\""),
            (#"{"name": "x",}"#, "line 1, column 14"),
            (#"[]"#, "must be a JSON object"),
            (#"{"extension": {"steps": [{"type": "attach"}]}}"#, "extension.steps[0].urls: is required"),
            (#"{"extension": {"steps": [{"type": "unzip"}]}}"#, "extension.steps[0].type: \"unzip\" is not decrypt, localize, attach or communicate"),
            (#"{"extension": {"steps": [{"type": "decrypt", "keyfile": "k"}]}}"#, "extension.steps[0].keyfile: unknown key"),
            (#"{"extension": {"steps": [{"type": "localize", "args": "a"}]}}"#, "needs titleKey, subtitleKey or bodyKey"),
            (#"{"extension": {"steps": [{"type": "communicate", "sender": "s", "urls": ["u"]}]}}"#, "extension.steps[0].urls: unknown key"),
            (#"{"providerKeys": [{"keyId": "ABCDEFGHIJ", "teamId": "ABCDEFGHIJ", "file": "k.p8", "kid": "x"}]}"#, "providerKeys[0].kid: unknown key"),
            (#"{"extension": {"fallback": "later"}}"#, "extension.fallback: must be"),
            (#"{"extension": {"timeLimit": "30"}}"#, "extension.timeLimit: must be a number"),
            (#"{"webhooks": ["ftp://127.0.0.1/x"]}"#, "webhooks[0]: must be an http:// or https:// URL"),
            (#"{"webhooks": "http://127.0.0.1/x"}"#, "webhooks: must be an array of URLs"),
            (#"{"categories": {"A": {"actions": [{"identifier": "X"}]}}}"#, "categories.A.actions[0]: needs a title or a title-loc-key"),
            (
                #"{"categories": {"A": {"actions": [{"identifier": "X", "title": "x", "options": ["loud"]}]}}}"#,
                "categories.A.actions[0].options[0]: \"loud\" is not one of"
            ),
        ])
    func badProfile(text: String, message: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-profile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/pushbox.json", atomically: true, encoding: .utf8)
        #expect {
            try AppProfile.load(directory: dir)
        } throws: { error in
            let description = "\(error)"
            return description.contains(message) && description.contains("pushbox.json")
        }
    }

    @Test("the profile's schema lists each object once, each key once in its object, and every object a key is in")
    func schemaIsWhole() {
        let objects = ProfileSchema.objects.map(\.path)
        #expect(Set(objects).count == objects.count)
        #expect(Set(ProfileSchema.fields.map(\.object)) == Set(objects))
        for path in objects { #expect(Set(ProfileSchema.keys(of: path)).count == ProfileSchema.keys(of: path).count, "a key twice in \(path)") }
        #expect(ProfileSchema.fields.allSatisfy { !$0.meaning.isEmpty && !$0.type.isEmpty })
    }

    @Test("a folder without pushbox.json gets the defaults; a missing folder is an error")
    func defaults() throws {
        let p = try AppProfile.load(directory: FileManager.default.temporaryDirectory.path)
        #expect(p.bundleID == nil)
        #expect(p.developmentRegion == "en")
        #expect(throws: AppProfile.LoadError.self) { try AppProfile.load(directory: "/nonexistent/pushbox-app") }
    }

    @Test("header fields parse as NAME:VALUE and match names in any case")
    func headers() {
        #expect(PushHeaders.parseField("apns-priority: 5")! == ("apns-priority", "5"))
        #expect(PushHeaders.parseField("apns-id:a:b")! == ("apns-id", "a:b"))
        #expect(PushHeaders.parseField("novalue") == nil)
        #expect(PushHeaders.parseField(":x") == nil)
        let h = PushHeaders([("APNS-Topic", "a")])
        #expect(h["apns-topic"] == "a")
    }
}
