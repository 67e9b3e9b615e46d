import Foundation
import PushboxTLS
import Testing

@testable import PushboxIntake

#if canImport(Glibc)
    import Glibc
#endif

/// The server handshake waits for what it asks for: a client that has not sent its next flight
/// is waited for, not polled in a loop (a socket is nearly always writable).
@Suite("The TLS handshake's waits")
struct TLSHandshakeTests {
    /// A TLS server stream on one end of a socket pair, the other end given to `client`.
    private func withServer(_ body: (TLSStream, Int32, Int32) throws -> Void) throws {
        // As `pushbox serve` does: OpenSSL's alert to a peer that hung up must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let dir = "/tmp/pbhs-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let context = try TLSServerContext(authority: CertificateAuthority(directory: dir))
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer {
            close(pair[0])
            close(pair[1])
        }
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        let stream = try #require(TLSStream(context: context, fd: pair[0]))
        try body(stream, pair[0], pair[1])
    }

    @Test("a client that sends nothing is waited for until the deadline, a few waits, not thousands of polls")
    func silentClient() throws {
        try withServer { stream, fd, _ in
            let outcome = PortListener.handshake(stream, fd: fd, wakeup: nil, deadline: monotonicMilliseconds() + 600) { false }
            #expect(!outcome.done)
            // Three or four 200 ms waits; waiting for "readable or writable" returned at once, every time.
            #expect((1...6).contains(outcome.waits), "\(outcome.waits) waits")
        }
    }

    @Test("a client that hangs up ends the handshake without waiting on")
    func clientHangsUp() throws {
        try withServer { stream, fd, client in
            shutdown(client, Int32(SHUT_RDWR))
            let outcome = PortListener.handshake(stream, fd: fd, wakeup: nil, deadline: monotonicMilliseconds() + 10_000) { false }
            #expect(!outcome.done)
            #expect(outcome.waits <= 1)
        }
    }
}
