import Foundation

/// What kind of attachment a file is, decided from its bytes (the types and size limits Apple
/// documents for UNNotificationAttachment).
public struct MediaType: Sendable, Equatable {
    /// The three kinds of attachment iOS knows, each with its size cap.
    public enum Kind: String, Sendable { case image, audio, movie }

    /// Image, audio or video.
    public var kind: Kind
    /// Its MIME type.
    public var mime: String
    /// The file extension iOS needs to accept the file.
    public var fileExtension: String
    /// Extensions that name this type.
    public var extensions: [String]

    /// Size caps per kind. Whether Apple's "MB" means 10^6 or 2^20 is unconfirmed; pushbox uses
    /// 10^6, the stricter, so a file pushbox accepts is accepted on a device either way.
    public static func cap(for kind: Kind) -> Int {
        switch kind {
        case .audio: return 5_000_000
        case .image: return 10_000_000
        case .movie: return 50_000_000
        }
    }

    /// The largest size any attachment type may have (movies' cap).
    public static let largestCap = cap(for: .movie)

    /// JPEG image.
    public static let jpeg = MediaType(kind: .image, mime: "image/jpeg", fileExtension: "jpg", extensions: ["jpg", "jpeg"])
    /// PNG image.
    public static let png = MediaType(kind: .image, mime: "image/png", fileExtension: "png", extensions: ["png"])
    /// GIF image.
    public static let gif = MediaType(kind: .image, mime: "image/gif", fileExtension: "gif", extensions: ["gif"])
    /// MP3 audio.
    public static let mp3 = MediaType(kind: .audio, mime: "audio/mpeg", fileExtension: "mp3", extensions: ["mp3"])
    /// MPEG-4 audio.
    public static let m4a = MediaType(kind: .audio, mime: "audio/mp4", fileExtension: "m4a", extensions: ["m4a", "mp4", "aac"])
    /// WAVE audio.
    public static let wav = MediaType(kind: .audio, mime: "audio/wav", fileExtension: "wav", extensions: ["wav", "wave"])
    /// AIFF audio.
    public static let aiff = MediaType(kind: .audio, mime: "audio/aiff", fileExtension: "aiff", extensions: ["aiff", "aif", "aifc", "caf"])
    /// MPEG-4 video.
    public static let mp4 = MediaType(kind: .movie, mime: "video/mp4", fileExtension: "mp4", extensions: ["mp4", "m4v", "mov"])
    /// AVI video.
    public static let avi = MediaType(kind: .movie, mime: "video/x-msvideo", fileExtension: "avi", extensions: ["avi"])
    /// MPEG video.
    public static let mpeg = MediaType(kind: .movie, mime: "video/mpeg", fileExtension: "mpg", extensions: ["mpg", "mpeg", "m2v", "ts"])

    /// Every type a notification attachment may be on iOS.
    public static let all = [jpeg, png, gif, mp3, m4a, wav, aiff, mp4, avi, mpeg]

    /// The type the bytes are, from their magic numbers; nil when none fits.
    public static func sniff(_ b: [UInt8]) -> MediaType? {
        func at(_ offset: Int, _ ascii: String) -> Bool {
            let t = Array(ascii.utf8)
            return b.count >= offset + t.count && Array(b[offset..<offset + t.count]) == t
        }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png }
        if at(0, "GIF87a") || at(0, "GIF89a") { return gif }
        if at(0, "RIFF") && at(8, "WAVE") { return wav }
        if at(0, "RIFF") && at(8, "AVI ") { return avi }
        if at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC")) { return aiff }
        if at(4, "ftyp") {
            let audioBrands = ["M4A ", "M4B ", "M4P "]
            return audioBrands.contains { at(8, $0) } ? m4a : mp4
        }
        if at(0, "ID3") { return mp3 }
        if b.count >= 2, b[0] == 0xFF, b[1] & 0xE0 == 0xE0, b[1] & 0x06 != 0 { return mp3 }
        if b.starts(with: [0x00, 0x00, 0x01, 0xBA]) || b.starts(with: [0x00, 0x00, 0x01, 0xB3]) { return mpeg }
        if b.count >= 189, b[0] == 0x47, b[188] == 0x47 { return mpeg }
        return nil
    }

    /// The type a file name's extension claims, if it names one.
    public static func forExtension(_ ext: String) -> MediaType? {
        let e = ext.lowercased()
        return all.first { $0.extensions.contains(e) }
    }

    /// The type a Content-Type header claims (parameters ignored).
    public static func forMIME(_ header: String) -> MediaType? {
        let m = header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let aliases = [
            "image/jpg": "image/jpeg", "audio/mp3": "audio/mpeg", "audio/x-wav": "audio/wav", "audio/x-aiff": "audio/aiff",
            "audio/x-m4a": "audio/mp4", "video/quicktime": "video/mp4", "video/avi": "video/x-msvideo",
        ]
        let mime = aliases[m] ?? m
        return all.first { $0.mime == mime }
    }
}
