import Foundation
import PushboxDevice
import PushboxFetch
import PushboxJSON
import PushboxPayload
import PushboxSystem
import PushboxTLS
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// FCM HTTP v1, the OAuth token endpoint and the CONNECT tunnel, with curl and httpx.
@Suite("FCM HTTP v1, OAuth tokens and the HTTPS proxy")
struct FCMEndpointTests {
    static let send = "/v1/projects/demo/messages:send"
    static let message = #"{"message":{"topic":"NewsApp","notification":{"title":"FCM","body":"hello"}}}"#

    /// POSTs over the Unix socket (open without auth, like the APNs API there).
    func post(_ f: PortFixture, _ body: String, path: String = send) throws -> (Int, JSONObject) {
        let client = try #require(UnixHTTPClient(socketPath: f.server.options.socketPath))
        let r = try client.request("POST", url: "http://localhost" + path, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
            .get()
        return (r.status, (try? JSONParser.parse(r.body).objectValue) ?? JSONObject())
    }

    @Test("messages:send answers as FCM: the message's name, validate_only stores nothing, errors in Google's shape with the field")
    func answers() throws {
        let f = try PortFixture()
        let (status, ok) = try post(f, Self.message)
        #expect(status == 200)
        let stored = try #require(try f.store.history().last)
        #expect(ok["name"]?.stringValue == "projects/demo/messages/\(stored.apnsID)")
        #expect(stored.source == .fcm && stored.arrival?.fcmProject == "demo")
        let dry = try post(f, #"{"validate_only":true,"message":{"topic":"NewsApp","notification":{"title":"x"}}}"#)
        #expect(dry.0 == 200 && dry.1["name"]?.stringValue == "projects/demo/messages/fake_message_id")
        #expect(f.store.count == 1)
        let badData = try post(f, #"{"message":{"topic":"NewsApp","data":{"a":"1","count":2}}}"#)
        #expect(badData.0 == 400)
        #expect(badData.1.value(atPath: "error.status")?.stringValue == "INVALID_ARGUMENT")
        let details = badData.1.value(atPath: "error.details")?.arrayValue ?? []
        #expect(details.first?.objectValue?["@type"]?.stringValue == "type.googleapis.com/google.firebase.fcm.v1.FcmError")
        #expect(details.first?.objectValue?["errorCode"]?.stringValue == "INVALID_ARGUMENT")
        let violation = details.last?.objectValue?["fieldViolations"]?.arrayValue?.first?.objectValue
        #expect(violation?["field"]?.stringValue == "message.data[1].value")
        let locArgs = try post(f, #"{"message":{"topic":"NewsApp","apns":{"payload":{"aps":{"alert":{"title-loc-key":"T","title-loc-args":[3]}}}}}}"#)
        #expect(
            locArgs.1.value(atPath: "error.details")?.arrayValue?.last?.objectValue?["fieldViolations"]?.arrayValue?.first?.objectValue?["field"]?
                .stringValue
                == "message.apns.payload.aps.alert.title-loc-args[0]")
        #expect(try post(f, "not json").1.value(atPath: "error.code")?.intValue == 400)
        let noMessage = try post(f, #"{"validate_only":false}"#)
        #expect(
            noMessage.0 == 400
                && noMessage.1.value(atPath: "error.details")?.arrayValue?.last?.objectValue?["fieldViolations"]?.arrayValue?.first?.objectValue?[
                    "field"]?.stringValue == "message"
        )
        // Valid but not for this device: answered 200 as FCM would, stored, judged not targeted.
        let korean = try post(
            f, #"{"message":{"condition":"'NewsApp' in topics || 'Sports' in topics && 'LangKoKR' in topics","notification":{"title":"ko"}}}"#)
        #expect(korean.0 == 200)
        let notForUs = try #require(try f.store.history().last)
        guard case .notTargeted(let why) = Validator.validate(notForUs.rawPayload, context: f.server.service.phone.context).targeting else {
            Issue.record("the Korean-only condition was judged to target an en-US device")
            return
        }
        #expect(why.contains("((true || false) && false) = false"))
        // fid, the Admin SDKs' successor of token, is a target.
        #expect(try post(f, #"{"message":{"fid":"cXd2ZmlkZmlkZmlkZmlkZm","notification":{"title":"fid"}}}"#).0 == 200)
        #expect(try post(f, #"{"message":{"token":"a","topic":"NewsApp"}}"#).0 == 400)  // exactly one target
    }

    @Test(
        "validate_only is judged by the device as the real send is: a foreign token in strict mode, an uninstalled app, a malformed target get the same answer, and nothing is stored",
        arguments: [
            #"{"token":"staleInstance01:APA91bxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","notification":{"title":"x"}}"#,
            #"{"token":"not a token!","notification":{"title":"x"}}"#,
            #"{"fid":"not-an-installation-id","notification":{"title":"x"}}"#,
            #"{"topic":"NewsApp","token":"a","notification":{"title":"x"}}"#,
            #"{"token":"\#(DeviceIdentity.fcmToken)","notification":{"title":"x"}}"#,
        ])
    func dryRunAnswersAsTheSend(message: String) throws {
        let f = try PortFixture(
            context: {
                var c = ValidationContext(bundleID: "dev.pushbox.sample", deviceTopics: ["NewsApp"])
                c.fcmTokens = .strict
                return c
            }())
        for uninstalled in [false, true] {
            _ = try f.server.service.phone.registrationFile?.update { $0.uninstalledAt = uninstalled ? 1 : nil }
            let before = f.store.count
            let dry = try post(f, #"{"validate_only":true,"message":"# + message + "}")
            #expect(f.store.count == before, "a dry run stored a row")
            let real = try post(f, #"{"message":"# + message + "}")
            #expect(dry.0 == real.0, "\(message) uninstalled: \(uninstalled): dry \(dry.1) real \(real.1)")
            #expect(dry.1.value(atPath: "error.status") == real.1.value(atPath: "error.status"))
            #expect(dry.1.value(atPath: "error.details") == real.1.value(atPath: "error.details"))
            if dry.0 == 200 { #expect(dry.1["name"]?.stringValue == "projects/demo/messages/fake_message_id") }
        }
    }

    /// An RS256 assertion for the JWT-bearer grant.
    func assertion(
        _ key: RS256Key, kid: String, iat: Double = Date().timeIntervalSince1970, lifetime: Double = 3600,
        audience: String = "https://oauth2.googleapis.com/token"
    ) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"RS256","typ":"JWT","kid":"\#(kid)"}"#.utf8))
        let claims = Base64URL.encode(
            Array(
                #"{"iss":"sa@demo.iam.gserviceaccount.com","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"\#(audience)","iat":\#(Int(iat)),"exp":\#(Int(iat + lifetime))}"#
                    .utf8))
        return header + "." + claims + "." + Base64URL.encode(key.sign(Array((header + "." + claims).utf8)) ?? [])
    }

    @Test("OAuth: the JWT-bearer grant gives an access token; FCM on the port needs one; Google's errors for bad grants")
    func oauth() throws {
        let key = try RS256Key.generate()
        let other = try RS256Key.generate()
        let f = try PortFixture(serviceAccountKeys: ["k1": key])
        func token(_ form: String) throws -> (String, JSONObject) {
            let r = try f.curl(["--http1.1", "-w", "\n%{http_code}", "https://localhost:\(f.port)/token", "-d", form])
            let lines = r.out.split(separator: "\n")
            return (String(lines.last ?? ""), (try? JSONParser.parse(Array((lines.dropLast().last ?? "").utf8)).objectValue) ?? JSONObject())
        }
        let grant = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="
        let (status, answer) = try token(grant + assertion(key, kid: "k1"))
        #expect(status == "200" && answer["token_type"]?.stringValue == "Bearer" && answer["expires_in"]?.intValue == 3599)
        let access = try #require(answer["access_token"]?.stringValue)
        #expect(try token(grant + assertion(other, kid: "k1")).1["error_description"]?.stringValue == "Invalid JWT Signature.")
        #expect(try token(grant + assertion(key, kid: "k1", lifetime: 7200)).1["error"]?.stringValue == "invalid_grant")
        #expect(try token(grant + assertion(key, kid: "k1", audience: "https://example.com/token")).1["error"]?.stringValue == "invalid_grant")
        #expect(try token("grant_type=password&assertion=x").1["error"]?.stringValue == "unsupported_grant_type")
        // An assertion of a service account pushbox did not make: accepted, not verified.
        let foreign = try token(grant + assertion(other, kid: "unknown"))
        #expect(foreign.0 == "200")
        func send(_ bearer: String?) throws -> String {
            var args = ["--http2", "-o", "/dev/stderr", "-w", "%{http_code}", "https://localhost:\(f.port)\(Self.send)", "-d", Self.message]
            if let bearer { args += ["-H", "Authorization: Bearer \(bearer)"] }
            return try f.curl(args).out
        }
        #expect(try send(nil) == "401")
        #expect(try send("ya29.not-one-of-ours") == "401")
        #expect(try send(access) == "200")
        guard case .accessToken("sa@demo.iam.gserviceaccount.com", verified: true)? = try f.store.history().last?.arrival?.authentication else {
            Issue.record("the arrival does not name the service account")
            return
        }
        #expect(try send(foreign.1["access_token"]?.stringValue) == "200")
        guard case .accessToken(_, verified: false)? = try f.store.history().last?.arrival?.authentication else {
            Issue.record("an unverified assertion's token is recorded as verified")
            return
        }
    }

    @Test("an access token stops working after its hour, as Google's do")
    func expiry() throws {
        let clock = Locked(Date().timeIntervalSince1970)
        let f = try PortFixture()
        let key = try RS256Key.generate()
        let fcm = APIRouter(
            service: f.server.service, fcm: FCMEndpoint(service: f.server.service, accountKeys: ["k1": key]) { clock.withLock { $0 } })
        let form =
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion(key, kid: "k1", iat: clock.withLock { $0 })
        let issued = fcm.handle(HTTPRequest(method: "POST", path: "/token", headers: [], body: Array(form.utf8)))
        let token = try #require(try JSONParser.parse(issued.body).objectValue?["access_token"]?.stringValue)
        let head = RequestHead(
            method: "POST", path: Self.send, headers: [("authorization", "Bearer " + token)],
            connection: ConnectionInfo(listener: "tcp test", protocolName: "h2", tls: true, requiresAuth: true))
        #expect(fcm.early(head).response == nil)
        clock.withLock { $0 += 3601 }
        #expect(fcm.early(head).response?.status == 401)
    }

    @Test("CONNECT: the hosts pushbox stands in for are served here with their own certificate; others are refused, nothing connects out")
    func proxy() throws {
        let key = try RS256Key.generate()
        let f = try PortFixture(serviceAccountKeys: ["k1": key])
        let proxy = ["--proxy", "http://127.0.0.1:\(f.port)"]
        /// A push to an APNs host through the proxy, over `protocolFlag`.
        func push(_ protocolFlag: String, host: String) throws -> Subprocess.Result {
            try f.curl(
                proxy + [
                    protocolFlag, "-o", "/dev/null", "-w", "%{http_code} %{http_version}", "https://\(host)/3/device/\(PortFixture.deviceToken)",
                    "-H", "authorization: bearer \(f.token())", "-H", "apns-topic: dev.pushbox.sample", "-d", PortFixture.payload,
                ])
        }
        // An APNs host through the proxy: TLS for that name, HTTP/2, the APNs API.
        let apns = try push("--http2", host: "api.sandbox.push.apple.com")
        #expect(apns.out == "200 2", "\(apns.err)")
        #expect(try f.store.history().last?.arrival?.listener == "tcp 127.0.0.1:\(f.port) via CONNECT api.sandbox.push.apple.com:443")
        // The same over HTTP/1.1 inside the tunnel is recorded as having come through it too.
        // (The device is a debug build's: its token is for the development hosts.)
        let http1 = try push("--http1.1", host: "api.development.push.apple.com")
        #expect(http1.out == "200 1.1", "\(http1.err)")
        let last = try #require(try f.store.history().last?.arrival)
        #expect(
            last.listener == "tcp 127.0.0.1:\(f.port) via CONNECT api.development.push.apple.com:443" && last.protocolName == "http/1.1" && last.tls)
        // Another host: 403, and no socket of this process points anywhere but loopback.
        let refused = try f.curl(proxy + ["-o", "/dev/null", "-w", "%{http_connect}", "https://example.com/"])
        #expect(refused.out == "403")
        // ... and is in the access log, with its cause.
        #expect(f.answers.withLock { $0 }.contains { $0.status == 403 && $0.cause != nil })
        #expect(
            Self.remoteAddresses().allSatisfy { $0.hasPrefix("127.") || $0 == "0.0.0.0" || $0 == "::1" || $0 == "::" }, "\(Self.remoteAddresses())")
        // A tunnel whose client speaks plain HTTP instead of TLS, or CONNECTs again: 400.
        let plain = try Subprocess.run(
            "/usr/bin/curl",
            ["-s", "-p", "--proxy", "http://127.0.0.1:\(f.port)", "-o", "/dev/null", "-w", "%{http_code}", "http://fcm.googleapis.com:443/"])
        #expect(plain.out == "400")
        // A second CONNECT inside a tunnel is refused.
        let twice = Array("CONNECT fcm.googleapis.com:443 HTTP/1.1\r\nHost: fcm.googleapis.com\r\n\r\nCONNECT example.com:443 HTTP/1.1\r\n\r\n".utf8)
        let answers = String(decoding: try PortTests().rawExchange(port: f.port, twice), as: UTF8.self)
        #expect(answers.hasPrefix("HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 400 Bad Request"), "\(answers)")
        // httpx over HTTP/2 through the tunnel (as Go's and Python's async clients do).
        let script = """
            import httpx, sys
            try:
                client = httpx.Client(http2=True, verify=sys.argv[1], proxy=sys.argv[2])
            except TypeError:  # httpx before 0.26 (Debian 12's) calls it proxies
                client = httpx.Client(http2=True, verify=sys.argv[1], proxies=sys.argv[2])
            with client as c:
                r = c.post("https://api.sandbox.push.apple.com/3/device/\(PortFixture.deviceToken)", content=b'\(PortFixture.payload)',
                           headers={"authorization": "bearer " + sys.argv[3], "apns-topic": "dev.pushbox.sample"})
                print(r.http_version, r.status_code)
            """
        let httpx = try Subprocess.run("/usr/bin/python3", ["-c", script, f.caPath, "http://127.0.0.1:\(f.port)", f.token()])
        #expect(httpx.out.trimmingCharacters(in: .whitespacesAndNewlines) == "HTTP/2 200", "\(httpx.err.suffix(300))")
    }

    /// Remote addresses of this process's TCP sockets (from /proc), to show nothing connected out.
    static func remoteAddresses() -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var inodes = Set<String>()
        for fd in fds {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd), target.hasPrefix("socket:[") {
                inodes.insert(String(target.dropFirst(8).dropLast()))
            }
        }
        var out: [String] = []
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            let rows = ((try? String(contentsOfFile: table, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst()
            for row in rows {
                let f = row.split(separator: " ")
                guard f.count > 9, inodes.contains(String(f[9])) else { continue }
                let hex = String(f[2].split(separator: ":")[0])
                if hex.count == 8, let v = UInt32(hex, radix: 16) {
                    out.append("\(v & 0xff).\((v >> 8) & 0xff).\((v >> 16) & 0xff).\(v >> 24)")
                } else {
                    out.append(hex == String(repeating: "0", count: 32) ? "::" : (hex == "00000000000000000000000001000000" ? "::1" : hex))
                }
            }
        }
        return out
    }
}
