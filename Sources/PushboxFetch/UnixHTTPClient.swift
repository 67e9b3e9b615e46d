import CCurlShim
import Foundation

/// An HTTP/1.1 client over a Unix socket (or TCP), for `pushbox send`, `replay` and the intake
/// benchmark. One handle per thread; connections are kept alive between requests.
public final class UnixHTTPClient {
    /// An answer: status, headers and body.
    public struct Response: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Response headers, in order.
        public var headers: [(String, String)]
        /// The body.
        public var body: [UInt8]

        /// The header's value (case-insensitive name).
        public func header(_ name: String) -> String? {
            headers.last { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    private let curl: UnsafeMutableRawPointer
    /// The Unix socket to connect to (nil: TCP).
    public let socketPath: String?

    final class Buffers {
        var body: [UInt8] = []
        var headers: [(String, String)] = []
    }

    /// A client for the socket at `socketPath`; nil when libcurl cannot start.
    public init?(socketPath: String?) {
        guard Downloader.globalInit, let handle = curl_easy_init() else { return nil }
        curl = handle
        self.socketPath = socketPath
    }

    deinit { curl_easy_cleanup(curl) }

    /// Sends one request; `url` is `http://localhost/…` for the socket.
    public func request(_ method: String, url: String, headers: [(String, String)], body: [UInt8], timeoutMs: Int = 30_000) -> Result<
        Response, DownloadError
    > {
        // A busy pushbox whose socket's queue of connections waiting to be accepted is full
        // refuses a connection at once (EAGAIN on a Unix socket): try again a few times, 20 to
        // 320 ms apart, before saying it could not connect. Nothing was sent on such a try.
        var result = attempt(method, url: url, headers: headers, body: body, timeoutMs: timeoutMs)
        var pause: UInt32 = 20_000
        while socketPath != nil, case .failure(.network(let why)) = result, why == Self.couldNotConnect, pause <= 320_000 {
            usleep(pause)
            pause *= 2
            result = attempt(method, url: url, headers: headers, body: body, timeoutMs: timeoutMs)
        }
        return result
    }

    /// libcurl's words for a connection that was refused.
    static let couldNotConnect = String(cString: curl_easy_strerror(CURLE_COULDNT_CONNECT))

    private func attempt(_ method: String, url: String, headers: [(String, String)], body: [UInt8], timeoutMs: Int) -> Result<
        Response, DownloadError
    > {
        let buffers = Buffers()
        let context = Unmanaged.passRetained(buffers)
        defer { context.release() }
        curl_easy_reset(curl)
        if let socketPath { _ = pb_curl_set_string(curl, CURLOPT_UNIX_SOCKET_PATH, socketPath) }
        _ = pb_curl_set_string(curl, CURLOPT_URL, url)
        _ = pb_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, method)
        _ = pb_curl_set_long(curl, CURLOPT_TIMEOUT_MS, timeoutMs)
        _ = pb_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        var list: UnsafeMutablePointer<curl_slist>?
        // No "Expect: 100-continue" wait: APNs-sized bodies are small.
        for line in headers.map({ "\($0.0): \($0.1)" }) + ["Expect:"] { list = curl_slist_append(list, line) }
        defer { curl_slist_free_all(list) }
        _ = pb_curl_set_pointer(curl, CURLOPT_HTTPHEADER, list)
        _ = pb_curl_set_pointer(curl, CURLOPT_WRITEDATA, context.toOpaque())
        _ = pb_curl_set_pointer(curl, CURLOPT_HEADERDATA, context.toOpaque())
        _ = pb_curl_set_write_function(curl) { data, size, count, ctx in
            let b = Unmanaged<UnixHTTPClient.Buffers>.fromOpaque(ctx!).takeUnretainedValue()
            if let data { b.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count)) }
            return size * count
        }
        _ = pb_curl_set_header_function(curl) { data, size, count, ctx in
            let b = Unmanaged<UnixHTTPClient.Buffers>.fromOpaque(ctx!).takeUnretainedValue()
            if let data {
                let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
                if let colon = line.firstIndex(of: ":") {
                    b.headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)))
                }
            }
            return size * count
        }
        let code: CURLcode = body.withUnsafeBytes { buf in
            if method != "GET" {
                _ = pb_curl_set_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(buf.count))
                _ = pb_curl_set_pointer(
                    curl, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
            return curl_easy_perform(curl)
        }
        guard code == CURLE_OK else {
            if code == CURLE_OPERATION_TIMEDOUT { return .failure(.timedOut(ms: timeoutMs)) }
            return .failure(.network(String(cString: curl_easy_strerror(code))))
        }
        var status = 0
        _ = pb_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        return .success(Response(status: status, headers: buffers.headers, body: buffers.body))
    }
}
