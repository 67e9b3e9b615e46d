import CStb

/// An image's pixel size from its header (stb_image's info call: nothing is decoded).
public enum ImageInfo {
    /// Images over this many pixels are refused before decoding.
    public static let maxPixels = 100_000_000

    /// Why stb_image could not read the last header it was given.
    public static var lastFailure: String {
        stbi_failure_reason().map { String(cString: $0) } ?? "unknown"
    }

    /// The image's width and height from its header, without decoding it.
    public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        var w: Int32 = 0
        var h: Int32 = 0
        var components: Int32 = 0
        let ok = bytes.withUnsafeBufferPointer { buf in
            stbi_info_from_memory(buf.baseAddress, Int32(min(buf.count, Int(Int32.max))), &w, &h, &components)
        }
        guard ok == 1, w > 0, h > 0 else { return nil }
        return (Int(w), Int(h))
    }
}
