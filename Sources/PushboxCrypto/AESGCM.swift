import CCrypto
import Foundation

/// Why decryption or a key failed, in words for the trace.
public enum CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    case badBase64(String)
    case truncated(Int)
    case authenticationFailed
    case keyLength(Int)
    case keyFilePermissions(path: String, mode: Int)
    case keyFileUnreadable(String)
    case openssl(String)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .badBase64(let what): return "\(what) is not valid base64"
        case .truncated(let n): return "the data is \(n) bytes, shorter than a 12-byte nonce and a 16-byte tag"
        case .authenticationFailed: return "authentication failed: wrong key, or the data or its tag was altered"
        case .keyLength(let n): return "the key is \(n) bytes; AES-256 needs 32"
        case .keyFilePermissions(let path, let mode):
            return
                "key file \(path) is readable by group or others (mode \(String(mode, radix: 8, uppercase: false).leftPadded(to: 4))); run chmod 600 \(path)"
        case .keyFileUnreadable(let why): return why
        case .openssl(let what): return "OpenSSL: \(what)"
        }
    }
}

extension String {
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}

/// AES-256-GCM as the seeds use it: nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes).
public enum AESGCM {
    /// Bytes of nonce before the ciphertext.
    public static let nonceLength = 12
    /// Bytes of authentication tag after it.
    public static let tagLength = 16

    /// Encrypts; a random nonce unless one is given (tests).
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]? = nil) throws(CryptoError) -> [UInt8] {
        guard key.count == 32 else { throw .keyLength(key.count) }
        let iv = nonce ?? SecureRandom.bytes(nonceLength)
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .openssl("no cipher context") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceLength), nil) == 1,
            EVP_EncryptInit_ex(ctx, nil, nil, key, iv) == 1
        else {
            ERR_clear_error()
            throw .openssl("encrypt init failed")
        }
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        var length: Int32 = 0
        var total = 0
        if !plaintext.isEmpty {
            guard EVP_EncryptUpdate(ctx, &out, &length, plaintext, Int32(plaintext.count)) == 1 else {
                ERR_clear_error()
                throw .openssl("encrypt failed")
            }
            total = Int(length)
        }
        let finalOK = out.withUnsafeMutableBufferPointer { buf in
            EVP_EncryptFinal_ex(ctx, buf.baseAddress! + total, &length) == 1
        }
        guard finalOK else {
            ERR_clear_error()
            throw .openssl("encrypt final failed")
        }
        total += Int(length)
        var tag = [UInt8](repeating: 0, count: tagLength)
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, Int32(tagLength), &tag) == 1 else {
            ERR_clear_error()
            throw .openssl("no tag")
        }
        return iv + out.prefix(total) + tag
    }

    /// Decrypts and authenticates; any change to nonce, ciphertext, tag or key fails.
    public static func open(_ combined: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard key.count == 32 else { throw .keyLength(key.count) }
        guard combined.count >= nonceLength + tagLength else { throw .truncated(combined.count) }
        let iv = Array(combined.prefix(nonceLength))
        let ciphertext = Array(combined[nonceLength..<(combined.count - tagLength)])
        var tag = Array(combined.suffix(tagLength))
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .openssl("no cipher context") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceLength), nil) == 1,
            EVP_DecryptInit_ex(ctx, nil, nil, key, iv) == 1
        else {
            ERR_clear_error()
            throw .openssl("decrypt init failed")
        }
        var out = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var length: Int32 = 0
        var total = 0
        if !ciphertext.isEmpty {
            guard EVP_DecryptUpdate(ctx, &out, &length, ciphertext, Int32(ciphertext.count)) == 1 else {
                ERR_clear_error()
                throw .authenticationFailed
            }
            total = Int(length)
        }
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, Int32(tagLength), &tag) == 1 else {
            ERR_clear_error()
            throw .openssl("cannot set tag")
        }
        let ok = out.withUnsafeMutableBufferPointer { buf in
            EVP_DecryptFinal_ex(ctx, buf.baseAddress! + total, &length) > 0
        }
        guard ok else {
            ERR_clear_error()
            throw .authenticationFailed
        }
        total += Int(length)
        return Array(out.prefix(total))
    }
}

/// Random bytes from OpenSSL's CSPRNG.
public enum SecureRandom {
    /// `count` random bytes from OpenSSL's RAND_bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&out, Int32(count)) == 1, "OpenSSL RAND_bytes failed")
        return out
    }
}

/// SHA-256, for content-addressed file names.
public enum Digest {
    /// The SHA-256 of `bytes` as lowercase hex.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = bytes.withUnsafeBufferPointer { SHA256($0.baseAddress, $0.count, &digest) }
        return hex(digest)
    }

    /// Lowercase hex, two digits a byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: bytes.count * 2)
        for (i, b) in bytes.enumerated() {
            out[2 * i] = digits[Int(b >> 4)]
            out[2 * i + 1] = digits[Int(b & 0x0F)]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
