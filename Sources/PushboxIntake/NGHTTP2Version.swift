import CNGHTTP2

/// The libnghttp2 HTTP/2 is served with.
public enum NGHTTP2Version {
    /// `nghttp2 1.52.0`.
    public static var description: String { "nghttp2 " + (nghttp2_version(0).map { String(cString: $0.pointee.version_str) } ?? "?") }
}
