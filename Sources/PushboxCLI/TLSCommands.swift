import Foundation
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxTLS

/// `pushbox cert`: where the local CA is and how to make clients trust it for one process.
enum CertCommand {
    static let spec = CommandSpec(
        name: "cert",
        summary:
            "Print where pushbox's local certificate authority is (made on first need) and the lines that make curl, Python, Node and Go clients trust it for one process. pushbox never touches the system trust store.",
        options: [Options.path],
        run: { args, io in
            let ca: CertificateAuthority
            do { ca = try PortOptions.authority(io) } catch {
                io.err("pushbox cert: \(error)")
                return 1
            }
            if args.flag(Options.path) {
                io.out(ca.certificatePath)
                return 0
            }
            let path = ca.certificatePath
            io.out(
                """
                pushbox's local CA: \(path)
                  (key \(ca.keyPath), mode 0600; limited by nameConstraints to \(CertificateAuthority.permittedDNS.joined(separator: ", ")), 127.0.0.1 and ::1)

                Trust it for one command or process, never system-wide:
                  curl --cacert \(path) --http2 https://localhost:2197/3/device/…
                  export SSL_CERT_FILE=\(path)          # OpenSSL-based clients, Python's ssl, Go on Linux
                  export REQUESTS_CA_BUNDLE=\(path)     # Python requests
                  export NODE_EXTRA_CA_CERTS=\(path)    # Node.js

                Reach pushbox without changing a backend that talks to APNs or FCM (an HTTPS proxy
                that never connects out: only \(PortListener.proxiedHosts.sorted().joined(separator: ", ")) are served, by pushbox itself):
                  export HTTPS_PROXY=http://127.0.0.1:2197
                  curl --cacert \(path) --proxy http://127.0.0.1:2197 https://api.sandbox.push.apple.com/3/device/…
                """)
            return 0
        })
}

/// `pushbox provider-key FILE`: a new APNs-style provider key for trying token auth locally.
enum ProviderKeyCommand {
    static let spec = CommandSpec.writingOneKey(
        name: "provider-key",
        summary:
            "Write a new APNs-style provider key (ECDSA P-256, PKCS#8 PEM, mode 0600) for trying token auth against pushbox. Name it AuthKey_KEYID.p8 and pass it to --provider-key. Refuses to replace a file.",
        wrote: "ECDSA P-256, PKCS#8 PEM, mode 0600"
    ) { path in _ = try ES256Key.generate(path) }
}

/// `pushbox provider-token KEY`: a provider token signed with a key, for curl and scripts.
enum ProviderTokenCommand {
    static let spec = CommandSpec(
        name: "provider-token",
        summary:
            "Print an APNs provider token (ES256 JWT, issued now, valid for an hour) signed with a .p8 key, for `curl -H \"authorization: bearer $(pushbox provider-token …)\"`.",
        operands: "KEY.p8",
        options: [
            Options.keyID,
            Options.teamID.with(help: "The 10-character team id (iss). Default PUSHBOXDEV, the sample app's."),
        ],
        run: { args, io in
            guard args.operands.count == 1 else {
                io.err("pushbox provider-token: give the .p8 key file; see pushbox provider-token --help")
                return 2
            }
            let file = args.operands[0]
            guard let keyID = args.value(Options.keyID) ?? ProviderToken.keyID(fromFileName: file), keyID.count == 10 else {
                io.err("pushbox provider-token: pass --key-id (10 characters), or keep Apple's file name AuthKey_KEYID.p8")
                return 2
            }
            let team = args.value(Options.teamID) ?? "PUSHBOXDEV"
            guard team.count == 10 else {
                io.err("pushbox provider-token: --team-id \(team): a team id has 10 characters")
                return 2
            }
            do {
                let key = try ES256Key.load(file)
                guard let token = ProviderToken.encode(keyID: keyID, teamID: team, issuedAt: Int(Date().timeIntervalSince1970), sign: key.sign) else {
                    io.err("pushbox provider-token: \(file) cannot sign (a public key?)")
                    return 1
                }
                io.out(token)
                return 0
            } catch {
                io.err("pushbox provider-token: \(error)")
                return 1
            }
        })
}

/// `pushbox fcm-credentials FILE`: a service-account file whose assertions pushbox verifies.
enum FCMCredentialsCommand {
    static let spec = CommandSpec(
        name: "fcm-credentials",
        summary:
            "Write a Firebase service-account JSON (a new RSA key, mode 0600, token_uri on pushbox's port) for an unchanged Firebase Admin SDK; pushbox keeps its public key and verifies the SDK's assertions. Refuses to replace a file.",
        operands: "FILE",
        options: [
            Options.project,
            Options.listen.with(value: "HOST:PORT", help: "Where pushbox's port is, for token_uri. Default \(PortOptions.defaultListen)."),
        ],
        run: { args, io in
            guard args.operands.count == 1 else {
                io.err("pushbox fcm-credentials: give exactly one file to write; see pushbox fcm-credentials --help")
                return 2
            }
            let path = args.operands[0]
            guard !FileManager.default.fileExists(atPath: path) else {
                io.err("pushbox fcm-credentials: \(path) exists; pushbox never replaces a key file")
                return 1
            }
            let project = args.value(Options.project) ?? "pushbox-sample"
            let port = (args.value(Options.listen) ?? PortOptions.defaultListen).split(separator: ":").last.map(String.init) ?? "2197"
            do {
                let key = try RS256Key.generate()
                guard let privatePEM = key.privatePEM, let publicPEM = key.publicPEM else { throw TLSError("cannot write the key as PEM") }
                let keyID = (0..<20).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
                let email = "pushbox@\(project).iam.gserviceaccount.com"
                let document = JSONValue.object(
                    JSONObject([
                        ("type", .string("service_account")), ("project_id", .string(project)), ("private_key_id", .string(keyID)),
                        ("private_key", .string(privatePEM)), ("client_email", .string(email)), ("client_id", .string("100000000000000000000")),
                        ("auth_uri", .string("https://accounts.google.com/o/oauth2/auth")), ("token_uri", .string("https://localhost:\(port)/token")),
                        ("auth_provider_x509_cert_url", .string("https://www.googleapis.com/oauth2/v1/certs")),
                        ("client_x509_cert_url", .string("https://www.googleapis.com/robot/v1/metadata/x509/\(email)")),
                        ("universe_domain", .string("googleapis.com")),
                    ]))
                let keys = PortOptions.serviceAccountDirectory(io)
                try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try Data(publicPEM.utf8).write(to: URL(fileURLWithPath: keys + "/\(keyID).pem"))
                let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
                guard fd >= 0 else { throw TLSError("cannot create \(path): \(String(cString: strerror(errno)))") }
                let bytes = Array((JSONWriter.pretty(document) + "\n").utf8)
                let written = write(fd, bytes, bytes.count)
                close(fd)
                guard written == bytes.count else { throw TLSError("cannot write \(path)") }
                io.out("wrote \(path) (project \(project), key \(keyID), mode 0600); pushbox verifies its assertions with \(keys)/\(keyID).pem")
                return 0
            } catch {
                io.err("pushbox fcm-credentials: \(error)")
                return 1
            }
        })
}
