import CSSL
import Foundation

// @unchecked: it only holds an immutable `OwnedKey`; SharedKeysTests signs and verifies on 8 threads.
/// An APNs provider key (`AuthKey_<KEYID>.p8`: ECDSA P-256, PKCS#8 PEM), and ES256 signatures
/// as JWTs carry them: raw r‖s, 64 bytes.
public final class ES256Key: @unchecked Sendable {
    // Immutable after init; OpenSSL verifies with one key on many threads.
    let key: OwnedKey

    init(_ key: OwnedKey) { self.key = key }

    /// Reads a `.p8` private key or a PEM public key; the key must be on P-256.
    public static func load(_ path: String) throws(TLSError) -> ES256Key {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TLSError("\(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        return try parse(Array(data), name: path)
    }

    /// A P-256 key from PEM (a `.p8` private key or a public key); `name` is used in errors.
    public static func parse(_ pem: [UInt8], name: String) throws(TLSError) -> ES256Key {
        guard let key = PEM.anyKey(pem) else { throw .openssl("\(name) is not a PEM key (an APNs .p8 file holds a PKCS#8 EC private key)") }
        var curve = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_base_id(key.pointer) == EVP_PKEY_EC,
            EVP_PKEY_get_utf8_string_param(key.pointer, "group", &curve, curve.count, &length) == 1,
            String(decoding: curve.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
        else {
            throw TLSError("\(name) is not an ECDSA P-256 key; APNs provider keys are P-256 (ES256)")
        }
        return ES256Key(key)
    }

    /// A new key, written as PKCS#8 PEM with mode 0600; an existing file is never replaced.
    public static func generate(_ path: String) throws(TLSError) -> ES256Key {
        guard !FileManager.default.fileExists(atPath: path) else { throw TLSError("\(path) exists; pushbox never replaces a key file") }
        guard let key = pb_ec_p256_new().map(OwnedKey.init), let text = PEM.text(of: key) else { throw .openssl("cannot make a P-256 key") }
        try SecretFile.write(text, to: path, mode: 0o600)
        return ES256Key(key)
    }

    /// Whether `signature` (raw r‖s) signs `message` with this key, SHA-256.
    public func verify(_ message: [UInt8], signature: [UInt8]) -> Bool {
        guard signature.count == 64, let sig = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(sig) }
        let r = BN_bin2bn(signature, 32, nil)
        let s = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return false
        }
        var der: UnsafeMutablePointer<UInt8>?
        let derLength = i2d_ECDSA_SIG(sig, &der)
        guard derLength > 0, let der else { return false }
        defer { CRYPTO_free(der, #file, #line) }
        return key.verifySHA256(message, signature: UnsafeBufferPointer(start: der, count: Int(derLength)))
    }

    /// Signs `message` (ES256, raw r‖s): for `pushbox-bench` and tests that play a provider.
    public func sign(_ message: [UInt8]) -> [UInt8]? {
        guard let der = key.signSHA256(message) else { return nil }
        return der.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let sig = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            defer { ECDSA_SIG_free(sig) }
            var out = [UInt8](repeating: 0, count: 64)
            guard let r = ECDSA_SIG_get0_r(sig), let s = ECDSA_SIG_get0_s(sig) else { return nil }
            BN_bn2binpad(r, &out, 32)
            out.withUnsafeMutableBufferPointer { _ = BN_bn2binpad(s, $0.baseAddress! + 32, 32) }
            return out
        }
    }
}
