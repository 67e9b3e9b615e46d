import Foundation

/// A key file: base64 of 32 bytes. Like ssh, pushbox refuses one that group or others can
/// read, and writes new ones with mode 0600.
public enum KeyFile {
    /// The 32-byte key in `path` (base64), refused when group or others can read the file.
    public static func load(_ path: String) throws(CryptoError) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .keyFileUnreadable("key file \(path) cannot be read: \(String(cString: strerror(errno)))") }
        let mode = Int(info.st_mode & 0o7777)
        if mode & 0o077 != 0 { throw .keyFilePermissions(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .keyFileUnreadable("key file \(path) cannot be read") }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = Data(base64Encoded: text) else { throw .badBase64("the key file \(path)") }
        guard key.count == 32 else { throw .keyLength(key.count) }
        return Array(key)
    }

    /// Writes a new random key (mode 0600); refuses to replace an existing file.
    public static func generate(_ path: String) throws(CryptoError) -> [UInt8] {
        let key = SecureRandom.bytes(32)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw .keyFileUnreadable("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let text = Array((Data(key).base64EncodedString() + "\n").utf8)
        guard write(fd, text, text.count) == text.count else { throw .keyFileUnreadable("cannot write \(path)") }
        return key
    }
}
