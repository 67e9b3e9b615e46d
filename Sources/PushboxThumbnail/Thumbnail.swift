import CThumbnail
import Foundation
import PushboxFetch
import PushboxSystem
import PushboxUI

/// ThumbnailMaker of image attachments for the terminal: stb_image decodes, libchafa picks a
/// one-column symbol and two palette colours per cell. Cached per file and size.
public enum ThumbnailMaker {
    private static let cache = Locked<[ThumbnailRequest: Thumbnail]>([:])

    /// The thumbnail of an image file in so many cells for a palette of 256, 16 or 8 colours.
    public static func make(_ request: ThumbnailRequest) -> Thumbnail? {
        if let cached = cache.withLock({ $0[request] }) { return cached }
        let (path, cols, rows, palette) = (request.path, request.columns, request.rows, request.palette)
        guard let data = FileManager.default.contents(atPath: path), let image = ImageDecoder.rgba(Array(data)) else { return nil }
        let n = cols * rows
        var chars = [UInt32](repeating: 32, count: n)
        var fg = [Int32](repeating: 0, count: n)
        var bg = [Int32](repeating: 0, count: n)
        let ok = image.pixels.withUnsafeBufferPointer { px in
            pb_thumbnail(px.baseAddress, Int32(image.width), Int32(image.height), Int32(cols), Int32(rows), Int32(palette), &chars, &fg, &bg)
        }
        guard ok == 0 else { return nil }
        let cells = (0..<n).map { i in
            Thumbnail.Cell(text: String(Character(Unicode.Scalar(chars[i]) ?? " ")), foreground: Int(fg[i]), background: Int(bg[i]))
        }
        let thumbnail = Thumbnail(columns: cols, rows: rows, cells: cells)
        cache.withLock { $0[request] = thumbnail }
        return thumbnail
    }
}
