import CSSL
import Foundation

/// A TLS, certificate or key failure, in words for the command line.
public struct TLSError: Error, Sendable, CustomStringConvertible {
    /// OpenSSL's error, in words.
    public var message: String
    /// The message.
    public var description: String { message }
    /// An error with its message.
    public init(_ message: String) { self.message = message }

    /// `message` followed by OpenSSL's own reason, when it queued one (the queue is then cleared).
    static func openssl(_ message: String) -> TLSError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0, let text = ERR_reason_error_string(code) else { return TLSError(message) }
        return TLSError("\(message): \(String(cString: text))")
    }
}

// @unchecked: the EVP_PKEY is never changed after init, and OpenSSL 3 allows one key to sign and
// verify on many threads (each call makes its own EVP_MD_CTX); SharedKeysTests does so on 8.
/// Small owners of OpenSSL objects, so each is freed once.
final class OwnedKey: @unchecked Sendable {
    // Immutable after init; OpenSSL allows concurrent use of a key for signing and verifying.
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }

    /// Whether `signature` (in OpenSSL's form: DER for ECDSA, raw for RSA) signs `message`, SHA-256.
    func verifySHA256(_ message: [UInt8], signature: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let md = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(md) }
        guard EVP_DigestVerifyInit(md, nil, EVP_sha256(), nil, pointer) == 1 else {
            ERR_clear_error()
            return false
        }
        let ok = EVP_DigestVerify(md, signature.baseAddress, signature.count, message, message.count) == 1
        ERR_clear_error()
        return ok
    }

    /// `message` signed with SHA-256, in OpenSSL's form (DER for ECDSA, raw for RSA).
    func signSHA256(_ message: [UInt8]) -> [UInt8]? {
        guard let md = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(md) }
        var length = 0
        guard EVP_DigestSignInit(md, nil, EVP_sha256(), nil, pointer) == 1,
            EVP_DigestSign(md, nil, &length, message, message.count) == 1
        else {
            ERR_clear_error()
            return nil
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(md, &signature, &length, message, message.count) == 1 else {
            ERR_clear_error()
            return nil
        }
        return Array(signature.prefix(length))
    }
}

// @unchecked: the X509 is never changed after it is issued or read; OpenSSL only reads it when
// it is served (SSL_use_certificate takes its own reference).
final class OwnedCertificate: @unchecked Sendable {
    // Immutable after init; certificates are only read once made.
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { X509_free(pointer) }
}

/// PEM text in and out of OpenSSL through memory BIOs.
enum PEM {
    static func withBIO<T>(_ text: [UInt8], _ body: (OpaquePointer) -> T) -> T? {
        text.withUnsafeBytes { raw -> T? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// Whatever `write` put into a fresh memory BIO.
    static func written(_ write: (OpaquePointer) -> Int32) -> String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let n = pb_bio_mem(bio, &data)
        guard n > 0, let data else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
    }

    /// A private key from PEM (PKCS#8 `PRIVATE KEY`, or `EC PRIVATE KEY`).
    static func privateKey(_ text: [UInt8]) -> OwnedKey? {
        withBIO(text) { PEM_read_bio_PrivateKey($0, nil, nil, nil) }.flatMap { $0 }.map(OwnedKey.init)
    }

    /// A public key from PEM (`PUBLIC KEY`), or the public half of a private key.
    static func anyKey(_ text: [UInt8]) -> OwnedKey? {
        if let key = privateKey(text) { return key }
        ERR_clear_error()
        return withBIO(text) { PEM_read_bio_PUBKEY($0, nil, nil, nil) }.flatMap { $0 }.map(OwnedKey.init)
    }

    static func certificate(_ text: [UInt8]) -> OwnedCertificate? {
        withBIO(text) { PEM_read_bio_X509($0, nil, nil, nil) }.flatMap { $0 }.map(OwnedCertificate.init)
    }

    static func text(of key: OwnedKey) -> String? {
        written { PEM_write_bio_PrivateKey($0, key.pointer, nil, nil, 0, nil, nil) }
    }

    static func text(of certificate: OwnedCertificate) -> String? {
        written { PEM_write_bio_X509($0, certificate.pointer) }
    }
}

/// Files pushbox writes that hold secrets: created with the mode given, never replaced in place
/// half-written (written beside and renamed).
enum SecretFile {
    static func write(_ text: String, to path: String, mode: mode_t) throws(TLSError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else { throw TLSError("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        fchmod(fd, mode)
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw TLSError("cannot write \(path)")
        }
    }

    /// The file's bytes, refused when group or others may read it (as ssh refuses a key).
    static func readPrivate(_ path: String) throws(TLSError) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw TLSError("\(path) cannot be read: \(String(cString: strerror(errno)))") }
        if info.st_mode & 0o077 != 0 {
            throw TLSError("\(path) can be read by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw TLSError("\(path) cannot be read") }
        return Array(data)
    }
}
