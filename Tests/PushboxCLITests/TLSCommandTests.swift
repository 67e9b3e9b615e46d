import Foundation
import PushboxIntake
import PushboxPayload
import PushboxTestSupport
import Testing

@testable import PushboxCLI

/// `pushbox cert`, `provider-key` and `provider-token`, and the port's options.
@Suite("cert, provider-key, provider-token")
struct TLSCommandTests {
    final class Folder {
        let path = NSTemporaryDirectory() + "pbtls-\(UUID().uuidString.prefix(8))"
        init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static func io(_ environment: [String: String]) -> CommandIO {
        CommandIO(out: { _ in }, err: { _ in }, readStdin: { [] }, environment: environment)
    }

    @Test(
        "serve and cert --path started at the same moment on a fresh machine agree on one CA: curl verifies serve's certificate 50 times of 50",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
    func concurrentStart() throws {
        let binary = try #require(EndToEndTests.binary)
        var failures: [String] = []
        for round in 0..<50 {
            let dir = Folder()
            var env = ProcessInfo.processInfo.environment
            env["XDG_DATA_HOME"] = dir.path + "/data"
            env["XDG_CACHE_HOME"] = dir.path + "/cache"
            let log = dir.path + "/serve.err"
            let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let serve = try Subprocess.Child(
                binary,
                [
                    "serve", "--socket", dir.path + "/s.sock", "--db", dir.path + "/inbox.sqlite", "--quiet", "--no-extension", "--listen",
                    "127.0.0.1:0",
                ],
                environment: env, stderr: fd)
            close(fd)
            let cert = try Subprocess.run(binary, ["cert", "--path"], environment: env)
            var port = 0
            for _ in 0..<400 where port == 0 {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: #"127\.0\.0\.1:(\d+) \("#, options: .regularExpression) {
                    port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast(2)) ?? 0
                } else if serve.poll() != nil {
                    break
                } else {
                    usleep(10_000)
                }
            }
            guard port != 0 else {
                failures.append("round \(round): serve did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
                continue
            }
            let ca = cert.out.trimmingCharacters(in: .whitespacesAndNewlines)
            let curl = try Subprocess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "--cacert", ca, "https://localhost:\(port)/inbox"])
            // 0: verified (whatever the status); 60 would be a certificate that does not verify.
            if curl.status != 0 { failures.append("round \(round): curl exit \(curl.status), cert exit \(cert.status) \(cert.err)") }
            serve.terminate()
        }
        #expect(failures.isEmpty, "\(failures.count) of 50: \(failures.prefix(3))")
    }

    @Test("cert makes the CA on first need under XDG_DATA_HOME; --path prints only its path; the help names every client variable")
    func cert() throws {
        let dir = Folder()
        let env = ["XDG_DATA_HOME": dir.path, "XDG_CACHE_HOME": CLIRun.cacheHome]
        let path = CLIRun(["cert", "--path"], environment: env)
        #expect(path.status == 0)
        #expect(path.out == dir.path + "/pushbox/tls/ca.pem\n")
        #expect(FileManager.default.fileExists(atPath: dir.path + "/pushbox/tls/ca.pem"))
        let text = CLIRun(["cert"], environment: env).out
        for line in ["curl --cacert", "SSL_CERT_FILE=", "REQUESTS_CA_BUNDLE=", "NODE_EXTRA_CA_CERTS="] {
            #expect(text.contains(line), "\(line) missing")
        }
        // The same CA the second time: nothing is remade.
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/pushbox/tls/ca.pem"))
        _ = CLIRun(["cert", "--path"], environment: env)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/pushbox/tls/ca.pem")) == before)
    }

    @Test("provider-key writes a 0600 PKCS#8 key and never replaces one; provider-token signs a token it verifies")
    func keyAndToken() throws {
        let dir = Folder()
        let key = dir.path + "/AuthKey_KEY1234567.p8"
        #expect(CLIRun(["provider-key", key]).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int == 0o600)
        #expect(try String(contentsOfFile: key, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(CLIRun(["provider-key", key]).status == 1)
        let run = CLIRun(["provider-token", key, "--team-id", "TEAM123456"])
        #expect(run.status == 0, "\(run.err)")
        let token = try ProviderToken.parse(run.out.trimmingCharacters(in: .whitespacesAndNewlines)).get()
        #expect(token.keyID == "KEY1234567" && token.teamID == "TEAM123456")
        #expect(abs(token.issuedAt - Date().timeIntervalSince1970) < 60)
        let keys = try PortOptions.providerKeys(
            try parseArguments(["--provider-key", key, "--team-id", "TEAM123456"], spec: ServeCommand.spec), profile: nil)
        #expect(keys.first?.key.verify(token.signingInput, signature: token.signature) == true)
        #expect(CLIRun(["provider-token", dir.path + "/nokey.p8"]).status == 2)  // no key id in the name
    }

    @Test("--provider-key takes AuthKey_KEYID.p8 or KEYID=FILE; --listen off, and --tls-cert needs --tls-key")
    func options() throws {
        let dir = Folder()
        let key = dir.path + "/mykey.p8"
        #expect(CLIRun(["provider-key", key]).status == 0)
        let spec = ServeCommand.spec
        #expect(throws: UsageError.self) { try PortOptions.providerKeys(try parseArguments(["--provider-key", key], spec: spec), profile: nil) }
        let keys = try PortOptions.providerKeys(try parseArguments(["--provider-key", "ABCDE12345=\(key)"], spec: spec), profile: nil)
        #expect(keys.map(\.keyID) == ["ABCDE12345"])
        var options = IntakeServer.Options(socketPath: dir.path + "/s.sock")
        try PortOptions.apply(try parseArguments(["--listen", "off"], spec: spec), profile: nil, io: Self.io([:]), to: &options)
        #expect(options.tcp == nil)
        #expect(throws: UsageError.self) {
            try PortOptions.apply(
                try parseArguments(["--tls-cert", key], spec: spec), profile: nil, io: Self.io(["XDG_DATA_HOME": dir.path]), to: &options)
        }
        // The sample app registers its key: a fresh pushbox verifies the sample's tokens.
        let profile = try AppProfile.load(directory: ProjectPaths.sampleApp)
        #expect(profile.providerKeys.map(\.keyID) == ["SAMPLEKEY1"])
    }
}
