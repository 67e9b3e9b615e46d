import Foundation
import PushboxJSON
import Testing

@testable import PushboxDevice
@testable import PushboxPayload

/// A fleet of phones: each added device has its own tokens and topics, and a payload is routed
/// as APNs and FCM route it — by token, or to every device a topic or condition reaches.
@Suite("A fleet of phones: devices and routing")
struct FleetTests {
    static let bundleID = PhoneTests.bundleID

    /// A phone (en-US, the profile's topic `News`) whose inbox holds `ko` (an iPhone in ko-KR)
    /// and `es` (an Android phone in es-ES).
    static func fleet(_ dir: String, context: ValidationContext = ValidationContext(bundleID: bundleID)) throws -> (Phone, FleetDevice, FleetDevice) {
        var context = context
        context.deviceTopics = DeviceTopics.topics(preferredLanguages: ["en-US"], profileTopics: ["News"])
        let file = DeviceRegistrationFile(databasePath: dir + "/inbox.sqlite")
        let phone = Phone(context: context, registrationFile: file)
        phone.deviceLanguagesChanged(to: ["en-US"], profileTopics: ["News"])
        let ko = FleetDevice(name: "ko", platform: .ios, languages: ["ko-KR"], timeZone: "Asia/Seoul")
        let es = FleetDevice(name: "es", platform: .android, languages: ["es-ES"])
        #expect(try file.add(ko) == .done)
        #expect(try file.add(es) == .done)
        return (phone, ko, es)
    }

    static func apns(token: String) -> RawPayload {
        PhoneTests.alert(token: token)
    }

