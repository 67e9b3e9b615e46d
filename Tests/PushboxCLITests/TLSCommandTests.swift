import Foundation
import PushboxCore
import PushboxIntake
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
