import CStb

/// Decodes JPEG, PNG and GIF (first frame) to RGBA8 with stb_image, after checking the header:
/// nothing over `ImageInfo.maxPixels` is decoded.
public enum ImageDecoder {
    /// The image's pixels as RGBA (stb_image), or nil when it cannot be decoded.
    public static func rgba(_ bytes: [UInt8]) -> (width: Int, height: Int, pixels: [UInt8])? {
        guard let size = ImageInfo.size(of: bytes), size.width * size.height <= ImageInfo.maxPixels else { return nil }
        var w: Int32 = 0
        var h: Int32 = 0
        var components: Int32 = 0
        let decoded = bytes.withUnsafeBufferPointer { buf in
            stbi_load_from_memory(buf.baseAddress, Int32(buf.count), &w, &h, &components, 4)
        }
        guard let decoded, w > 0, h > 0 else { return nil }
        defer { stbi_image_free(decoded) }
        return (Int(w), Int(h), Array(UnsafeBufferPointer(start: decoded, count: Int(w) * Int(h) * 4)))
    }
}
