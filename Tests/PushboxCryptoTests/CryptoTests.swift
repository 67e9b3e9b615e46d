import Foundation
import Testing

@testable import PushboxCrypto

@Suite("AES-256-GCM and key files")
struct CryptoTests {
    let key = [UInt8](repeating: 7, count: 32)

    @Test("seal then open gives the plaintext back; the layout is nonce ‖ ciphertext ‖ tag")
    func roundTrip() throws {
        let plaintext = Array(#"{"title":"안녕","body":"hi"}"#.utf8)
        let sealed = try AESGCM.seal(plaintext, key: key)
        #expect(sealed.count == 12 + plaintext.count + 16)
        #expect(try AESGCM.open(sealed, key: key) == plaintext)
        #expect(try AESGCM.open(try AESGCM.seal([], key: key), key: key) == [])
    }

    @Test("a flipped byte anywhere, a wrong key, or truncated data fails cleanly")
    func tampering() throws {
        let sealed = try AESGCM.seal(Array("secret message".utf8), key: key)
        for index in [0, 12, sealed.count - 1] {
            var bad = sealed
            bad[index] ^= 1
            #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(bad, key: key) }
        }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(sealed, key: [UInt8](repeating: 8, count: 32)) }
        #expect(throws: CryptoError.truncated(20)) { try AESGCM.open(Array(sealed.prefix(20)), key: key) }
        #expect(throws: CryptoError.keyLength(16)) { try AESGCM.open(sealed, key: Array(key.prefix(16))) }
    }

    @Test("keygen writes mode 0600 and refuses to overwrite; a key readable by others is refused")
    func keyFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-keys-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/k.key"
        let key = try KeyFile.generate(path)
        #expect(try KeyFile.load(path) == key)
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600)
        #expect(throws: CryptoError.self) { try KeyFile.generate(path) }
        chmod(path, 0o644)
        #expect { try KeyFile.load(path) } throws: { "\($0)".contains("readable by group or others (mode 0644); run chmod 600") }
        chmod(path, 0o600)
        try "not base64!".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: CryptoError.badBase64("the key file \(path)")) { try KeyFile.load(path) }
    }

    @Test("SHA-256 matches the standard test vector")
    func sha256() {
        #expect(Digest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
