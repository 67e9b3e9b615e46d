import Foundation
import PushboxFetch
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxTLS
import PushboxTestSupport
import Testing

@testable import PushboxIntake

/// The TCP port with real clients: curl, h2load, and Python's h2 (Debian's python3-h2).
@Suite("One TCP port: TLS, HTTP/2, HTTP/1.1, provider tokens")
struct PortTests {
    func arrivals(_ f: PortFixture) throws -> [Arrival] {
        try f.store.history().compactMap(\.arrival)
    }

    @Test("one port for every client: TLS with ALPN h2 or http/1.1, TLS without ALPN, h2c, HTTP/1.1 in clear")
    func everyProtocol() throws {
        let f = try PortFixture()
        let token = f.token()
        #expect(try f.post(token, protocolFlag: "--http2").status == 200)
        #expect(try f.post(token, protocolFlag: "--http1.1").status == 200)
        #expect(
            try f.post(token, protocolFlag: "--http2-prior-knowledge", url: "http://127.0.0.1:\(f.port)/3/device/\(PortFixture.deviceToken)").status
                == 200)
        #expect(try f.post(token, protocolFlag: "--http1.1", url: "http://127.0.0.1:\(f.port)/3/device/\(PortFixture.deviceToken)").status == 200)
        // Without ALPN, as aioapns connects: the HTTP/2 preface inside TLS.
        #expect(try f.h2(["--cafile", f.caPath, "--no-alpn", "--token", token]).contains { $0.hasPrefix("200 ") })
        let seen = try arrivals(f).map { "\($0.protocolName)\($0.tls ? "+tls" : "")" }
        #expect(seen == ["h2+tls", "http/1.1+tls", "h2c", "http/1.1", "h2+tls"])
        let first = try #require(try arrivals(f).first)
        #expect(first.listener == "tcp 127.0.0.1:\(f.port)")
        #expect(first.userAgent?.hasPrefix("curl/") == true)
        // The token was made at the test's start: its age is a few seconds at most on a loaded machine.
        guard case .providerToken(let team, let key, let age, let verified, _) = first.authentication else {
            Issue.record("the first arrival has no provider token: \(first.authentication)")
            return
        }
        #expect(team == PortFixture.teamID && key == PortFixture.keyID && verified && (0...30).contains(age))
        #expect(try arrivals(f).last?.userAgent == "pushbox-tests-h2/1")
        // The Unix socket is unchanged: no token needed, and its arrival says so.
        let client = try #require(UnixHTTPClient(socketPath: f.server.options.socketPath))
        let r = try client.request(
            "POST", url: "http://localhost/3/device/abcd", headers: [("apns-topic", "dev.pushbox.sample")], body: Array(PortFixture.payload.utf8)
        ).get()
        #expect(r.status == 200)
        #expect(try f.store.history().last?.arrival?.listener.hasPrefix("unix ") == true)
    }

    @Test("nghttp and httpx (HTTP/2 over TLS) are answered 200 with an apns-id and stored")
    func nghttpAndHttpx() throws {
        let f = try PortFixture()
        let body = f.dir + "/body.json"
        try Data(PortFixture.payload.utf8).write(to: URL(fileURLWithPath: body))
        let nghttp = try Subprocess.run(
            "/usr/bin/nghttp", ["-v", "-d", body, "-H", "authorization: bearer \(f.token())", "-H", "apns-topic: dev.pushbox.sample", f.url])
        #expect(nghttp.out.contains(":status: 200"), "\(nghttp.out.suffix(800))")
        #expect(nghttp.out.contains("apns-id: "))
        #expect(nghttp.out.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):\(HTTP2Connection.maxConcurrentStreams)"))
        let httpx = try Subprocess.run("/usr/bin/python3", [ProjectPaths.projectRoot + "/Tests/Clients/httpx_send.py", f.url, f.caPath, f.token()])
        let fields = httpx.out.split(separator: " ")
        #expect(fields.count == 3 && fields[0] == "HTTP/2" && fields[1] == "200", "\(httpx.out) \(httpx.err.suffix(400))")
        #expect(
            try f.store.history().map { $0.arrival?.userAgent ?? "" }.map { $0.split(separator: "/").first.map(String.init) ?? "" } == [
                "nghttp2", "python-httpx",
            ])
    }

    @Test("a hundred concurrent streams on one connection: all answered 200 and all stored; the stream limit is advertised")
    func hundredStreams() throws {
        let f = try PortFixture()
        let lines = try f.h2(["--cafile", f.caPath, "--count", "100", "--token", f.token()])
        #expect(lines.first == "max-concurrent-streams \(HTTP2Connection.maxConcurrentStreams)")
        let answers = lines.filter { $0.hasPrefix("200 ") }.map { String($0.split(separator: " ")[1]) }
        #expect(answers.count == 100)
        let stored = Set(try f.store.history().map(\.apnsID))
        #expect(Set(answers) == stored)
        #expect(stored.count == 100)
    }

    @Test("h2load: 200 requests over 2 connections × 50 streams, all 2xx")
    func h2load() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/h2load") else {
            Issue.record("h2load is missing: make test installs nghttp2-client")
            return
        }
        let f = try PortFixture()
        let body = f.dir + "/body.json"
        try Data(PortFixture.payload.utf8).write(to: URL(fileURLWithPath: body))
        let r = try Subprocess.run(
            "/usr/bin/h2load",
            [
                "-n", "200", "-c", "2", "-m", "50", "-d", body, "-H", "authorization: bearer \(f.token())",
                "-H", "apns-topic: dev.pushbox.sample", f.url,
            ])
        #expect(r.out.contains("200 succeeded"), "\(r.out)")
        #expect(r.out.contains("status codes: 200 2xx"), "\(r.out)")
        #expect(f.store.count == 200)
    }

    @Test("provider tokens answered exactly as APNs answers them")
    func tokens() throws {
        let f = try PortFixture()
        let other = try ES256Key.generate(f.dir + "/other.p8")
        #expect(try f.post(f.token()) == (200, nil))
        #expect(try f.post(nil) == (403, "MissingProviderToken"))
        #expect(try f.post(f.token(age: 3700)) == (403, "ExpiredProviderToken"))
        #expect(try f.post(f.token(age: -3600)) == (403, "InvalidProviderToken"))  // iat an hour ahead
        #expect(try f.post(f.token(signer: other)) == (403, "InvalidProviderToken"))  // signed by another key
        #expect(try f.post(f.token(keyID: "ZZZZZ99999")) == (403, "InvalidProviderToken"))  // unknown key
        #expect(try f.post(f.token(alg: "HS256")) == (403, "InvalidProviderToken"))
        #expect(try f.post(f.token(teamID: "OTHERTEAM1")) == (403, "InvalidProviderToken"))
        #expect(try f.post("not.a.jwt") == (403, "InvalidProviderToken"))
        // A refusal keeps its apns-id and stores nothing.
        #expect(f.store.count == 1)
        // Every 403 names its cause for the access log (never sent, never the token).
        let refused = f.answers.withLock { $0 }.filter { $0.status == 403 }
        #expect(refused.count == 8)
        #expect(refused.allSatisfy { ($0.cause ?? "").isEmpty == false && $0.cause?.contains(f.token().prefix(20)) == false }, "\(refused)")
    }

    @Test("every request is on record, refused ones with their cause, no secret kept: GET /requests")
    func requestRecords() throws {
        let f = try PortFixture()
        #expect(try f.post(f.token()) == (200, nil))
        #expect(try f.post(nil) == (403, "MissingProviderToken"))
        #expect(try f.post(f.token(), headers: ["apns-priority: 3"]) == (400, "BadPriority"))
        let r = try f.curl(["-o", "/dev/stdout", "https://localhost:\(f.port)/requests?limit=10"])
        let records = try #require(try JSONParser.parse(Array(r.out.utf8)).arrayValue?.compactMap(\.objectValue), "\(r.out) \(r.err)")
        #expect(records.map { $0["status"]?.intValue } == [400, 403, 200])
        #expect(records.map { $0["reason"]?.stringValue } == ["BadPriority", "MissingProviderToken", nil])
        #expect(records.prefix(2).allSatisfy { $0["cause"]?.stringValue?.isEmpty == false })
        #expect(records.allSatisfy { $0["protocol"] == "h2" && $0["listener"]?.stringValue == "tcp 127.0.0.1:\(f.port)" && $0["apnsId"] != .null })
        // The body as far as it was read: the 403 was answered from the head, before any body byte.
        #expect(records.map { $0["bodyBytes"]?.intValue } == [PortFixture.payload.utf8.count, 0, PortFixture.payload.utf8.count])
        // The token is never kept: no authorization header in any record.
        let names = records.flatMap { $0["headers"]?.arrayValue ?? [] }.compactMap { $0.arrayValue?.first?.stringValue }
        #expect(!names.isEmpty && !names.contains("authorization") && !r.out.contains(f.token().prefix(30)))
        let refusedOnly = try f.curl(["-o", "/dev/stdout", "https://localhost:\(f.port)/requests?refused=1"])
        #expect(try JSONParser.parse(Array(refusedOnly.out.utf8)).arrayValue?.count == 2)
    }

    @Test("one connection: a token changed within 20 minutes is 429 TooManyProviderTokenUpdates; another team is refused")
    func tokenChanges() throws {
        let f = try PortFixture()
        let first = f.token()
        let second = f.token(age: 5)
        func sameConnection(_ tokens: [String]) throws -> [String] {
            var args: [String] = []
            for (i, t) in tokens.enumerated() {
                if i > 0 { args.append("--next") }
                args += [
                    "--http2", "-s", "--cacert", f.caPath, "-o", "/dev/null", "-w", "%{http_code} %{num_connects}\n", f.url,
                    "-H", "apns-topic: dev.pushbox.sample", "-H", "authorization: bearer \(t)", "-d", PortFixture.payload,
                ]
            }
            return try Subprocess.run("/usr/bin/curl", args).out.split(separator: "\n").map(String.init)
        }
        // One connection (the later requests open none), so the changes count.
        #expect(try sameConnection([first, first, second, first]) == ["200 1", "200 0", "429 0", "429 0"])
        #expect(try sameConnection([first, f.token(teamID: "OTHERTEAM1")]) == ["200 1", "403 0"])
    }

    @Test("certificate auth: a client certificate's UID is the topic; another topic, or a Live Activity push, is TopicDisallowed")
    func clientCertificate() throws {
        let f = try PortFixture()
        let key = f.dir + "/client.key"
        let cert = f.dir + "/client.pem"
        let made = try Subprocess.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-keyout", key, "-out", cert, "-subj", "/UID=dev.pushbox.sample/CN=Apple Development IOS Push Services: dev.pushbox.sample",
            ])
        try #require(made.status == 0, "\(made.err)")
        let base = ["--http2", "--cert", cert, "--key", key, "-o", "/dev/stderr", "-w", "%{http_code}", f.url, "-d", PortFixture.payload]
        #expect(try f.curl(base).out == "200")
        let stored = try #require(try f.store.history().last)
        #expect(stored.topic == "dev.pushbox.sample")
        guard case .certificate(let subject, "dev.pushbox.sample")? = stored.arrival?.authentication else {
            Issue.record("the arrival does not record the certificate: \(String(describing: stored.arrival))")
            return
        }
        #expect(subject.contains("dev.pushbox.sample"))
        let other = try f.curl(base + ["-H", "apns-topic: com.example.other"])
        #expect(other.out == "400" && other.err.contains("TopicDisallowed"))
        // Live Activity pushes take token-based authentication only.
        let live = try f.curl(
            base + ["-H", "apns-topic: dev.pushbox.sample.push-type.liveactivity", "-H", "apns-push-type: liveactivity"])
        #expect(live.out == "400" && live.err.contains("TopicDisallowed"))
        #expect(try f.store.history().count == 1)
    }

    @Test("413 PayloadTooLarge carries the sent apns-id over HTTP/2, HTTP/1.1 on the port and the socket")
    func tooLarge() throws {
        let f = try PortFixture()
        let id = "123e4567-e89b-12d3-a456-426614174999"
        let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 6000) + #""}}"#
        let lines = try f.h2(["--cafile", f.caPath, "--token", f.token(), "--body", big, "--header", "apns-id: \(id)"])
        #expect(lines.contains("413 \(id) PayloadTooLarge"))
        let http1 = try f.curl([
            "--http1.1", "-D", "-", "-o", "/dev/null", f.url, "-H", "authorization: bearer \(f.token())", "-H", "apns-id: \(id)", "-d", big,
        ])
        #expect(http1.out.contains("413") && http1.out.lowercased().contains("apns-id: \(id)"))
        let client = try #require(UnixHTTPClient(socketPath: f.server.options.socketPath))
        let r = try client.request("POST", url: "http://localhost/3/device/abcd", headers: [("apns-id", id)], body: Array(big.utf8)).get()
        #expect(r.status == 413 && r.header("apns-id") == id)
        // Each is in the inbox, as every refusal is.
        #expect(try f.store.history().map(\.reason) == Array(repeating: APNsReason.payloadTooLarge.rawValue, count: 3))
    }

    @Test("the CA: 0600 key, a critical nameConstraints extension, a certificate per SNI name; another name is refused by the client")
    func authority() throws {
        let f = try PortFixture()
        let text = try Subprocess.run("/usr/bin/openssl", ["x509", "-in", f.caPath, "-noout", "-text"]).out
        #expect(text.contains("X509v3 Name Constraints: critical"))
        for name in ["DNS:localhost", "DNS:push.apple.com", "DNS:googleapis.com", "IP:127.0.0.1/255.255.255.255"] {
            #expect(text.contains(name), "\(name) missing from the CA's constraints")
        }
        let keyMode = try FileManager.default.attributesOfItem(atPath: f.authority.keyPath)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: f.caPath)[.posixPermissions] as? Int == 0o644)
        // The APNs host name, resolved to pushbox: a certificate for it is issued on the fly.
        let sandbox = "https://api.sandbox.push.apple.com:\(f.port)/3/device/\(PortFixture.deviceToken)"
        let resolve = ["--resolve", "api.sandbox.push.apple.com:\(f.port):127.0.0.1"]
        #expect(
            try f.curl(
                resolve + [
                    "--http2", "-o", "/dev/null", "-w", "%{http_code}", sandbox, "-H", "authorization: bearer \(f.token())",
                    "-H", "apns-topic: dev.pushbox.sample", "-d", PortFixture.payload,
                ]
            ).out == "200")
        // A certificate for example.com signed by this CA (made here with openssl) is refused by curl.
        let leafKey = f.dir + "/leaf.key"
        let csr = f.dir + "/leaf.csr"
        let leaf = f.dir + "/leaf.pem"
        let ext = f.dir + "/leaf.ext"
        try Data("subjectAltName=DNS:example.com\n".utf8).write(to: URL(fileURLWithPath: ext))
        _ = try Subprocess.run(
            "/usr/bin/openssl",
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", leafKey, "-out", csr, "-subj", "/CN=example.com",
            ])
        _ = try Subprocess.run(
            "/usr/bin/openssl",
            [
                "x509", "-req", "-in", csr, "-CA", f.caPath, "-CAkey", f.authority.keyPath,
                "-CAcreateserial", "-out", leaf, "-days", "2", "-extfile", ext,
            ])
        chmod(leafKey, 0o600)
        let rogue = try PortFixture(tlsCertificate: (leaf, leafKey), authorityDirectory: f.dir + "/tls")
        let refused = try rogue.curl(["--resolve", "example.com:\(rogue.port):127.0.0.1", "https://example.com:\(rogue.port)/inbox"])
        #expect(refused.status == 60, "curl must refuse a certificate outside the CA's names: \(refused.err)")
        // The CA key is refused when others can read it.
        chmod(f.authority.keyPath, 0o644)
        #expect { try CertificateAuthority(directory: f.dir + "/tls") } throws: { "\($0)".contains("chmod 600") }
    }

    @Test("bad input: garbage for a preface gets GOAWAY, CONNECT is refused, a failed handshake; everyone else is served")
    func badInput() throws {
        let f = try PortFixture()
        // Cleartext HTTP/2 preface, then garbage: GOAWAY PROTOCOL_ERROR (type 7, code 1).
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Array(repeating: 0xAB, count: 40)
        let reply = try rawExchange(port: f.port, preface)
        #expect(containsGoAway(reply, code: 1), "no GOAWAY PROTOCOL_ERROR in \(reply.prefix(80))")
        let connect = try f.curl(["-p", "--proxy", "http://127.0.0.1:\(f.port)", "-o", "/dev/null", "-w", "%{http_connect}", "https://example.com/"])
        #expect(connect.status == 56 && connect.out == "403", "CONNECT answered \(connect.out), curl exit \(connect.status)")
        let old = try f.curl(["--tlsv1", "--tls-max", "1.1", "-o", "/dev/null", f.url])
        #expect(old.status != 0)  // TLS 1.1 is refused, as APNs refuses it
        #expect(try f.post(f.token()).status == 200)
    }

    @Test("abuse gets the protocol's answer and nobody else is disturbed: a stream flood, bodies reset mid-way, a 1 MB token")
    func abuse() throws {
        let f = try PortFixture()
        // Streams opened before the server's SETTINGS arrive, beyond its limit: REFUSED_STREAM (7).
        let flood = try f.h2(["--cafile", f.caPath, "--count", "1500", "--no-wait", "--token", f.token()]).filter { !$0.hasPrefix("max-") }
        let ok = flood.filter { $0.hasPrefix("200 ") }.count
        let refused = flood.filter { $0.hasPrefix("reset-7 ") }.count
        #expect(ok + refused == 1500, "\(Set(flood.map { $0.split(separator: " ")[0] }))")
        #expect(refused > 0 && ok >= Int(HTTP2Connection.maxConcurrentStreams))
        #expect(f.store.count == ok)
        // Bodies reset half-way are never stored.
        #expect(
            try f.h2(["--cafile", f.caPath, "--count", "5", "--reset-mid-body", "--token", f.token()]).filter { $0.hasPrefix("reset ") }.count == 5)
        // A token of 1 MB: refused on the protocol level (the header list is over the limit).
        let headerFile = f.dir + "/huge-header.txt"
        try Data(("authorization: bearer " + String(repeating: "A", count: 1 << 20) + "\n").utf8).write(to: URL(fileURLWithPath: headerFile))
        let big = try f.curl(["--http2", "-o", "/dev/null", "-w", "%{http_code}", f.url, "-H", "@" + headerFile, "-d", PortFixture.payload])
        #expect(big.out != "200")
        usleep(200_000)
        #expect(f.store.count == ok)
        #expect(try f.post(f.token()).status == 200)
    }

    @Test("idle connections get GOAWAY with IdleTimeout; stopping sends GOAWAY with Shutdown")
    func goAway() throws {
        let f = try PortFixture(idleTimeout: 1)
        let lines = try f.h2(["--cafile", f.caPath, "--token", f.token(), "--linger"])
        #expect(lines.contains { $0.hasPrefix("goaway 0 ") && $0.contains("IdleTimeout") }, "\(lines)")
        // A client that connects and says nothing is closed too (it cannot hold a connection).
        let started = Date()
        #expect(try rawExchange(port: f.port, []).isEmpty)
        #expect(Date().timeIntervalSince(started) < 4.5, "a silent client was kept \(Date().timeIntervalSince(started)) s")
        let g = try PortFixture()
        let out = g.dir + "/out.txt"
        let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let child = try Subprocess.Child(
            "/usr/bin/python3",
            [
                ProjectPaths.projectRoot + "/Tests/Clients/h2_send.py", String(g.port), "--cafile", g.caPath,
                "--token", g.token(), "--linger",
            ], stdout: fd)
        close(fd)
        let deadline = Date().addingTimeInterval(20)
        while g.store.count == 0 && Date() < deadline { usleep(20_000) }
        g.server.stop()
        _ = child.wait(timeout: 10)
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        #expect(text.contains("goaway 0 ") && text.contains("Shutdown"), "\(text)")
    }

    /// Writes `bytes` to the port and reads what comes back until it closes (at most 5 s).
    func rawExchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { return [] }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        return reply
    }

    /// Whether the frames in `bytes` include a GOAWAY with `code`.
    func containsGoAway(_ bytes: [UInt8], code: UInt32) -> Bool {
        var i = 0
        while i + 9 <= bytes.count {
            let length = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            if bytes[i + 3] == 7, i + 9 + 8 <= bytes.count {
                let c = bytes[(i + 13)..<(i + 17)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                if c == code { return true }
            }
            i += 9 + length
        }
        return false
    }
}