    static func fcm(_ target: String) -> RawPayload {
        RawPayload(
            bytes: Array(#"{"message":{\#(target),"notification":{"title":"Hi","body":"there"}}}"#.utf8),
            envelope: Envelope(source: .fcm))
    }

    @Test("an added device's tokens have APNs' and FCM's forms; an Android phone has no APNs token; each device's differ")
    func tokens() {
        let ios = FleetDevice(name: "a", platform: .ios)
        let android = FleetDevice(name: "b", platform: .android)
        let token = try? #require(ios.apnsToken)
        #expect(token?.count == 64 && token?.allSatisfy(\.isHexDigit) == true)
        #expect(android.apnsToken == nil)
        for d in [ios, android] {
            #expect(FCMRules.isInstallationIDForm(d.installationID), "\(d.installationID)")
            #expect(FCMRules.isRegistrationTokenForm(d.fcmToken) && d.fcmToken.hasPrefix(d.installationID + ":"))
        }
        #expect(ios.fcmToken != android.fcmToken && ios.installationID != android.installationID)
    }

    @Test("the fleet is kept in the inbox's device file: read back whole; a taken name, phone, or an unknown name is refused")
    func keptWithTheInbox() throws {
        let dir = try PhoneTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = DeviceRegistrationFile(databasePath: dir + "/inbox.sqlite")
        var ko = FleetDevice(name: "ko", platform: .ios, languages: ["ko-KR"], timeZone: "Asia/Seoul", apnsEnvironment: .production)
        ko.state.subscribed["Sale"] = .init(at: 5, by: "app")
        #expect(try file.add(ko) == .done)
        #expect(try file.add(FleetDevice(name: "ko", platform: .android)) == .nameTaken)
        #expect(try file.add(FleetDevice(name: "phone", platform: .ios)) == .defaultDevice)
        // Read back by another reader of the same file, as another command would.
        let again = DeviceRegistrationFile(databasePath: dir + "/inbox.sqlite").current()
        #expect(again.devices == [ko])
        _ = try file.apply(.offline, device: "ko")
        #expect(file.current().device(named: "ko")?.state.online == false)
        #expect(file.current().online, "the default device is not changed by another's change")
        #expect(try file.remove("phone") == .defaultDevice)
        #expect(try file.remove("nobody") == .noSuchDevice)
        #expect(try file.remove("ko") == .done)
        #expect(file.current().devices.isEmpty)
    }

    @Test("names: letters, digits, - _ . up to 32 bytes, not starting with -")
    func names() {
        for ok in ["ko", "ko-KR_iPhone.2", String(repeating: "a", count: 32)] { #expect(FleetDevice.isValidName(ok), "\(ok)") }
        for bad in ["", "-x", "a b", "a/b", "한국", String(repeating: "a", count: 33), "a\u{1B}[2J"] {
            #expect(!FleetDevice.isValidName(bad), "\(bad)")
        }
    }

    @Test("an APNs push goes to the device whose token it names; a token no added device owns is the default device's")
    func apnsByToken() throws {
        let dir = try PhoneTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (phone, ko, _) = try Self.fleet(dir)
        let toKo = phone.deliveries(Self.apns(token: try #require(ko.apnsToken)), mode: .live)
        #expect(toKo.map(\.verdict.device) == ["ko"] && toKo[0].verdict.status == 200)
        let other = phone.deliveries(Self.apns(token: PhoneTests.token), mode: .live)
        #expect(other.map(\.verdict.device) == [nil] && other[0].verdict.status == 200)
        // Which device took it, and why, is said (the trace's target step) and kept with the row.
        #expect(other[0].report.targetDescription?.contains("no device's own") == true)
        #expect(other[0].verdict.targeting?.detail == other[0].report.targetDescription)
        #expect(toKo[0].verdict.targeting?.detail == "the push names ko's device token")
        let stored = Phone.report(of: Self.apns(token: PhoneTests.token), verdict: other[0].verdict, context: phone.context)
        #expect(stored?.targetDescription == other[0].report.targetDescription, "read back for a rendering made later")
    }

    @Test("--apns-tokens strict: a token no device owns is 400 BadDeviceToken; the devices' own tokens are taken")
    func strictAPNsTokens() throws {
        let dir = try PhoneTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var context = ValidationContext(bundleID: Self.bundleID)
        context.apnsTokens = .strict
        let (phone, ko, _) = try Self.fleet(dir, context: context)
        let unknown = phone.judge(Self.apns(token: PhoneTests.token), mode: .live)
        #expect(unknown.verdict.status == 400 && unknown.verdict.reason == APNsReason.badDeviceToken.rawValue)
        #expect(phone.judge(Self.apns(token: DeviceIdentity.apnsToken), mode: .live).verdict.status == 200)
        #expect(phone.judge(Self.apns(token: try #require(ko.apnsToken)), mode: .live).verdict.device == "ko")
    }

    @Test("an FCM topic reaches every device subscribed to it, each judged for its own topics; a condition, those it is true for")
    func topicsAndConditions() throws {
        let dir = try PhoneTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (phone, _, _) = try Self.fleet(dir)
        func reached(_ target: String) -> [String] {
            phone.deliveries(Self.fcm(target), mode: .live).filter { $0.report.targeting == .device }.map { $0.verdict.device ?? "phone" }
        }
        #expect(reached(#""topic":"LangKoKR""#) == ["ko"])
        #expect(reached(#""topic":"News""#) == ["phone", "ko", "es"])
        #expect(reached(#""condition":"'LangEsES' in topics || 'LangEnUS' in topics""#) == ["phone", "es"])
        // A topic nobody has: one not-targeted row, the default device's.
        let nobody = phone.deliveries(Self.fcm(#""topic":"LangJaJP""#), mode: .live)
        #expect(nobody.count == 1 && nobody[0].verdict.device == nil && nobody[0].report.targeting != .device && nobody[0].verdict.status == 200)
        // One request, one answer id for every delivery.
        let news = phone.deliveries(Self.fcm(#""topic":"News""#), mode: .live)
        #expect(Set(news.map(\.apnsID)).count == 1)
        // The classic mistake: ko subscribed to a second language topic gets both languages' messages.
        _ = try phone.registrationFile!.apply(.subscribe("LangJaJP"), device: "ko")
        #expect(reached(#""topic":"LangJaJP""#) == ["ko"])
        // Uninstalled, a device's subscriptions are gone.
        _ = try phone.registrationFile!.apply(.uninstall, device: "ko")
        #expect(reached(#""topic":"News""#) == ["phone", "es"])
    }

    @Test("an FCM token or installation id goes to its owner; an uninstalled owner answers 404 UNREGISTERED; an offline one keeps it")
    func fcmByToken() throws {
        let dir = try PhoneTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (phone, ko, es) = try Self.fleet(dir)
        #expect(phone.deliveries(Self.fcm(#""token":"\#(es.fcmToken)""#), mode: .live).map(\.verdict.device) == ["es"])
        #expect(phone.deliveries(Self.fcm(#""fid":"\#(ko.installationID)""#), mode: .live).map(\.verdict.device) == ["ko"])
        #expect(phone.deliveries(Self.fcm(#""token":"\#(DeviceIdentity.fcmToken)""#), mode: .live).map(\.verdict.device) == [nil])
        _ = try phone.registrationFile!.apply(.offline, device: "es")
        let kept = phone.judge(Self.fcm(#""token":"\#(es.fcmToken)""#), mode: .live)
        guard case .store(_, let key)? = kept.verdict.storage else {
            Issue.record("an offline device's push service keeps the message: \(String(describing: kept.verdict.storage))")
            return
        }
        #expect(key == nil, "an FCM message without a collapse key replaces nothing")
        // APNs keeps the latest per app, per device: the offline iPhone's key is its own.
        _ = try phone.registrationFile!.apply(.offline, device: "ko")
        let held = phone.judge(Self.apns(token: try #require(ko.apnsToken)), mode: .live)
        guard case .store(_, let apnsKey?)? = held.verdict.storage else {
            Issue.record("APNs keeps the latest push per app for an offline device: \(String(describing: held.verdict.storage))")
            return
        }
        #expect(apnsKey == "ko\u{1F}apns:\(Self.bundleID)")
        _ = try phone.registrationFile!.apply(.install, device: "ko")
        _ = try phone.registrationFile!.apply(.uninstall, device: "es")
        let gone = phone.judge(Self.fcm(#""token":"\#(es.fcmToken)""#), mode: .live)
        #expect(gone.verdict.status == 404 && gone.verdict.reason == APNsReason.fcmUnregistered.rawValue && gone.verdict.device == "es")
        // The APNs token of an uninstalled iPhone: 410 Unregistered.
        _ = try phone.registrationFile!.apply(.uninstall, device: "ko")
        let unregistered = phone.judge(Self.apns(token: try #require(ko.apnsToken)), mode: .live)
        #expect(unregistered.verdict.status == 410 && unregistered.verdict.device == "ko")
    }

    @Test("each device has its own APNs environment and Firebase project")
    func environmentsAndProjects() throws {
        let dir = try PhoneTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = DeviceRegistrationFile(databasePath: dir + "/inbox.sqlite")
        let phone = Phone(context: ValidationContext(bundleID: Self.bundleID), registrationFile: file)
        let prod = FleetDevice(name: "prod", platform: .ios, apnsEnvironment: .production, fcmProject: "shop-prod")
        #expect(try file.add(prod) == .done)
        var toSandbox = Self.apns(token: try #require(prod.apnsToken))
        var sandbox = Arrival(listener: "test", protocolName: "h2", tls: true, userAgent: nil)
        sandbox.host = APNsEnvironment.development.host
        toSandbox.envelope.arrival = sandbox
        let refused = phone.judge(toSandbox, mode: .live)
        #expect(refused.verdict.status == 400 && refused.verdict.reason == APNsReason.badDeviceToken.rawValue && refused.verdict.device == "prod")
        var fromStaging = Self.fcm(#""token":"\#(prod.fcmToken)""#)
        var staging = Arrival(listener: "test", protocolName: "h2", tls: true, userAgent: nil)
        staging.fcmProject = "shop-staging"
        fromStaging.envelope.arrival = staging
        let mismatch = phone.judge(fromStaging, mode: .live)
        #expect(mismatch.verdict.status == 403 && mismatch.verdict.reason == APNsReason.fcmSenderIDMismatch.rawValue)
    }

    @Test("without added devices every payload has one delivery, the default device's, as before the fleet")
    func oneDeviceUnchanged() throws {
        let dir = try PhoneTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phone = try PhoneTests.phone(dir)
        for raw in [Self.apns(token: PhoneTests.token), Self.fcm(#""topic":"News""#)] {
            let all = phone.deliveries(raw, mode: .dryRun)
            #expect(all.count == 1 && all[0].verdict.device == nil)
        }
        #expect(phone.judge(Self.apns(token: PhoneTests.token), mode: .dryRun).verdict.targeting == nil, "an APNs push's row is as it was")
    }
}

/// The language a language topic is for: the inverse of the topic a device's language gives.
@Suite("Language topics read back")
struct LanguageTopicTests {
    @Test("every tag's language topic reads back as the tag; other topics are none")
    func roundTrip() {
        for tag in ["en-US", "ko-KR", "ja-JP", "es-ES", "zh-Hans-CN", "es-419", "ko", "fil-PH", "pt-BR", "sr-Latn-RS"] {
            #expect(DeviceTopics.language(ofTopic: DeviceTopics.languageTopic(for: tag)) == tag, "\(tag)")
        }
        for topic in ["News", "LangX", "Lang", "Langko", "LangKoKRX", "LangKo1", "lang-ko", "LangKoKr"] {
            #expect(DeviceTopics.language(ofTopic: topic) == nil, "\(topic)")
        }
    }
}

/// Each iPhone of the fleet has Live Activities of its own: its push-to-start token, its
/// activities' tokens, its own file; a push is applied to the activities of the iPhone whose token it names.
@Suite("A fleet of phones: Live Activities per iPhone")
struct FleetLiveActivityTests {
    static func start(token: String) -> RawPayload {
        let now = Int(Date().timeIntervalSince1970)
        let body =
            #"{"aps":{"event":"start","timestamp":\#(now),"attributes-type":"Match","attributes":{"home":"Seoul"},"content-state":{"score":0},"input-push-token":1,"alert":{"title":"Kick-off"}}}"#
        var raw = PhoneTests.start()
        raw = RawPayload(bytes: Array(body.utf8), envelope: raw.envelope)
        raw.envelope.deviceToken = token
        return raw
    }

    static func update(token: String, score: Int) -> RawPayload {
        let now = Int(Date().timeIntervalSince1970) + score
        let body = #"{"aps":{"event":"update","timestamp":\#(now),"content-state":{"score":\#(score)}}}"#
        var raw = PhoneTests.start()
        raw = RawPayload(bytes: Array(body.utf8), envelope: raw.envelope)
        raw.envelope.deviceToken = token
        return raw
    }

    @Test("a push-to-start to an iPhone's own token starts an activity there, not on the default device; its updates follow its token")
    func perDevice() throws {
        let dir = try PhoneTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phone = try PhoneTests.phone(dir)
        let file = try #require(phone.registrationFile)
        let ko = FleetDevice(name: "ko", platform: .ios, languages: ["ko-KR"])
        let es = FleetDevice(name: "es", platform: .android, languages: ["es-ES"])
        #expect(try file.add(ko) == .done && file.add(es) == .done)
        #expect(ko.activityIdentity.pushToStart != ActivityBook.pushToStartToken && ko.activityIdentity.pushToStart.count == 64)
        #expect(phone.liveActivities(of: es) == nil, "an Android phone has no Live Activities")

        let started = phone.judge(Self.start(token: ko.activityIdentity.pushToStart), mode: .live)
        #expect(
            started.verdict.device == "ko" && started.verdict.liveActivity?.applied == true, "\(String(describing: started.verdict.liveActivity))")
        let koBook = try #require(phone.liveActivities(of: ko)).file.current().book
        #expect(koBook.activities.count == 1 && phone.liveActivities?.file.current().book.activities.isEmpty == true)
        let token = try #require(koBook.activities.first?.pushToken)
        #expect(token.hasPrefix(ko.activityIdentity.tokenPrefix) && FileManager.default.fileExists(atPath: dir + "/inbox.activities.ko.json"))

        let updated = phone.judge(Self.update(token: token, score: 1), mode: .live)
        #expect(updated.verdict.device == "ko" && updated.verdict.liveActivity?.applied == true)
        // The default device's own push-to-start token starts one there.
        let own = phone.judge(Self.start(token: ActivityBook.pushToStartToken), mode: .live)
        #expect(own.verdict.device == nil && own.verdict.liveActivity?.applied == true)
        #expect(phone.liveActivities?.file.current().book.activities.count == 1)
        #expect(try #require(phone.liveActivities(of: ko)).file.current().book.activities.count == 1)
    }
}
