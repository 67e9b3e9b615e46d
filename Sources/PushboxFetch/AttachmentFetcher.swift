import Foundation
import PushboxCrypto
import PushboxJSON
import PushboxPayload
import PushboxSystem

/// An attachment ready to show: saved under the cache with the right extension.
public struct FetchedAttachment: Sendable, Equatable {
    /// Where the file is.
    public var path: String
    /// Its type, from its bytes.
    public var type: MediaType
    /// Its size.
    public var bytes: Int
    /// Its width in pixels, for images.
    public var width: Int?
    /// Its height in pixels, for images.
    public var height: Int?
    /// The URL it came from.
    public var sourceURL: String
    /// Whether it was in the cache already.
    public var fromCache: Bool
    /// Accepted, but worth knowing (extension or Content-Type disagreeing with the bytes).
    public var warnings: [String]
    /// The most bytes held in memory while downloading.
    public var peakBytes: Int
    /// How long its download took, in milliseconds (for one served from the cache, the
    /// download that filled it; nil when not known).
    public var downloadMs: Int? = nil
}

/// Why an attachment was dropped (iOS drops unsupported or corrupt attachments too).
public enum AttachmentFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case refused(String)
    case download(DownloadError)
    case unsupported(String)
    case tooLarge(String)
    case corrupt(String)
    /// The bytes were fine but the cache folder could not take them.
    case cacheUnwritable(String)

    /// Why it could not be attached, in words.
    public var description: String {
        switch self {
        case .refused(let s), .unsupported(let s), .tooLarge(let s), .corrupt(let s), .cacheUnwritable(let s): return s
        case .download(let e): return e.description
        }
    }
}

/// Fetches media URLs for the service extension: http/https through libcurl, file URLs only
/// under allowed roots; checks the bytes' type against the extension and Content-Type, the
/// size caps and the pixel count; saves content-addressed under the cache directory, and serves
/// a URL seen before from the cache without downloading again.
public struct AttachmentFetcher: Sendable {
    /// Where downloads are kept.
    public var cacheDirectory: String
    /// Folders file URLs may point into (resolved, symlinks followed).
    public var allowedRoots: [String]
    /// Whether a URL fetched before is read from the cache (false: `--no-cache`, every
    /// attachment is downloaded again, so a slow image stays slow).
    public var readsCache = true

    /// Saves into `cacheDirectory`; `file://` URLs may point only below `allowedRoots`.
    public init(cacheDirectory: String, allowedRoots: [String]) {
        self.cacheDirectory = cacheDirectory
        self.allowedRoots = allowedRoots.map { Self.resolved($0) }
    }

