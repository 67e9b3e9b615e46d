import CCurlShim
import Foundation
import PushboxPayload
import Synchronization

/// A flag another thread sets to stop work in progress (the extension's deadline).
public final class CancelFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// A flag not yet set.
    public init() {}

    /// Whether the download was told to stop.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Sets the flag; work in progress stops at its next check.
    public func cancel() { cancelled.store(true, ordering: .releasing) }
}

/// Why a download gave nothing usable.
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    case timedOut(ms: Int)
    case tooLarge(limit: Int, received: Int)
    case tooManyRedirects(Int)
    case schemeRefused(String)
    case httpStatus(Int)
    case cancelled
    case network(String)

    /// Why the download failed, in words.
    public var description: String {
        switch self {
        case .timedOut(let ms): return "timed out after \(ms) ms"
        case .tooLarge(let limit, let received): return "larger than the \(limit)-byte cap for its type (stopped after \(received) bytes)"
        case .tooManyRedirects(let n): return "more than \(n) redirects"
        case .schemeRefused(let s): return "the \(s) scheme is not allowed (http, https, and file under allowed roots only)"
        case .httpStatus(let code): return "HTTP status \(code)"
        case .cancelled: return "cancelled when the extension's time ran out"
        case .network(let what): return what
        }
    }
}

/// What a finished download gave.
public struct Download: Sendable {
    /// The body.
    public var bytes: [UInt8]
    /// The `Content-Type` answered.
    public var contentType: String?
    /// The URL after redirects.
    public var finalURL: String
    /// How many redirects were followed.
    public var redirects: Int
    /// The HTTP status.
    public var status: Int
}

/// HTTP(S) downloads with libcurl, as the service extension needs them: a total deadline, a
/// size cap enforced while streaming (the cap follows the type sniffed from the first bytes;
/// at most the cap plus one chunk is ever held), http/https only (redirects too), at most 5
/// redirects, and cancellation from another thread.
public enum Downloader {
    /// Redirects followed at most.
    public static let maxRedirects = 5
    /// libcurl's one-time global set-up, done on first use.
    static let globalInit: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    /// Streaming state shared with libcurl's callbacks.
    final class State {
        var bytes: [UInt8] = []
        var cap = MediaType.largestCap
        var sniffed = false
        var overCap = false
        /// The most bytes ever held at once (for the cap + one chunk guarantee).
        var peak = 0
        let cancel: CancelFlag
        init(cancel: CancelFlag) { self.cancel = cancel }
    }

    // Long on purpose: one libcurl handle's options, transfer and result, in the order libcurl needs them.
    /// Downloads `url` within `timeoutMs`, stopping early at the caps, on `cancel`, or on a refused scheme.
    public static func fetch(_ url: String, timeoutMs: Int, cancel: CancelFlag) -> Result<(Download, peakBytes: Int), DownloadError> {
        guard globalInit, let curl = curl_easy_init() else { return .failure(.network("libcurl could not start")) }
        defer { curl_easy_cleanup(curl) }
        guard timeoutMs > 0 else { return .failure(.timedOut(ms: 0)) }
        let state = State(cancel: cancel)
        let context = Unmanaged.passRetained(state)
        defer { context.release() }
        // libcurl writes its message here during perform: the buffer must outlive every call.
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        _ = pb_curl_set_string(curl, CURLOPT_URL, url)
        _ = pb_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = pb_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = pb_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = pb_curl_set_long(curl, CURLOPT_MAXREDIRS, maxRedirects)
        _ = pb_curl_set_long(curl, CURLOPT_TIMEOUT_MS, timeoutMs)
        _ = pb_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, max(1, min(timeoutMs, 10_000)))
        _ = pb_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = pb_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
        _ = pb_curl_set_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(MediaType.largestCap))
        _ = pb_curl_set_string(curl, CURLOPT_USERAGENT, "pushbox (notification service extension preview)")
        _ = pb_curl_set_pointer(curl, CURLOPT_WRITEDATA, context.toOpaque())
        _ = pb_curl_set_pointer(curl, CURLOPT_XFERINFODATA, context.toOpaque())
        _ = pb_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = pb_curl_set_write_function(curl) { data, size, count, ctx in
            let state = Unmanaged<Downloader.State>.fromOpaque(ctx!).takeUnretainedValue()
            let n = size * count
            if state.cancel.isCancelled { return 0 }
            if let data, n > 0 {
                state.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: n))
            }
            state.peak = max(state.peak, state.bytes.count)
            if !state.sniffed, state.bytes.count >= 512 {
                state.sniffed = true
                if let type = MediaType.sniff(state.bytes) { state.cap = MediaType.cap(for: type.kind) }
            }
            if state.bytes.count > state.cap {
                state.overCap = true
                return 0
            }
            return n
        }
        _ = pb_curl_set_progress_function(curl) { ctx, _, _, _, _ in
            let state = Unmanaged<Downloader.State>.fromOpaque(ctx!).takeUnretainedValue()
            return state.cancel.isCancelled ? 1 : 0
        }
        let code = curl_easy_perform(curl)
        var status = 0
        var redirects = 0
        var contentType: UnsafeMutablePointer<CChar>?
        var effective: UnsafeMutablePointer<CChar>?
        _ = pb_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        _ = pb_curl_get_long(curl, CURLINFO_REDIRECT_COUNT, &redirects)
        _ = pb_curl_get_string(curl, CURLINFO_CONTENT_TYPE, &contentType)
        _ = pb_curl_get_string(curl, CURLINFO_EFFECTIVE_URL, &effective)
        if state.cancel.isCancelled { return .failure(.cancelled) }
        if state.overCap { return .failure(.tooLarge(limit: state.cap, received: state.bytes.count)) }
        switch code {
        case CURLE_OK: break
        case CURLE_OPERATION_TIMEDOUT: return .failure(.timedOut(ms: timeoutMs))
        case CURLE_TOO_MANY_REDIRECTS: return .failure(.tooManyRedirects(maxRedirects))
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .failure(.schemeRefused(URL(string: url)?.scheme ?? "redirect's"))
        case CURLE_FILESIZE_EXCEEDED: return .failure(.tooLarge(limit: MediaType.largestCap, received: 0))
        default:
            let detail = String(cString: errorBuffer)
            return .failure(.network(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail))
        }
        guard (200..<300).contains(status) else { return .failure(.httpStatus(status)) }
        let download = Download(
            bytes: state.bytes, contentType: contentType.map { String(cString: $0) },
            finalURL: effective.map { String(cString: $0) } ?? url, redirects: redirects, status: status)
        return .success((download, state.peak))
    }
}
