import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// The Raw tab: the request as it came (path, apns-* headers, how it arrived), then the body.
@Suite("The Raw tab's text")
struct RawViewTests {
    @Test("a fired local notification is listed at the device clock's time, not the real time it was stored")
    func localAtDeviceTime() throws {
        let folder = TemporaryFolder("pblocal")
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let fired = ISO8601DateFormatter().date(from: "2026-12-07T05:10:00Z")!
        let request = LocalRequest(identifier: "alarm", content: JSONObject([("body", .string("Wake up"))]), trigger: nil)
        let payload = LocalDelivery.payload(request, firedAt: fired, timeZone: zone)
        let raw = RawPayload(bytes: Array(JSONWriter.compact(.object(payload)).utf8), envelope: Envelope(source: .local, fileName: "local:alarm"))
        let row = try store.insertRow(raw, apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000002", verdict: .init(status: 200))
        #expect(abs(row.receivedAt.timeIntervalSince(fired)) > 3600)  // stored now, in real time
        #expect(InboxItems.make(row).receivedAt == fired)
    }

    @Test("a Live Activity push without an alert is a change to the activity, not a background event; a plain one without an alert is")
    func liveActivityKind() throws {
        let folder = TemporaryFolder("pbla")
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        var headers = PushHeaders()
        headers.add(PushHeaders.pushType, "liveactivity")
        let body = Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#.utf8)
        let live = try store.insertRow(
            RawPayload(bytes: body, envelope: Envelope(source: .socket, headers: headers)), apnsID: "a", verdict: .init(status: 200))
        #expect(InboxItems.make(live).kind == .push)
        let silent = try store.insertRow(RawPayload(bytes: body, envelope: Envelope(source: .socket)), apnsID: "b", verdict: .init(status: 200))
        #expect(InboxItems.make(silent).kind == .background)
    }

    @Test("a row is listed from what the intake listed of it, not from its bytes: nothing is parsed or validated again")
    func listedFromTheListing() throws {
        let folder = TemporaryFolder("pblist")
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        var verdict = Verdict(status: 200)
        verdict.listing = PayloadListing(
            payload: try #require(
                try JSONParser.parse(Array(#"{"aps":{"alert":{"title":"Listed","body":"once"},"thread-id":"t"}}"#.utf8)).objectValue),
            pushType: nil)
        // Bytes that say something else: were they read again, the item would show them.
        let row = try store.insertRow(
            RawPayload(bytes: Array(#"{"aps":{"alert":{"title":"Parsed","body":"again"}}}"#.utf8), envelope: Envelope(source: .socket)),
            apnsID: "c", verdict: verdict)
        let item = InboxItems.make(try #require(try store.notification(id: row.id)))
        #expect(item.sentTitle == "Listed" && item.sentBody == "once" && item.threadID == "t")
        #expect(item.rawText.isEmpty && item.payloadText.contains("Parsed"))
        #expect(InboxItems.make(row, keepPayload: false).payloadText.isEmpty)
    }

    @Test(
        "e exports only accepted pushes, into the config's exportDirectory when it names one; export names the sample app for a push without a topic")
    func exports() throws {
        let folder = TemporaryFolder("pbexp")
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        let body = Array(#"{"aps":{"alert":"x"}}"#.utf8)
        var headers = PushHeaders()
        headers.add("apns-topic", "com.other.app")
        let refused = try store.insertRow(
            RawPayload(bytes: body, envelope: Envelope(source: .socket, headers: headers)), apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000004",
            verdict: .init(status: 400, reason: "DeviceTokenNotForTopic"))
        #expect(InboxActions.simulatorFile(refused, bundleID: "dev.pushbox.sample") == nil)
        let fcm = try store.insertRow(
            RawPayload(bytes: Array(#"{"message":{"token":"a:b","notification":{"title":"t"}}}"#.utf8), envelope: Envelope(source: .fcm)),
            apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000005", verdict: .init(status: 200))
        #expect(InboxActions.simulatorFile(fcm, bundleID: "dev.pushbox.sample")?[PayloadForm.simulatorTargetKey] == "dev.pushbox.sample")
        // The config chooses the folder.
        let env = ["XDG_CONFIG_HOME": folder.path + "/config"]
        try FileManager.default.createDirectory(atPath: folder.path + "/config/pushbox", withIntermediateDirectories: true)
        try #"{"exportDirectory":"\#(folder.path)/out"}"#.write(
            toFile: folder.path + "/config/pushbox/config.json", atomically: true, encoding: .utf8)
        #expect(TUIApp.exportFolder(env) == folder.path + "/out")
        // pushbox export without --app: the FCM message is for the bundled sample app.
        let out = folder.path + "/exported"
        let run = CLIRun(["export", "--db", folder.path + "/inbox.sqlite", out])
        #expect(run.status == 0, "\(run.err)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(written.count == 1)
        let file = try String(contentsOfFile: out + "/" + written[0], encoding: .utf8)
        #expect(file.contains("dev.pushbox.sample") && !file.contains("com.example.app"), "\(file)")
    }

    @Test("list leaves a gap after the longest source name (command-line)")
    func listGap() throws {
        let folder = TemporaryFolder("pbgap")
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        let raw = RawPayload(bytes: Array(#"{"aps":{"alert":{"title":"Mina","body":"hi"}}}"#.utf8), envelope: Envelope(source: .commandLine))
        try store.insert(raw, apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000003", verdict: .init(status: 200))
        let run = CLIRun(["list", "--db", folder.path + "/inbox.sqlite", "--no-extension"])
        #expect(run.out.contains("command-line Mina"), "\(run.out)")
    }

    @Test("a push's request headers and its arrival come before its pretty-printed body")
    func requestHeaders() throws {
        let folder = TemporaryFolder("pbraw")
        let store = try InboxStore(path: folder.path + "/inbox.sqlite")
        var headers = PushHeaders()
        headers.add("apns-push-type", "alert")
        headers.add("apns-collapse-id", "score")
        let arrival = Arrival(listener: "tcp 127.0.0.1:2197", protocolName: "h2", tls: true, userAgent: "aioapns")
        let raw = RawPayload(
            bytes: Array(#"{"aps":{"alert":"goal"}}"#.utf8),
            envelope: Envelope(source: .socket, headers: headers, deviceToken: "abcd", arrival: arrival))
        let row = try store.insertRow(raw, apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000001", verdict: .init(status: 200))
        let lines = InboxItems.prettyRaw(row).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "POST /3/device/abcd")
        #expect(lines.contains("apns-push-type: alert") && lines.contains("apns-collapse-id: score"))
        #expect(lines.contains { $0.hasPrefix("(h2") && $0.contains("user-agent aioapns") })
        let blank = try #require(lines.firstIndex(of: ""))
        #expect(lines[(blank + 1)...].first == "{")
    }
}
