import CSSL
import Foundation

/// One TLS connection on a non-blocking socket, driven by its owner's poll loop: each call
/// says how many bytes moved or what the socket must become ready for first.
public final class TLSStream {
    /// What a handshake, read or write call did.
    public enum Progress: Equatable {
        case done(Int)
        case wantRead
        case wantWrite
        case closed
        case failed(String)
    }

    private let ssl: OpaquePointer
    /// Kept alive as long as the connection: the SNI callback reads it.
    private let context: TLSServerContext

    /// A server-side TLS connection on the non-blocking socket `fd`; nil when OpenSSL cannot make one.
    public init?(context: TLSServerContext, fd: Int32) {
        guard let ssl = SSL_new(context.context) else { return nil }
        self.ssl = ssl
        self.context = context
        SSL_set_fd(ssl, fd)
        pb_ssl_nonblocking_modes(ssl)
    }

    deinit { SSL_free(ssl) }

    private func progress(_ n: Int32) -> Progress {
        if n > 0 { return .done(Int(n)) }
        let error = SSL_get_error(ssl, n)
        switch error {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
            ERR_clear_error()
            return .closed
        default:
            let code = ERR_get_error()
            ERR_clear_error()
            let reason = code == 0 ? "TLS error \(error)" : ERR_reason_error_string(code).map { String(cString: $0) } ?? "TLS error \(code)"
            return .failed(reason)
        }
    }

    /// Continues the server handshake; `.done` once it is complete.
    public func handshake() -> Progress { progress(SSL_accept(ssl)) }

    /// Reads decrypted bytes into `buffer`, or says what the socket must wait for.
    public func read(_ buffer: UnsafeMutableRawBufferPointer) -> Progress {
        progress(SSL_read(ssl, buffer.baseAddress, Int32(buffer.count)))
    }

    /// Encrypts and writes bytes from `buffer`, or says what the socket must wait for.
    public func write(_ buffer: UnsafeRawBufferPointer) -> Progress {
        guard buffer.count > 0 else { return .done(0) }
        return progress(SSL_write(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max)))))
    }

    /// Decrypted bytes waiting inside OpenSSL (poll on the socket will not report them).
    public var pending: Int { Int(SSL_pending(ssl)) }

    /// From now on, reads take every byte the socket holds, records ahead included: a reader
    /// must then read on while `hasPending` (poll does not see those records), until a read
    /// says `wantRead`.
    public func readAhead() { pb_ssl_read_ahead(ssl) }

    /// Whether OpenSSL holds bytes not yet returned: decrypted, or records read ahead (perhaps
    /// only part of one, which a read answers with `wantRead`).
    public var hasPending: Bool { SSL_has_pending(ssl) == 1 }

    /// The protocol ALPN chose (`h2`, `http/1.1`), or nil when the client offered none we speak.
    public var alpn: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The SNI name the client asked for.
    public var serverName: String? { pb_ssl_servername(ssl).map { String(cString: $0) } }

    /// The client's certificate, when it sent one (APNs' certificate-based auth).
    public var clientCertificate: ClientCertificate? {
        guard let cert = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(cert) }
        return ClientCertificate(cert)
    }

    /// Sends close_notify, without waiting for the peer's.
    public func shutdown() { SSL_shutdown(ssl) }
}

/// What pushbox reads from a TLS client certificate: its subject and the subject's UID (on
/// Apple's push certificates, the app's bundle id: the topic it may push to).
public struct ClientCertificate: Sendable, Equatable {
    /// The certificate's subject.
    public var subject: String
    /// Its UID attribute (APNs certificates carry the bundle id there).
    public var uid: String?

    init(_ cert: OpaquePointer) {
        let name = X509_get_subject_name(cert)
        subject = PEM.written { X509_NAME_print_ex($0, name, 0, pb_xn_flag_rfc2253()) >= 0 ? 1 : 0 } ?? ""
        let index = X509_NAME_get_index_by_NID(name, NID_userId, -1)
        if index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) {
            var utf8: UnsafeMutablePointer<UInt8>?
            let n = ASN1_STRING_to_UTF8(&utf8, data)
            if n >= 0, let utf8 {
                uid = String(decoding: UnsafeBufferPointer(start: utf8, count: Int(n)), as: UTF8.self)
                CRYPTO_free(utf8, #file, #line)
            }
        }
    }
}
