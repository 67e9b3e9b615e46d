import Foundation
import PushboxDevice
import PushboxInbox
import PushboxLocalization
import PushboxPayload
import PushboxRendering
import PushboxStore

/// `pushbox-bench fleet [DEVICES] [MESSAGES]`: an FCM topic message every device subscribes to,
/// sent to an inbox of one device and to an inbox of DEVICES (each in one of the sample app's
/// languages), in the same run: the intake's answer time (every delivery judged and committed
/// before the answer) and the time until every device's rendering is stored.
enum FleetBenchmark {
    /// The languages the devices take in turn: the sample app's localizations, with regions.
    static let languages = ["ko-KR", "ja-JP", "fr-FR", "de-DE", "es-ES", "ar-SA", "pt-BR", "ru-RU", "zh-Hans-CN", "en-US"]
    static let message =
        #"{"message":{"topic":"NewsApp","apns":{"payload":{"aps":{"alert":{"title-loc-key":"GAME_PLAY_REQUEST_TITLE","loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Shelly","Rick"]}}}}}}"#

    static func run(devices: Int, messages: Int, samples: String?) {
        guard let samples, let profile = try? AppProfile.load(directory: samples + "/SampleApp") else {
            print("error: sample-payloads not found; run from the project root")
            exit(1)
        }
        print(
            "pushbox-bench fleet: \(messages) FCM messages to topic NewsApp, each answered, then waited for until every device's rendering is stored")
        let one = measure(devices: 1, messages: messages, profile: profile)
        let many = measure(devices: devices, messages: messages, profile: profile)
        func ms(_ s: Double) -> String { String(format: "%.2f ms", s * 1000) }
        print("devices  answer median   answer p99   every rendering stored (median)   per delivery")
        for (count, r) in [(1, one), (devices, many)] {
            print(
                String(count).padding(toLength: 9, withPad: " ", startingAt: 0) + ms(r.answer).padding(toLength: 15, withPad: " ", startingAt: 0)
                    + ms(r.answerP99).padding(toLength: 13, withPad: " ", startingAt: 0)
                    + ms(r.stored).padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%.1f µs", r.stored / Double(count) * 1e6))
        }
        print(
            String(
                format:
                    "ratio: %d× the deliveries took %.1f× the answer time and %.1f× the time to every rendering (%.0f deliveries rendered and stored per second)",
                devices, many.answer / one.answer, many.stored / one.stored, Double(devices) / many.stored))
    }

    /// Median answer time, its 99th percentile, and the median time until every rendering was
    /// stored, for an inbox of `devices` devices (the default one and `devices - 1` added).
    static func measure(devices: Int, messages: Int, profile: AppProfile) -> (answer: Double, answerP99: Double, stored: Double) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-bench-fleet-\(getpid())-\(devices)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let store = try? InboxStore(path: folder + "/inbox.sqlite") else {
            print("error: cannot open an inbox in \(folder)")
            exit(1)
        }
        let topics = DeviceTopics.topics(preferredLanguages: ["en-US"], profileTopics: profile.fcmTopics)
        let renderer = Renderer(
            context: ValidationContext(bundleID: profile.bundleID, deviceTopics: topics), preferredLanguages: ["en-US"],
            localizer: Localizer(app: AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)),
            categories: profile.categories)
        let renderings = Renderings(base: renderer, store: store)
        let file = DeviceRegistrationFile(databasePath: store.path)
        // One write for the whole fleet, as `device add` would make one at a time.
        _ = try? file.update { registration in
            registration.devices = (1..<devices).map { i in
                FleetDevice(name: "d\(i)", platform: i % 3 == 0 ? .android : .ios, languages: [languages[i % languages.count]])
            }
        }
        let phone = Phone(context: renderer.context, registrationFile: file)
        phone.deviceLanguagesChanged(to: ["en-US"], profileTopics: profile.fcmTopics)
        let service = IntakeService(store: store, phone: phone, renderings: renderings)
        let clock = ContinuousClock()
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        var answers: [Double] = []
        var stored: [Double] = []
        for _ in 0..<messages {
            let raw = RawPayload(bytes: Array(message.utf8), envelope: Envelope(source: .fcm))
            let start = clock.now
            let (result, arrival) = service.receiveBeforeAnswer(raw)
            answers.append(seconds(clock.now - start))
            arrival?.publish()
            service.drain()
            stored.append(seconds(clock.now - start))
            guard result.verdict.status == 200 else {
                print("error: the message was answered \(result.verdict.status)")
                exit(1)
            }
        }
        let expected = devices * messages
        guard store.renderCount == expected else {
            print("error: \(store.renderCount) renderings stored, \(expected) expected")
            exit(1)
        }
        answers.sort()
        stored.sort()
        return (answers[answers.count / 2], answers[min(answers.count - 1, answers.count * 99 / 100)], stored[stored.count / 2])
    }
}
