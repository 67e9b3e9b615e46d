import CCurlShim

/// The libcurl attachments are downloaded with.
public enum CurlVersion {
    /// `libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 …`.
    public static var description: String { String(cString: pb_curl_version()) }
}
