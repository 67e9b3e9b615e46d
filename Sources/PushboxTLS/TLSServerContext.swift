import CSSL
import Foundation

// @unchecked: the SSL_CTX is configured in init and only read afterwards (OpenSSL makes one SSL per
// connection from it on any thread); certificates per name come from the CA's locked table.
/// The server side of TLS on pushbox's port: TLS 1.2+, ALPN `h2` then `http/1.1` (a client that
/// offers neither may still connect), a certificate per SNI name from the local CA (or the user's
/// own certificate), and client certificates asked for and accepted for inspection (APNs'
/// certificate-based auth), never required.
public final class TLSServerContext: @unchecked Sendable {
    // The SSL_CTX is configured once in init and only read after; OpenSSL makes SSL objects
    // from one context on many threads.
    let context: OpaquePointer
    let authority: CertificateAuthority?
    /// The certificate served: the user's, or the CA's for localhost (SNI may replace it).
    public let description: String

    // nonisolated(unsafe): written once by Swift's thread-safe lazy initializer, only read after.
    /// Wire form of the protocols offered by ALPN, kept for the process's life.
    nonisolated(unsafe) static let alpnProtocols: UnsafeMutablePointer<UInt8> = {
        let wire: [UInt8] = [2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8)
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: wire.count)
        p.initialize(from: wire, count: wire.count)
        return p
    }()
    static let alpnLength: UInt32 = 12

    /// Serves certificates issued by `authority` for each SNI name it permits.
    public convenience init(authority: CertificateAuthority) throws(TLSError) {
        guard let localhost = authority.leaf(for: "localhost") else { throw TLSError("the CA could not issue a certificate for localhost") }
        try self.init(
            certificate: localhost, key: authority.leafKey, authority: authority,
            description: "certificates from the local CA \(authority.certificatePath)")
    }

    /// Serves the user's own certificate chain and key (`--tls-cert`, `--tls-key`).
    public convenience init(certificateFile: String, keyFile: String) throws(TLSError) {
        let keyBytes = try SecretFile.readPrivate(keyFile)
        guard let key = PEM.privateKey(keyBytes) else { throw .openssl("--tls-key \(keyFile) is not a PEM private key") }
        guard let data = FileManager.default.contents(atPath: certificateFile), let cert = PEM.certificate(Array(data)) else {
            throw .openssl("--tls-cert \(certificateFile) is not a PEM certificate")
        }
        try self.init(certificate: cert, key: key, authority: nil, description: "the certificate \(certificateFile)")
        // The rest of the file is the chain to send with it.
        SSL_CTX_use_certificate_chain_file(context, certificateFile)
        guard SSL_CTX_check_private_key(context) == 1 else { throw .openssl("--tls-key \(keyFile) is not the key of --tls-cert \(certificateFile)") }
    }

    init(certificate: OwnedCertificate, key: OwnedKey, authority: CertificateAuthority?, description: String) throws(TLSError) {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw .openssl("SSL_CTX_new failed") }
        context = ctx
        self.authority = authority
        self.description = description
        pb_ssl_ctx_min_tls12(ctx)
        guard SSL_CTX_use_certificate(ctx, certificate.pointer) == 1, SSL_CTX_use_PrivateKey(ctx, key.pointer) == 1 else {
            SSL_CTX_free(ctx)
            throw .openssl("the certificate or its key was refused")
        }
        SSL_CTX_set_alpn_select_cb(
            ctx,
            { _, out, outLength, offered, offeredLength, _ in
                var chosen: UnsafeMutablePointer<UInt8>?
                let result = SSL_select_next_proto(
                    &chosen, outLength, TLSServerContext.alpnProtocols, TLSServerContext.alpnLength, offered, offeredLength)
                guard result == OPENSSL_NPN_NEGOTIATED, let chosen else { return SSL_TLSEXT_ERR_NOACK }
                out?.pointee = UnsafePointer(chosen)
                return SSL_TLSEXT_ERR_OK
            }, nil)
        // Asked for, never required; any certificate is accepted, for inspection only.
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, { _, _ in 1 })
        let sessionID: [UInt8] = Array("pushbox".utf8)
        SSL_CTX_set_session_id_context(ctx, sessionID, UInt32(sessionID.count))
        if authority != nil {
            pb_ssl_ctx_servername(
                ctx,
                { ssl, _, arg in
                    guard let ssl, let arg, let name = pb_ssl_servername(ssl) else { return SSL_TLSEXT_ERR_OK }
                    let me = Unmanaged<TLSServerContext>.fromOpaque(arg).takeUnretainedValue()
                    if let authority = me.authority, let cert = authority.leaf(for: String(cString: name)) {
                        SSL_use_certificate(ssl, cert.pointer)
                        SSL_use_PrivateKey(ssl, authority.leafKey.pointer)
                    }
                    return SSL_TLSEXT_ERR_OK
                }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    deinit { SSL_CTX_free(context) }
}
