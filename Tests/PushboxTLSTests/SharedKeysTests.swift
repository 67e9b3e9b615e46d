import Dispatch
import Foundation
import PushboxJSON
import PushboxSystem
import Synchronization
import Testing

@testable import PushboxTLS

/// The OpenSSL-backed types are `@unchecked Sendable` (their C objects are invisible to the
/// compiler): these tests use one instance from many threads at once, as the port's connection
/// threads do, so ThreadSanitizer (`make test-tsan`) sees every path they share.
@Suite("Keys and the local CA, shared by many threads")
final class SharedKeysTests {
    let dir = NSTemporaryDirectory() + "pushbox-keys-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    @Test("one ES256 provider key signs and verifies on 8 threads at once; every signature verifies, a changed message never does")
    func es256() throws {
        let key = try ES256Key.generate(dir + "/AuthKey_SHARED.p8")
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<50 {
                let message = Array("thread \(t) message \(i)".utf8)
                guard let signature = key.sign(message), signature.count == 64, key.verify(message, signature: signature),
                    !key.verify(message + [0], signature: signature)
                else {
                    failures.add(1, ordering: .relaxed)
                    continue
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }

    @Test("one RS256 service-account key signs and verifies on 4 threads at once")
    func rs256() throws {
        let key = try RS256Key.generate()
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for i in 0..<10 {
                let message = Array("assertion \(t).\(i)".utf8)
                guard let signature = key.sign(message), key.verify(message, signature: signature), !key.verify([1] + message, signature: signature)
                else {
                    failures.add(1, ordering: .relaxed)
                    continue
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }

    @Test("the CA issues certificates for several names on several threads; each name gets one certificate, reused")
    func authority() throws {
        let ca = try CertificateAuthority(directory: dir + "/tls")
        let names = ["localhost", "api.push.apple.com", "api.sandbox.push.apple.com", "fcm.googleapis.com", "oauth2.googleapis.com"]
        let issued = Locked<[String: Set<ObjectIdentifier>]>([:])
        DispatchQueue.concurrentPerform(iterations: 10) { _ in
            for name in names {
                guard let certificate = ca.leaf(for: name) else { continue }
                issued.withLock { _ = $0[name, default: []].insert(ObjectIdentifier(certificate)) }
            }
        }
        let table = issued.withLock { $0 }
        #expect(Set(table.keys) == Set(names))
        #expect(table.values.allSatisfy { $0.count == 1 })
        #expect(ca.leaf(for: "example.com") == nil)  // outside the name constraints
    }

    @Test("CAs made at the same moment in one fresh folder are one CA, the one on disk (100 races of 4)")
    func authorityRace() throws {
        var mismatches = 0
        var failures: [String] = []
        for round in 0..<100 {
            let folder = dir + "/race-\(round)"
            let made = Locked<[Result<CertificateAuthority, TLSError>]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let result: Result<CertificateAuthority, TLSError>
                do throws(TLSError) { result = .success(try CertificateAuthority(directory: folder)) } catch { result = .failure(error) }
                made.withLock { $0.append(result) }
            }
            let onDisk = try #require(FileManager.default.contents(atPath: folder + "/ca.pem"))
            for result in made.withLock({ $0 }) {
                switch result {
                case .failure(let error): failures.append("\(error)")
                case .success(let ca):
                    if PEM.text(of: ca.certificate).map({ Array($0.utf8) }) != Array(onDisk) { mismatches += 1 }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(mismatches == 0)
    }
}