    /// `$XDG_CACHE_HOME/pushbox/attachments`, else `~/.cache/pushbox/attachments`.
    public static func defaultCacheDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = XDG.cacheHome(environment)
        return (base as NSString).appendingPathComponent("pushbox/attachments")
    }

    /// The attachment at `urlString`, checked as iOS checks it and saved, or why not.
    public func fetch(_ urlString: String, timeoutMs: Int, cancel: CancelFlag) -> Result<FetchedAttachment, AttachmentFailure> {
        guard let url = URL(string: urlString), let scheme = url.scheme?.lowercased() else {
            return .failure(.refused("\"\(urlString)\" is not an absolute URL"))
        }
        switch scheme {
        case "http", "https":
            if readsCache, let cached = cached(urlString) {
                // A device downloads for itself: an image whose download took longer than this
                // caller allows (Android's 5 s, after the iPhone's 30 s filled the cache) is late here too.
                if let ms = cached.downloadMs, ms > timeoutMs { return .failure(.download(.timedOut(ms: timeoutMs))) }
                return .success(cached)
            }
            let clock = ContinuousClock()
            let started = clock.now
            switch Downloader.fetch(urlString, timeoutMs: timeoutMs, cancel: cancel) {
            case .failure(let e): return .failure(.download(e))
            case .success(let (download, peak)):
                let (seconds, atto) = (clock.now - started).components
                let ms = Int(seconds) * 1000 + Int(atto / 1_000_000_000_000_000)
                return accept(
                    download.bytes, name: url.lastPathComponent, contentType: download.contentType, source: urlString, peak: peak, downloadMs: ms)
            }
        case "file":
            let path = Self.resolved(url.path)
            guard allowedRoots.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else {
                return .failure(
                    .refused(
                        "file URL \(url.path) is outside the allowed folders (\(allowedRoots.joined(separator: ", "))); add one with --allow-files DIR"
                    ))
            }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), let size = attributes[.size] as? Int else {
                return .failure(.refused("file \(path) cannot be read"))
            }
            guard size <= MediaType.largestCap else {
                return .failure(.tooLarge("\(path) is \(size) bytes, over every attachment cap"))
            }
            guard let data = FileManager.default.contents(atPath: path) else { return .failure(.refused("file \(path) cannot be read")) }
            return accept(Array(data), name: url.lastPathComponent, contentType: nil, source: urlString, peak: data.count)
        default:
            return .failure(.download(.schemeRefused(scheme)))
        }
    }

    /// Checks and stores the bytes of one attachment.
    func accept(
        _ bytes: [UInt8], name: String, contentType: String?, source: String, peak: Int, downloadMs: Int? = nil
    ) -> Result<FetchedAttachment, AttachmentFailure> {
        guard let type = MediaType.sniff(bytes) else {
            return .failure(
                .unsupported("\(name.isEmpty ? "the file" : name) is not a JPEG, PNG, GIF, MP3, MPEG-4, WAV, AIFF, AVI or MPEG file; dropped"))
        }
        var warnings: [String] = []
        let ext = (name as NSString).pathExtension
        if let claimed = MediaType.forExtension(ext), claimed.mime != type.mime {
            warnings.append(
                "\(name) is named .\(ext) but holds \(type.mime) bytes; typed as \(type.mime) (a device types by extension: save it as .\(type.fileExtension))"
            )
        } else if !ext.isEmpty, MediaType.forExtension(ext) == nil {
            warnings.append("\(name) has the extension .\(ext), which iOS does not recognise; saved as .\(type.fileExtension)")
        }
        if let contentType, let claimed = MediaType.forMIME(contentType), claimed.mime != type.mime {
            warnings.append("the server says \(contentType) but the bytes are \(type.mime)")
        }
        let cap = MediaType.cap(for: type.kind)
        guard bytes.count <= cap else {
            return .failure(.tooLarge("\(bytes.count) bytes is over the \(cap)-byte cap for \(type.kind.rawValue) attachments; dropped"))
        }
        var width: Int?
        var height: Int?
        if type.kind == .image {
            guard let size = ImageInfo.size(of: bytes) else {
                return .failure(.corrupt("\(type.mime) data whose header cannot be read (stb_image: \(ImageInfo.lastFailure)); dropped"))
            }
            guard size.width * size.height <= ImageInfo.maxPixels else {
                return .failure(
                    .tooLarge("\(size.width)×\(size.height) pixels is over \(ImageInfo.maxPixels / 1_000_000) megapixels; refused before decoding"))
            }
            (width, height) = (size.width, size.height)
        }
        do {
            let path = try store(bytes, type: type, source: source, downloadMs: downloadMs)
            return .success(
                FetchedAttachment(
                    path: path, type: type, bytes: bytes.count, width: width, height: height,
                    sourceURL: source, fromCache: false, warnings: warnings, peakBytes: peak, downloadMs: downloadMs))
        } catch {
            return .failure(.cacheUnwritable("the attachment cache \(cacheDirectory) cannot be written: \(FileErrorText.describe(error))"))
        }
    }

    // MARK: - The cache: content files named by their SHA-256, and a URL index (per URL: the
    // content file's name, and on a second line how long its download took, in ms).

    private var urlIndex: String { (cacheDirectory as NSString).appendingPathComponent("urls") }

    private func store(_ bytes: [UInt8], type: MediaType, source: String, downloadMs: Int?) throws -> String {
        try FileManager.default.createDirectory(atPath: urlIndex, withIntermediateDirectories: true)
        let name = Digest.sha256Hex(bytes) + "." + type.fileExtension
        let path = (cacheDirectory as NSString).appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: path) {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        let entry = name + (downloadMs.map { "\n\($0)" } ?? "")
        try Data(entry.utf8).write(to: URL(fileURLWithPath: indexPath(source)), options: .atomic)
        return path
    }

    private func indexPath(_ url: String) -> String {
        (urlIndex as NSString).appendingPathComponent(Digest.sha256Hex(Array(url.utf8)))
    }

    /// The attachment saved earlier for this URL, re-checked from its bytes.
    private func cached(_ url: String) -> FetchedAttachment? {
        guard let entry = try? String(contentsOfFile: indexPath(url), encoding: .utf8) else { return nil }
        let lines = entry.split(separator: "\n", omittingEmptySubsequences: false)
        let name = String(lines[0])
        let path = (cacheDirectory as NSString).appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: path), let type = MediaType.sniff(Array(data)) else { return nil }
        let size = type.kind == .image ? ImageInfo.size(of: Array(data)) : nil
        return FetchedAttachment(
            path: path, type: type, bytes: data.count, width: size?.width, height: size?.height,
            sourceURL: url, fromCache: true, warnings: [], peakBytes: 0, downloadMs: lines.count > 1 ? Int(lines[1]) : nil)
    }

    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return (path as NSString).standardizingPath }
        defer { free(real) }
        return String(cString: real)
    }
}
