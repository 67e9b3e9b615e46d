import Foundation
import PushboxJSON
import Testing

@testable import PushboxDevice
@testable import PushboxPayload

/// The phone's one judgement: a dry run answers what the send would and changes nothing; the
/// registration beside the inbox decides refusals and offline storage for every caller.
@Suite("The phone's judgement")
struct PhoneTests {
    static let bundleID = "dev.pushbox.sample"
    static let token = String(repeating: "ab", count: 32)

    /// A phone with its registration and Live Activities beside an inbox in a new folder.
    static func phone(_ dir: String) throws -> Phone {
        var profile = LiveActivityProfile()
        var schema = ActivityTypeSchema(name: "Match")
        schema.attributes = try SchemaType.parse(try JSONParser.parse(Array(#"{"home": "String"}"#.utf8))).get()
        schema.contentState = try SchemaType.parse(try JSONParser.parse(Array(#"{"score": "Int"}"#.utf8))).get()
        profile.types["Match"] = schema
        let database = dir + "/inbox.sqlite"
        return Phone(
            context: ValidationContext(bundleID: bundleID), registrationFile: DeviceRegistrationFile(databasePath: database),
            liveActivities: LiveActivityDevice(databasePath: database, clock: nil, profile: profile))
    }

    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "pbphone-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func alert(token: String = token) -> RawPayload {
        RawPayload(
            bytes: Array(#"{"aps":{"alert":{"title":"Hi","body":"there"}}}"#.utf8),
            envelope: Envelope(source: .socket, headers: PushHeaders([("apns-topic", bundleID)]), deviceToken: token))
    }

    static func start() -> RawPayload {
        let now = Int(Date().timeIntervalSince1970)
        let body =
            #"{"aps":{"event":"start","timestamp":\#(now),"attributes-type":"Match","attributes":{"home":"Seoul"},"content-state":{"score":0},"alert":{"title":"Kick-off"}}}"#
        return RawPayload(
            bytes: Array(body.utf8),
            envelope: Envelope(
                source: .socket,
                headers: PushHeaders([("apns-topic", bundleID + ".push-type.liveactivity"), ("apns-push-type", "liveactivity")]),
                deviceToken: ActivityBook.pushToStartToken))
    }

    @Test("a dry run of a Live Activity start tells the outcome and starts nothing; the send starts it")
    func dryRunChangesNothing() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phone = try Self.phone(dir)
        let dry = phone.judge(Self.start(), mode: .dryRun)
        #expect(dry.verdict.status == 200 && dry.verdict.liveActivity?.applied == true)
        #expect(phone.liveActivities?.file.current().book.activities.isEmpty == true)
        let live = phone.judge(Self.start(), mode: .live)
        #expect(live.verdict.status == 200 && live.verdict.liveActivity?.applied == true)
        #expect(phone.liveActivities?.file.current().book.activities.count == 1)
    }

    @Test("a batch judged with its validation side by side answers, in order, what judging each in turn answers, and applies the same")
    func batchAsEach() throws {
        let broken = RawPayload(bytes: Array(#"{"aps":{"alert":"#.utf8), envelope: Self.alert().envelope)
        var wrongTopic = Self.alert()
        wrongTopic.envelope.headers = PushHeaders([("apns-topic", "com.example.other")])
        let badToken = Self.alert(token: "xyz")
        let batch = [Self.alert(), Self.start(), broken, Self.alert(), wrongTopic, Self.start(), badToken, Self.alert(), Self.start(), broken]
        #expect(batch.count >= Phone.sideBySideBatch)
        func outcome(_ j: Judgement) -> String {
            "\(j.verdict.status) \(j.verdict.reason ?? "-") \(j.verdict.liveActivity.map { "\($0.applied)" } ?? "-") \(j.report.warnings.count)"
        }
        let eachDir = try Self.folder()
        let batchDir = try Self.folder()
        defer { for d in [eachDir, batchDir] { try? FileManager.default.removeItem(atPath: d) } }
        let eachPhone = try Self.phone(eachDir)
        let batchPhone = try Self.phone(batchDir)
        let each = batch.map { eachPhone.judge($0, mode: .live) }
        let together = batchPhone.judge(batch: batch, mode: .live)
        #expect(together.map(outcome) == each.map(outcome))
        #expect(Set(together.map(outcome)).count >= 4)
        #expect(
            batchPhone.liveActivities?.file.current().book.activities.count == eachPhone.liveActivities?.file.current().book.activities.count)
        #expect(batchPhone.liveActivities?.file.current().book.activities.isEmpty == false)
    }

    @Test("an uninstalled app's device refuses 410 Unregistered, live and dry alike")
    func uninstalledRefuses() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phone = try Self.phone(dir)
        #expect(phone.judge(Self.alert(), mode: .dryRun).verdict.status == 200)
        _ = try phone.registrationFile?.update { $0.uninstalledAt = 1_700_000_000_000 }
        for mode in [JudgementMode.dryRun, .live] {
            let judged = phone.judge(Self.alert(), mode: mode)
            #expect(judged.verdict.status == 410 && judged.verdict.reason == APNsReason.unregistered.rawValue)
            #expect(judged.report.validated == nil)
        }
    }

    /// Whether the judgement keeps the push for an offline device.
    static func kept(_ judged: Judgement) -> Bool {
        if case .store? = judged.verdict.storage { return true }
        return false
    }

    @Test("an offline device's judgement keeps the push for later, and applies no Live Activity until then")
    func offlineKeeps() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phone = try Self.phone(dir)
        _ = try phone.registrationFile?.update { $0.offlineSince = 1_700_000_000_000 }
        let alert = phone.judge(Self.alert(), mode: .live)
        #expect(alert.verdict.status == 200 && Self.kept(alert))
        let start = phone.judge(Self.start(), mode: .live)
        #expect(Self.kept(start) && start.verdict.liveActivity == nil)
        #expect(phone.liveActivities?.file.current().book.activities.isEmpty == true)
    }

    @Test("the language topic follows languages another process kept on the device")
    func languageTopicFollowsTheFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phone = Phone(
            context: ValidationContext(bundleID: Self.bundleID, deviceTopics: ["LangEnUS"]),
            registrationFile: DeviceRegistrationFile(databasePath: dir + "/inbox.sqlite"))
        phone.deviceLanguagesChanged(to: ["en-US"], profileTopics: [])
        try phone.registrationFile?.record(app: nil, languages: ["ja-JP"])
        _ = phone.judge(Self.alert(), mode: .dryRun)
        #expect(phone.context.deviceTopics == ["LangJaJP"])
    }

    @Test("the host a push was addressed to decides its APNs environment; a push that names none is the device's own")
    func environments() throws {
        #expect(APNsEnvironment.of(host: "api.push.apple.com") == .production)
        #expect(APNsEnvironment.of(host: "API.Sandbox.Push.Apple.com:443") == .development)
        #expect(APNsEnvironment.of(host: "api.development.push.apple.com") == .development)
        #expect(APNsEnvironment.of(host: "localhost") == nil)
        #expect(APNsEnvironment.of(host: "localhost:2197") == nil)
        #expect(APNsEnvironment.of(host: "API.PUSH.APPLE.COM:2197") == .production)
        #expect(APNsEnvironment.of(host: "api.push.apple.com.example") == nil)
        #expect(APNsEnvironment.of(host: "api.push.apple.co") == nil)
        #expect(APNsEnvironment.of(host: "") == nil)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phone = Phone(context: ValidationContext(bundleID: Self.bundleID))
        func sent(to host: String?) -> RawPayload {
            var raw = Self.alert()
            var arrival = Arrival(listener: "tcp 127.0.0.1:2197", protocolName: "h2", tls: true, userAgent: nil)
            arrival.host = host
            raw.envelope.arrival = arrival
            return raw
        }
        #expect(phone.judge(sent(to: "api.sandbox.push.apple.com"), mode: .live).verdict.status == 200)
        #expect(phone.judge(sent(to: nil), mode: .live).verdict.status == 200)
        let production = phone.judge(sent(to: "api.push.apple.com"), mode: .dryRun).verdict
        #expect(production.status == 400 && production.reason == "BadDeviceToken")
        #expect(production.detail?.contains("development environment") == true && production.detail?.contains("api.push.apple.com") == true)
    }

    /// An FCM message to the device's registration token, sent to `project`.
    static func fcm(project: String) -> RawPayload {
        var arrival = Arrival(listener: "unix /s", protocolName: "h2", tls: true, userAgent: nil)
        arrival.fcmProject = project
        return RawPayload(
            bytes: Array(#"{"message":{"token":"\#(DeviceIdentity.fcmToken)","notification":{"title":"Hi"}}}"#.utf8),
            envelope: Envelope(source: .fcm, arrival: arrival))
    }

    @Test(
        "a token belongs to one Firebase project: the profile's, else the first that sends (a dry run adopts none); another's is 403 SENDER_ID_MISMATCH"
    )
    func senderMismatch() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let phone = Phone(
            context: ValidationContext(bundleID: Self.bundleID), registrationFile: DeviceRegistrationFile(databasePath: dir + "/inbox.sqlite"))
        #expect(phone.judge(Self.fcm(project: "b"), mode: .dryRun).verdict.status == 200)
        #expect(phone.registration()?.fcmProject == nil)
        let first = phone.judge(Self.fcm(project: "a"), mode: .live)
        #expect(first.verdict.status == 200 && first.report.targetDescription?.contains("Firebase project is now a") == true)
        #expect(phone.registration()?.fcmProject == "a")
        for mode in [JudgementMode.live, .dryRun] {
            let other = phone.judge(Self.fcm(project: "b"), mode: mode)
            #expect(other.verdict.status == 403 && other.verdict.reason == "SENDER_ID_MISMATCH")
        }
        // The profile's project wins over the one adopted.
        var context = ValidationContext(bundleID: Self.bundleID)
        context.fcmProject = "b"
        let profiled = Phone(context: context, registrationFile: DeviceRegistrationFile(databasePath: dir + "/inbox.sqlite"))
        #expect(profiled.judge(Self.fcm(project: "b"), mode: .live).verdict.status == 200)
        #expect(profiled.judge(Self.fcm(project: "a"), mode: .live).verdict.reason == "SENDER_ID_MISMATCH")
    }

    @Test("the answer's id is the one sent when canonical (lowercased), else a new version-4 UUID")
    func answerIDs() {
        #expect(Phone.answerID(sent: "A1B2C3D4-0000-4000-8000-000000000001") == "a1b2c3d4-0000-4000-8000-000000000001")
        let made = Phone.answerID(sent: "not-a-uuid")
        #expect(made != "not-a-uuid" && PushHeaders.isCanonicalUUID(made))
    }
}
