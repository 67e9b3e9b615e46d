import Foundation

/// A copy of the JDK's truststore with pushbox's CA added, made with the JDK's own `keytool`
/// and cached per CA and JDK (a JVM start costs a second), for `JAVA_TOOL_OPTIONS` and to bind
/// over the JDK's `cacerts`.
enum JavaTrustStore {
    enum Outcome {
        /// No `keytool` on PATH: no Java to serve.
        case none
        /// Made (or found in the cache): the store, and the JDK's own `cacerts` it copies.
        case made(String, systemStore: String?)
        /// keytool failed; in words.
        case failure(String)
    }

    static func make(caFile: String, cacheFolder: String, environment: [String: String]) -> Outcome {
        guard let keytool = findOnPath("keytool", environment: environment) else { return .none }
        // bin/keytool → lib/security/cacerts (Debian links it to /etc/ssl/certs/java/cacerts).
        let home = ((keytool as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
        let cacerts = ((home as NSString).deletingLastPathComponent as NSString).appendingPathComponent("lib/security/cacerts")
        let systemStore = FileManager.default.fileExists(atPath: cacerts) ? (cacerts as NSString).resolvingSymlinksInPath : nil
        guard let ca = FileManager.default.contents(atPath: caFile) else { return .failure("cannot read \(caFile) for Java's truststore") }
        let original = systemStore.flatMap { FileManager.default.contents(atPath: $0) } ?? Data()
        var key = stableKey(ca + original)
        key += systemStore == nil ? "-empty" : ""
        let store = cacheFolder + "/java-truststore-\(key).p12"
        if FileManager.default.fileExists(atPath: store) { return .made(store, systemStore: systemStore) }
        do {
            try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { return .failure("cannot make \(cacheFolder) for Java's truststore: \(error.localizedDescription)") }
        let partial = store + ".\(getpid()).partial"
        unlink(partial)
        if !original.isEmpty { FileManager.default.createFile(atPath: partial, contents: original) }
        let arguments = [
            "-importcert", "-noprompt", "-alias", "pushbox-local-ca", "-file", caFile, "-keystore", partial, "-storetype", "PKCS12",
            "-storepass", SandboxFiles.javaStorePassword,
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: keytool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { return .failure("cannot run \(keytool): \(error.localizedDescription)") }
        let said = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, rename(partial, store) == 0 else {
            unlink(partial)
            let text = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure("keytool could not make a Java truststore with pushbox's CA (\(text)); Java clients will not trust pushbox")
        }
        return .made(store, systemStore: systemStore)
    }

    /// The first executable `name` on the environment's PATH.
    static func findOnPath(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

extension JavaTrustStore {
    /// A key that is the same in every run for the same bytes (FNV-1a, 64 bits, in hex):
    /// Swift's own Hasher is seeded per process.
    static func stableKey(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
