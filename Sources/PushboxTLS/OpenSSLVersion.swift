import CSSL

/// The OpenSSL TLS and the keys are made with.
public enum OpenSSLVersion {
    /// `OpenSSL 3.0.17 1 Jul 2025`.
    public static var description: String { String(cString: OpenSSL_version(Int32(OPENSSL_VERSION))) }
}
