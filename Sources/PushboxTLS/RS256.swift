import CSSL
import Foundation

/// A Google service account's RSA key, and RS256 signatures (PKCS#1 v1.5, SHA-256) as the
/// JWT assertions of the OAuth 2 JWT-bearer grant carry them.
public final class RS256Key: @unchecked Sendable {
    // Immutable after init; OpenSSL verifies with one key on many threads.
    let key: OwnedKey

    init(_ key: OwnedKey) { self.key = key }

    /// A PEM private key (a service account's `private_key`) or public key.
    public static func parse(_ pem: [UInt8], name: String) throws(TLSError) -> RS256Key {
        guard let key = PEM.anyKey(pem) else { throw .openssl("\(name) is not a PEM key") }
        guard EVP_PKEY_get_base_id(key.pointer) == EVP_PKEY_RSA else { throw TLSError("\(name) is not an RSA key") }
        return RS256Key(key)
    }

    /// A new 2048-bit key.
    public static func generate() throws(TLSError) -> RS256Key {
        guard let key = pb_rsa_new(2048).map(OwnedKey.init) else { throw .openssl("cannot make an RSA key") }
        return RS256Key(key)
    }

    /// The private key as PKCS#8 PEM (a service account's `private_key`).
    public var privatePEM: String? { PEM.text(of: key) }

    /// The public half as PEM (`PUBLIC KEY`), which is all pushbox keeps to verify assertions.
    public var publicPEM: String? { PEM.written { PEM_write_bio_PUBKEY($0, key.pointer) } }

    public func verify(_ message: [UInt8], signature: [UInt8]) -> Bool {
        guard let md = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(md) }
        guard EVP_DigestVerifyInit(md, nil, EVP_sha256(), nil, key.pointer) == 1 else { ERR_clear_error(); return false }
        let ok = EVP_DigestVerify(md, signature, signature.count, message, message.count) == 1
        ERR_clear_error()
        return ok
    }

    public func sign(_ message: [UInt8]) -> [UInt8]? {
        guard let md = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(md) }
        var length = 0
        guard EVP_DigestSignInit(md, nil, EVP_sha256(), nil, key.pointer) == 1,
              EVP_DigestSign(md, nil, &length, message, message.count) == 1 else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(md, &signature, &length, message, message.count) == 1 else { return nil }
        return Array(signature.prefix(length))
    }
}
