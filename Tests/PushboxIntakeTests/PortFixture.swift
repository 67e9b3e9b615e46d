import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem
import PushboxTLS
import PushboxTestSupport

@testable import PushboxIntake

/// A running intake with its TCP port on 127.0.0.1 (an ephemeral port), TLS from a CA in a
/// temporary folder, and one registered provider key; everything removed when it goes away.
final class PortFixture {
    static let keyID = "ABCDE12345"
    static let teamID = "TEAM123456"
    static let deviceToken = String(repeating: "00", count: 32)
    static let payload = #"{"aps":{"alert":{"title":"Hi","body":"there"}}}"#

    let dir: String
    let store: InboxStore
    let server: IntakeServer
    let authority: CertificateAuthority
    let key: ES256Key
    let port: Int
    var caPath: String { authority.certificatePath }
    /// Every answer the server's access log heard: status, reason body, and pushbox's cause.
    let answers = Locked<[(status: Int, cause: String?)]>([])

    /// `tlsCertificate` serves that PEM certificate and key instead of the CA's.
    init(
        idleTimeout: Int = 30, tlsCertificate: (String, String)? = nil, authorityDirectory: String? = nil,
        serviceAccountKeys: [String: RS256Key] = [:],
        context: ValidationContext = ValidationContext(bundleID: "dev.pushbox.sample", deviceTopics: ["NewsApp", "LangEnUS"])
    ) throws {
        dir = "/tmp/pbp-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        store = try InboxStore(path: dir + "/inbox.sqlite")
        authority = try CertificateAuthority(directory: authorityDirectory ?? dir + "/tls")
        key = try ES256Key.generate(dir + "/AuthKey_\(Self.keyID).p8")
        var options = IntakeServer.Options(socketPath: dir + "/s.sock")
        options.tcp = "127.0.0.1:0"
        options.idleTimeout = idleTimeout
        options.tls = try tlsCertificate.map { try TLSServerContext(certificateFile: $0.0, keyFile: $0.1) } ?? TLSServerContext(authority: authority)
        options.providerKeys = [RegisteredProviderKey(keyID: Self.keyID, teamID: Self.teamID, key: key)]
        options.serviceAccountKeys = serviceAccountKeys
        let service = IntakeService(
            store: store, context: context, renderings: nil)
        service.phone.registrationFile = DeviceRegistrationFile(databasePath: store.path)
        let answers = self.answers
        server = try IntakeServer(
            service: service, options: options, accessLog: { record in answers.withLock { $0.append((record.status, record.cause)) } })
        port = server.tcpPort ?? 0
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A provider token signed with `signer` (the registered key by default).
    func token(keyID: String = keyID, teamID: String = teamID, age: Double = 0, alg: String = "ES256", signer: ES256Key? = nil) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"\#(keyID)"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"\#(teamID)","iat":\#(Int(Date().timeIntervalSince1970 - age))}"#.utf8))
        let input = header + "." + claims
        let signature = (signer ?? key).sign(Array(input.utf8)) ?? []
        return input + "." + Base64URL.encode(signature)
    }

    var url: String { "https://localhost:\(port)/3/device/\(Self.deviceToken)" }

    /// curl with the CA trusted; returns its result.
    func curl(_ arguments: [String], stdin: String? = nil) throws -> Subprocess.Result {
        try Subprocess.run("/usr/bin/curl", ["-s", "--cacert", caPath, "--max-time", "20"] + arguments, stdin: stdin)
    }

    /// `curl … -w` lines of "status body" for a POST with `token` (nil: no authorization header).
    func post(_ token: String?, protocolFlag: String = "--http2", url: String? = nil, headers: [String] = []) throws -> (status: Int, reason: String?)
    {
        var args = [
            protocolFlag, "-o", "/dev/stderr", "-w", "%{http_code}", url ?? self.url, "-H", "apns-topic: dev.pushbox.sample", "-d", Self.payload,
        ]
        if let token { args += ["-H", "authorization: bearer \(token)"] }
        for h in headers { args += ["-H", h] }
        let r = try curl(args)
        let reason = (try? JSONParser.parse(Array(r.err.utf8)))?.objectValue?["reason"]?.stringValue
        return (Int(r.out) ?? 0, reason)
    }

    /// Runs Tests/Clients/h2_send.py with Debian's python3 (python3-h2); one line per answer.
    func h2(_ arguments: [String], timeout: Double = 60) throws -> [String] {
        let script = ProjectPaths.projectRoot + "/Tests/Clients/h2_send.py"
        let r = try Subprocess.run("/usr/bin/python3", [script, String(port)] + arguments, timeout: timeout)
        return r.out.split(separator: "\n").map(String.init)
    }
}
