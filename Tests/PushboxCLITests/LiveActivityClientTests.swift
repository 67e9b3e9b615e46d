import Foundation
import PushboxJSON
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// A Live Activity's life driven by the clients people use — curl over HTTP/2 with a provider
/// token, aioapns, firebase-admin's `live_activity_token` through the proxy, kalyke under
/// `pushbox exec` — and seen in `pushbox activities --json` and the TUI's view.
@Suite("Live Activities from real clients", .serialized)
struct LiveActivityClientTests {
    static let topic = "dev.pushbox.la.push-type.liveactivity"

    /// An app whose `Match` activity has a ContentState schema and a budget of 3 priority-10 updates an hour.
    static func app(in dir: String) throws -> String {
        let app = dir + "/app"
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
        let profile = #"""
            {"name": "Live", "bundleId": "dev.pushbox.la",
             "liveActivities": {"types": {"Match": {
                "attributes": {"home": "String", "away": "String"},
                "contentState": {"score": "Int", "period": {"enum": ["first", "second"]}},
                "template": "{attributes.home} {state.score} {attributes.away}"}},
              "budget": {"priority10PerHour": 3}}}
            """#
        try Data(profile.utf8).write(to: URL(fileURLWithPath: app + "/pushbox.json"))
        return app
    }

    /// `serve` for the app, and curl for it.
    final class Served {
        let served: ProviderLibraryTests.PortServed
        let app: String
        let jwt: String
        var db: String { served.db }

        init() throws {
            served = try ProviderLibraryTests.PortServed()
            app = try LiveActivityClientTests.app(in: served.dir)
            served.extraArguments = ["--app", app]
            try served.start()
            let t = CLIRun(["provider-token", served.key, "--key-id", ProviderLibraryTests.keyID, "--team-id", ProviderLibraryTests.teamID])
            try #require(t.status == 0, "\(t.err)")
            jwt = t.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// curl over HTTP/2 with the provider token: the status, and the body when refused.
        func curl(_ token: String, _ aps: String, priority: Int = 10, topic: String = LiveActivityClientTests.topic) throws -> String {
            let r = try Subprocess.run(
                "/usr/bin/curl",
                [
                    "--http2", "-sS", "--cacert", served.ca, "-w", " %{http_code} %{http_version}",
                    "https://localhost:\(served.port)/3/device/\(token)", "-H", "authorization: bearer \(jwt)", "-H", "apns-push-type: liveactivity",
                    "-H", "apns-topic: \(topic)", "-H", "apns-priority: \(priority)", "-d", #"{"aps": \#(aps)}"#,
                ])
            return r.out.trimmingCharacters(in: .whitespaces)
        }

        /// curl over HTTP/2 to any path with the provider token: the status line's code, the
        /// response headers (lowercased names) and the body.
        func request(_ method: String, _ path: String, headers: [String] = [], body: String? = nil) throws -> (Int, [String: String], String) {
            let head = served.dir + "/head-\(UUID().uuidString.prefix(6))"
            var args = [
                "--http2", "-sS", "--cacert", served.ca, "-X", method, "-D", head, "https://localhost:\(served.port)\(path)",
                "-H", "authorization: bearer \(jwt)",
            ]
            for h in headers { args += ["-H", h] }
            if let body { args += ["-d", body] }
            let r = try Subprocess.run("/usr/bin/curl", args)
            let lines = ((try? String(contentsOfFile: head, encoding: .utf8)) ?? "").split(separator: "\r\n")
            let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
            var fields: [String: String] = [:]
            for line in lines.dropFirst() {
                if let colon = line.firstIndex(of: ":") {
                    fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return (status, fields, r.out)
        }

        /// `pushbox activities --json`.
        func activities() throws -> JSONObject {
            let r = CLIRun(["activities", "--json", "--db", db, "--app", app])
            try #require(r.status == 0, "\(r.err)")
            return try #require(try JSONParser.parse(Array(r.out.utf8)).objectValue)
        }

        /// The only activity's token, after a start.
        func token() throws -> String {
            try #require(try activities()["activities"]?.arrayValue?.first?.objectValue?["pushToken"]?.stringValue)
        }

        /// The only activity's timeline: each push's reason, or "applied".
        func timeline() throws -> [String] {
            let events = try activities()["activities"]?.arrayValue?.first?.objectValue?["timeline"]?.arrayValue ?? []
            return events.map { $0.objectValue?["reason"]?.stringValue ?? "applied" }
        }
    }

    static func start(_ ts: Int) -> String {
        #"{"event": "start", "timestamp": \#(ts), "attributes-type": "Match", "attributes": {"home": "Seoul", "away": "Busan"}, "content-state": {"score": 0, "period": "first"}, "input-push-token": 1, "alert": {"title": "Kick-off", "body": "Seoul v Busan"}}"#
    }

    static func update(_ ts: Int, _ state: String = #"{"score": 1, "period": "first"}"#, extra: String = "") -> String {
        #"{"event": "update", "timestamp": \#(ts), "content-state": \#(state)\#(extra)}"#
    }

    @Test(
        "a start, updates out of order, undecodable and over budget, and an end, from curl, aioapns and firebase-admin: each applied or dropped with its reason",
        .enabled(
            if: ProviderLibraryTests.venvReady("aioapns") && ProviderLibraryTests.venvReady("firebase"),
            "needs the aioapns and firebase venvs that make pyclients installs from PyPI"))
    func lifeFromClients() throws {
        let s = try Served()
        let ts = Int(Date().timeIntervalSince1970)
        #expect(try s.curl("5747a27000000000000000000000000000000000000000000000000000000001", Self.start(ts)) == "200 2")
        let token = try s.token()
        #expect(try s.curl(token, Self.update(ts + 60)) == "200 2")
        #expect(try s.curl(token, Self.update(ts + 30)) == "200 2")  // older: the device drops it, APNs does not know
        #expect(try s.curl(token, Self.update(ts + 90, #"{"score": "2", "period": "first"}"#)) == "200 2")
        #expect(try s.curl(token, Self.update(ts + 120)) == "200 2")
        #expect(try s.curl(token, Self.update(ts + 150)) == "200 2")
        #expect(try s.curl(token, Self.update(ts + 180)) == "200 2")  // the fourth priority-10 update this hour
        #expect(try s.curl(token, Self.update(ts + 190, extra: #", "stale-date": \#(ts - 10)"#), priority: 5) == "200 2")
        #expect(try s.activities()["activities"]?.arrayValue?.first?.objectValue?["phase"] == "stale")
        // aioapns: one newer update and one older, at priority 5.
        let aioapns = try Subprocess.run(
            ProviderLibraryTests.venvPython("aioapns"),
            [
                ProviderLibraryTests.clients + "/aioapns_live_activity.py", String(s.served.port), s.served.ca, s.served.key,
                ProviderLibraryTests.keyID, ProviderLibraryTests.teamID, token, String(ts + 300),
            ])
        #expect(aioapns.status == 0 && aioapns.out.split(separator: "\n").allSatisfy { $0.hasPrefix("200 ") }, "\(aioapns.out) \(aioapns.err)")
        // firebase-admin: apns.live_activity_token addresses the activity.
        let (account, env) = try s.served.firebaseClient()
        let firebase = try Subprocess.run(
            ProviderLibraryTests.venvPython("firebase"),
            [ProviderLibraryTests.clients + "/firebase_live_activity.py", account, token, String(ts + 400)],
            environment: env, timeout: 120)
        #expect(firebase.status == 0 && firebase.out.hasPrefix("send projects/demo-proj/messages/"), "\(firebase.out) \(firebase.err)")
        let end = #"{"event": "end", "timestamp": \#(ts + 500), "content-state": {"score": 7, "period": "second"}, "dismissal-date": \#(ts + 1800)}"#
        #expect(try s.curl(token, end) == "200 2")
        #expect(try s.curl(token, Self.update(ts + 600)) == "200 2")
        #expect(
            try s.timeline() == [
                "applied", "applied", "not-newer", "content-state-does-not-decode", "applied", "applied", "priority-budget-exceeded", "applied",
                "applied", "not-newer", "applied", "applied", "activity-ended",
            ])
        let activity = try #require(try s.activities()["activities"]?.arrayValue?.first?.objectValue)
        #expect(activity["phase"] == "ended")
        #expect(activity["state"] == .object(JSONObject([("score", 7), ("period", .string("second"))])))
        #expect(activity["line"] == "Seoul 7 Busan")
        // Each row keeps what the device did with it; a dropped push lit no banner.
        let rows = try s.served.list().filter { $0["liveActivity"] != nil }
        #expect(rows.count == 13)
        let late = try #require(rows.first { $0["liveActivity"]?.objectValue?["reason"] == "not-newer" })
        #expect(late["delivered"] == "discarded" && late["title"] == .null)
        let fcm = try #require(rows.first { $0["source"] == "fcm" })
        #expect(fcm["liveActivity"]?.objectValue?["applied"] == .bool(true) && fcm["title"] == "firebase-admin")
        // The TUI on the same inbox (no socket of its own) shows the same in its Live Activities view.
        let tui = try TUIEndToEndTests.Session(arguments: ["--app", s.app, "--no-socket"], database: s.db)
        #expect(tui.waitFor("pushbox · Live"), "\(tui.screen)")
        try tui.keys("A")
        #expect(tui.waitFor("Match — ended · relevance 0"), "\(tui.screen)")
        #expect(tui.screen.contains("Seoul 7 Busan") && tui.screen.contains("dropped: not-newer"), "\(tui.screen)")
        try tui.keys("J")
        #expect(tui.waitFor("dropped: activity-ended"), "\(tui.screen)")
    }

    @Test("the app's plain topic is refused (DeviceTokenNotForTopic); a start to a device token is dropped, not a push-to-start")
    func refusals() throws {
        let s = try Served()
        // The app's plain topic is not a Live Activity's (DeviceTokenNotForTopic).
        let wrongTopic = try s.curl(
            "5747a27000000000000000000000000000000000000000000000000000000001", Self.start(1), topic: "dev.pushbox.la")
        #expect(wrongTopic.hasSuffix("400 2") && wrongTopic.contains("DeviceTokenNotForTopic"), "\(wrongTopic)")
        // A start to a device token is not a push-to-start.
        #expect(try s.curl(String(repeating: "ab", count: 32), Self.start(Int(Date().timeIntervalSince1970))) == "200 2")
        #expect(try s.activities()["unmatched"]?.arrayValue?.first?.objectValue?["reason"] == "not-push-to-start-token")
    }

    @Test(
        "broadcast (iOS 18): a channel made, listed and read; its updates reach the subscribed activities, out of order resolved by the timestamp; a late joiner gets the stored one; deleted, it is ChannelNotRegistered"
    )
    func broadcast() throws {
        let s = try Served()
        let bundle = "/1/apps/dev.pushbox.la"
        let (made, madeHeaders, _) = try s.request("POST", bundle + "/channels", body: #"{"message-storage-policy": 1, "push-type": "liveactivity"}"#)
        #expect(made == 201)
        let id = try #require(madeHeaders["apns-channel-id"])
        #expect(Data(base64Encoded: id) != nil && madeHeaders["apns-request-id"] != nil)
        let (_, _, all) = try s.request("GET", bundle + "/all-channels")
        #expect(try JSONParser.parse(Array(all.utf8)) == .object(JSONObject([("channels", .array([.string(id)]))])))
        let (read, _, config) = try s.request("GET", bundle + "/channels", headers: ["apns-channel-id: \(id)"])
        #expect(read == 200 && config.contains(#""message-storage-policy":1"#))
        let ts = Int(Date().timeIntervalSince1970)
        let pushToStart = "5747a27000000000000000000000000000000000000000000000000000000001"
        let subscribed = Self.start(ts).replacingOccurrences(of: #""input-push-token": 1"#, with: #""input-push-channel": "\#(id)""#)
        #expect(try s.curl(pushToStart, subscribed) == "200 2")
        let send = { (aps: String) in
            try s.request(
                "POST", "/4/broadcasts/apps/dev.pushbox.la", headers: ["apns-channel-id: \(id)", "apns-push-type: liveactivity", "apns-priority: 5"],
                body: #"{"aps": \#(aps)}"#)
        }
        #expect(try send(Self.update(ts + 60, #"{"score": 2, "period": "first"}"#)).0 == 200)
        #expect(try send(Self.update(ts + 30, #"{"score": 1, "period": "first"}"#)).0 == 200)  // reordered by APNs: older
        #expect(try s.timeline() == ["applied", "applied", "not-newer"])
        // A late joiner gets the message the channel kept (the last one sent) at once.
        #expect(try s.curl(pushToStart, subscribed) == "200 2")
        let second = try #require(try s.activities()["activities"]?.arrayValue?.last?.objectValue)
        let joined = second["timeline"]?.arrayValue?.map { $0.objectValue?["event"]?.stringValue ?? "" } ?? []
        #expect(joined == ["start", "update (stored on channel \(id))"])
        #expect(second["state"]?.objectValue?["score"] == 1)
        let (missing, _, why) = try s.request(
            "POST", "/4/broadcasts/apps/dev.pushbox.la", headers: ["apns-push-type: liveactivity"], body: #"{"aps": {}}"#)
        #expect(missing == 400 && why.contains("MissingChannelId"))
        #expect(try s.request("DELETE", bundle + "/channels", headers: ["apns-channel-id: \(id)"]).0 == 204)
        let (gone, _, reason) = try send(Self.update(ts + 90))
        #expect(gone == 400 && reason.contains("ChannelNotRegistered"))
    }

    @Test("offline, the push service keeps a Live Activity update; back online, it is delivered from storage and applied then")
    func offlineThenOnline() throws {
        let s = try Served()
        let ts = Int(Date().timeIntervalSince1970)
        #expect(try s.curl("5747a27000000000000000000000000000000000000000000000000000000001", Self.start(ts)) == "200 2")
        let token = try s.token()
        #expect(CLIRun(["device", "offline", "--db", s.db]).status == 0)
        #expect(try s.curl(token, Self.update(ts + 60, #"{"score": 4, "period": "second"}"#)) == "200 2")
        #expect(try s.timeline() == ["applied"])  // kept by the push service: not on the device yet
        let online = CLIRun(["device", "online", "--db", s.db, "--app", s.app])
        #expect(online.status == 0 && online.out.contains("Live Activity pushes    1 applied, 0 dropped"), "\(online.out) \(online.err)")
        #expect(try s.timeline() == ["applied", "applied"])
        #expect(try s.activities()["activities"]?.arrayValue?.first?.objectValue?["state"]?.objectValue?["score"] == 4)
        // The row keeps the outcome decided on delivery, and its rendering says so.
        // Rendered for the app (a rendering stored before the outcome was decided is made again).
        let listed = CLIRun(["list", "--db", s.db, "--json", "--history", "--no-extension", "--app", s.app])
        let rows = try listed.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        let row = try #require(rows.first { $0["liveActivity"]?.objectValue?["event"] == "update" })
        #expect(row["liveActivity"]?.objectValue?["applied"] == .bool(true))
    }

    @Test(
        "kalyke's LiveActivityClient, unchanged, under pushbox exec: its update and end reach the running pushbox's activity",
        .enabled(if: ExecTests.available, ExecTests.reason),
        .enabled(if: ProviderLibraryTests.venvReady("kalyke"), "needs the kalyke venv that make pyclients installs from PyPI"))
    func kalykeUnderExec() throws {
        let s = try Served()
        let ts = Int(Date().timeIntervalSince1970)
        #expect(try s.curl("5747a27000000000000000000000000000000000000000000000000000000001", Self.start(ts)) == "200 2")
        let token = try s.token()
        let r = try Subprocess.run(
            try #require(EndToEndTests.binary),
            [
                "exec", "--socket", s.served.dir + "/s.sock", "--", ProviderLibraryTests.venvPython("kalyke"),
                ProviderLibraryTests.clients + "/kalyke_live_activity.py", s.served.key, ProviderLibraryTests.keyID, ProviderLibraryTests.teamID,
                token, String(ts + 60),
            ],
            environment: [
                "XDG_CACHE_HOME": s.served.dir + "/cache", "XDG_DATA_HOME": s.served.dir + "/data", "XDG_RUNTIME_DIR": s.served.dir + "/run",
                "PATH": "/usr/bin:/bin",
            ],
            timeout: 120)
        #expect(r.status == 0 && r.out.contains("update ") && r.out.contains("end "), "\(r.out) \(r.err)")
        #expect(try s.timeline() == ["applied", "applied", "applied"])
        #expect(try s.activities()["activities"]?.arrayValue?.first?.objectValue?["phase"] == "ended")
    }
}
