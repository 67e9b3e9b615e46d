import CSSL
import Foundation

// @unchecked: it only holds an immutable `OwnedKey`; SharedKeysTests signs and verifies on 4 threads.
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

    /// Whether `signature` is this key's RS256 signature of `message`.
    public func verify(_ message: [UInt8], signature: [UInt8]) -> Bool {
        signature.withUnsafeBufferPointer { key.verifySHA256(message, signature: $0) }
    }

    /// The RS256 signature of `message` (a private key only).
    public func sign(_ message: [UInt8]) -> [UInt8]? { key.signSHA256(message) }
}
