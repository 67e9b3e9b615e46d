import Foundation
import PushboxDevice
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxPayload

@Suite("Bundled samples and the shared corpus")
struct SampleTests {
    static let invalidDir = ProjectPaths.samples + "/invalid"

    static var invalidFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: invalidDir)) ?? [])
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".apns") }.sorted()
    }

    /// Reads a sample with its `NAME.headers` sidecar, as the command line does.
    static func load(_ path: String) throws -> RawPayload {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let sidecar = SidecarHeaders.beside(path) ?? SidecarHeaders()
        return RawPayload(
            bytes: bytes, envelope: Envelope(source: .commandLine, headers: sidecar.headers, deviceToken: sidecar.deviceToken, fileName: path))
    }

    @Test("a .headers file gives headers and the device token, skipping comments and blank lines")
    func sidecar() {
        let s = SidecarHeaders(text: "# request head\napns-priority: 5\n\n  device-token: abcd  \nnot a header\n")
        #expect(s.headers.fields.map(\.name) == ["apns-priority"])
        #expect(s.headers["apns-priority"] == "5")
        #expect(s.deviceToken == "abcd")
        #expect(SidecarHeaders.beside(ProjectPaths.samples + "/invalid/BadPriority.json")?.headers["apns-priority"] == "7")
        #expect(SidecarHeaders.beside(ProjectPaths.samples + "/01-game-invite.json") == nil)
    }

    @Test("there is an invalid sample for every reason a file can produce")
    func coverage() {
        let reasons = Set(Self.invalidFiles.map { String($0.prefix { $0 != "-" && $0 != "." }) })
        #expect(
            reasons == [
                "PayloadEmpty", "PayloadTooLarge", "BadCollapseId", "BadPriority", "InvalidPushType",
                "BadExpirationDate", "BadMessageId", "BadDeviceToken", "DuplicateHeaders", "INVALID_ARGUMENT",
            ])
    }

    @Test("every invalid sample gets the reason it is named after", arguments: invalidFiles)
    func invalidSample(name: String) throws {
        let report = Validator.validate(try Self.load(Self.invalidDir + "/" + name))
        let expected = String(name.prefix { $0 != "-" && $0 != "." })
        #expect(report.rejection?.reason.rawValue == expected, "\(report.rejection?.detail ?? "accepted")")
    }

    @Test("every valid sample passes for the sample app")
    func validSamples() throws {
        let app = try AppProfile.load(directory: ProjectPaths.samples + "/SampleApp")
        let context = ValidationContext(
            bundleID: app.bundleID,
            deviceTopics: DeviceTopics.topics(preferredLanguages: ["en-US"], profileTopics: app.fcmTopics))
        let files = try PayloadFile.paths(in: ProjectPaths.samples)
        #expect(files.count >= 10)
        for file in files {
            let report = Validator.validate(try Self.load(file), context: context)
            #expect(report.ok, "\(file): \(report.rejection?.detail ?? "")")
        }
    }

    @Test("the index describes every sample, and names no missing file")
    func index() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.samples + "/index.json"))
        let index = try #require(try JSONParser.parse(Array(data)).objectValue)
        let listed = Set(index.keys)
        let files = Set(try PayloadFile.paths(in: ProjectPaths.samples).map { ($0 as NSString).lastPathComponent })
        #expect(files.isSubset(of: listed))
        for name in listed {
            #expect(FileManager.default.fileExists(atPath: ProjectPaths.samples + "/" + name), "\(name)")
            #expect(index[name]?.stringValue?.isEmpty == false)
        }
    }

    @Test("the sample app has Localizable.strings (and .stringsdict where plurals need it) in its ten languages, each with the same keys")
    func sampleApp() throws {
        let languages = ["en", "ko", "ja", "es", "fr", "de", "ar", "ru", "zh-Hans", "pt-BR"]
        var keySets: [Set<String>] = []
        for lang in languages {
            let path = ProjectPaths.samples + "/SampleApp/Resources/\(lang).lproj/Localizable"
            let data = try Data(contentsOf: URL(fileURLWithPath: path + ".strings"))
            // Foundation reads old-style and XML plists: the oracle until pushbox has its own reader.
            let table = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String])
            var keys = Set(table.keys)
            if let plurals = FileManager.default.contents(atPath: path + ".stringsdict") {
                let dict = try #require(try PropertyListSerialization.propertyList(from: plurals, format: nil) as? [String: Any])
                keys.formUnion(dict.keys)
            }
            keySets.append(keys)
        }
        #expect(Set(keySets).count == 1)
        #expect(keySets[0].contains("GAME_PLAY_REQUEST_FORMAT"))
    }

    @Test(
        "every payload in the shared corpus is read without a crash",
        .enabled(if: ProjectPaths.corpusExists, "../shared/corpus is absent: corpus payload check skipped"))
    func corpusPayloads() throws {
        let dir = ProjectPaths.corpus + "/payloads"
        let enumerator = try #require(FileManager.default.enumerator(atPath: dir))
        var count = 0
        while let name = enumerator.nextObject() as? String {
            guard name.hasSuffix(".json") || name.hasSuffix(".apns") else { continue }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
            let report = Validator.validate(RawPayload(bytes: bytes, envelope: Envelope(source: .folder, fileName: name)))
            // Each gets an answer: accepted, or refused with a reason and a detail.
            #expect(report.ok || !(report.rejection?.detail.isEmpty ?? true))
            // The payload inside Home Assistant's test cases is a real APNs payload.
            if let document = try? JSONParser.parse(bytes).objectValue, let inner = document["payload"]?.objectValue {
                let text = JSONWriter.compact(.object(inner))
                let innerReport = Validator.validate(RawPayload(bytes: Array(text.utf8), envelope: Envelope(source: .folder)))
                #expect(innerReport.ok, "\(name): \(innerReport.rejection?.detail ?? "")")
            }
            count += 1
        }
        #expect(count >= 7)
    }
}
