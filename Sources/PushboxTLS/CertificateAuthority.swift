import CSSL
import Foundation
import PushboxJSON

// @unchecked: its keys and certificate are immutable OpenSSL objects; `issued` is under `lock`.
// SharedKeysTests issues for five names on ten threads.
/// pushbox's local certificate authority: an ECDSA P-256 CA made on first need, limited by a
/// critical nameConstraints extension to the names pushbox stands in for, so a CA that a user
/// trusts too widely still vouches for nothing else. Server certificates are issued per name on
/// the fly, kept in memory.
public final class CertificateAuthority: @unchecked Sendable {
    /// DNS names the CA may sign (each with its subdomains) and the loopback addresses.
    public static let permittedDNS = ["localhost", "push.apple.com", "googleapis.com"]
    static let nameConstraints =
        "critical,"
        + (permittedDNS.map { "permitted;DNS:\($0)" }
        + ["permitted;IP:127.0.0.1/255.255.255.255", "permitted;IP:::1/ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]).joined(separator: ",")

    /// The folder holding `ca.pem` (0644) and `ca.key` (0600).
    public let directory: String
    /// The CA certificate clients trust.
    public var certificatePath: String { directory + "/ca.pem" }
    /// The CA's private key.
    public var keyPath: String { directory + "/ca.key" }
    let certificate: OwnedCertificate
    let key: OwnedKey
    /// One key for every server certificate this process issues.
    let leafKey: OwnedKey
    private let lock = NSLock()
    private var issued: [String: OwnedCertificate] = [:]

    /// `$XDG_DATA_HOME/pushbox/tls`.
    public static func defaultDirectory(dataHome: String) -> String { dataHome + "/pushbox/tls" }

    /// Loads the CA from `directory`, making it first when the folder has none.
    public init(directory: String) throws(TLSError) {
        self.directory = directory
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDir) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw TLSError("cannot create \(directory): \(FileErrorText.describe(error))")
            }
        }
        let certPath = directory + "/ca.pem"
        let keyPath = directory + "/ca.key"
        // Processes that start at once (serve, and `cert --path` for its client) agree on one CA:
        // whoever holds the folder's lock makes it, the others read what it made.
        let lockFD = open(directory + "/.ca.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lockFD >= 0 else { throw TLSError("cannot open \(directory)/.ca.lock: \(String(cString: strerror(errno)))") }
        defer { close(lockFD) }
        while flock(lockFD, LOCK_EX) != 0 {
            guard errno == EINTR else { throw TLSError("cannot lock \(directory)/.ca.lock: \(String(cString: strerror(errno)))") }
        }
        defer { flock(lockFD, LOCK_UN) }
        if !FileManager.default.fileExists(atPath: certPath) && !FileManager.default.fileExists(atPath: keyPath) {
            guard let key = pb_ec_p256_new().map(OwnedKey.init) else { throw .openssl("cannot make a P-256 key") }
            let cert = try Self.makeCA(key: key)
            guard let keyText = PEM.text(of: key), let certText = PEM.text(of: cert) else { throw .openssl("cannot write the CA as PEM") }
            try SecretFile.write(keyText, to: keyPath, mode: 0o600)
            try SecretFile.write(certText, to: certPath, mode: 0o644)
        }
        let keyBytes = try SecretFile.readPrivate(keyPath)
        guard let key = PEM.privateKey(keyBytes) else { throw .openssl("\(keyPath) is not a PEM private key") }
        guard let data = FileManager.default.contents(atPath: certPath), let cert = PEM.certificate(Array(data)) else {
            throw .openssl("\(certPath) is not a PEM certificate")
        }
        guard X509_check_private_key(cert.pointer, key.pointer) == 1 else { throw .openssl("\(keyPath) is not the key of \(certPath)") }
        certificate = cert
        self.key = key
        guard let leaf = pb_ec_p256_new().map(OwnedKey.init) else { throw .openssl("cannot make a P-256 key") }
        leafKey = leaf
    }

    /// Whether the CA may vouch for `name` (a DNS name under a permitted one, or a loopback address).
    public static func permits(_ name: String) -> Bool {
        let host = name.lowercased()
        if host == "127.0.0.1" || host == "::1" { return true }
        return permittedDNS.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// The server certificate for `name` (with the loopback names when `name` is localhost),
    /// issued now or taken from this process's cache. Nil for a name outside the constraints.
    func leaf(for name: String) -> OwnedCertificate? {
        let host = name.lowercased()
        guard Self.permits(host) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let cert = issued[host] { return cert }
        let names = ["localhost", "127.0.0.1", "::1"].contains(host) ? ["DNS:localhost", "IP:127.0.0.1", "IP:::1"] : ["DNS:\(host)"]
        guard let cert = try? issue(commonName: host, subjectAltNames: names) else { return nil }
        issued[host] = cert
        return cert
    }

    /// A server certificate signed by the CA, valid for a year (an hour back, for clock skew).
    func issue(commonName: String, subjectAltNames: [String]) throws(TLSError) -> OwnedCertificate {
        try Self.build(
            subject: [("CN", commonName), ("O", "pushbox")], key: leafKey, issuer: certificate, issuerKey: key, days: 365,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "serverAuth"),
                (NID_subject_alt_name, subjectAltNames.joined(separator: ",")),
                (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
            ])
    }

    static func makeCA(key: OwnedKey) throws(TLSError) -> OwnedCertificate {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, 255)
        let stamp = ISO8601DateFormatter().string(from: Date()).prefix(10)
        return try build(
            subject: [
                ("CN", "pushbox local CA (\(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) \(stamp))"),
                ("O", "pushbox"),
            ], key: key, issuer: nil, issuerKey: key, days: 3650,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
                (NID_name_constraints, nameConstraints),
            ])
    }

    /// An X.509 v3 certificate for `key`, signed by `issuerKey` (self-signed when `issuer` is nil).
    static func build(
        subject: [(String, String)], key: OwnedKey, issuer: OwnedCertificate?, issuerKey: OwnedKey, days: Int,
        extensions: [(Int32, String)]
    ) throws(TLSError) -> OwnedCertificate {
        guard let x = X509_new() else { throw .openssl("X509_new failed") }
        let cert = OwnedCertificate(x)
        X509_set_version(x, 2)
        let serial = BN_new()
        defer { BN_free(serial) }
        BN_rand(serial, 63, -1, 0)
        BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x))
        X509_gmtime_adj(X509_getm_notBefore(x), -3600)
        X509_gmtime_adj(X509_getm_notAfter(x), days * 86400)
        let name = X509_get_subject_name(x)
        for (field, value) in subject { X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0) }
        X509_set_issuer_name(x, issuer.map { X509_get_subject_name($0.pointer) } ?? name)
        X509_set_pubkey(x, key.pointer)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.pointer ?? x, x, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else { throw .openssl("cannot make the extension \(value)") }
            X509_add_ext(x, ext, -1)
            X509_EXTENSION_free(ext)
        }
        guard X509_sign(x, issuerKey.pointer, EVP_sha256()) > 0 else { throw .openssl("cannot sign the certificate") }
        return cert
    }
}
