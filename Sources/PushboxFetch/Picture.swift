import CStb

/// An RGBA picture: decoded from a PNG (stb_image), cut out of a larger one, written back as PNG
/// (stb_image_write), and compared with a recorded one within a tolerance — the browser's
/// screenshots of cards for `pushbox snapshot --png` and the web inbox's tests.
public struct Picture: Sendable, Equatable {
    /// Its size in pixels.
    public let width: Int
    public let height: Int
    /// Four bytes a pixel, row after row.
    public let pixels: [UInt8]

    /// A picture of the given size and pixels (`pixels.count == width * height * 4`).
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The picture a PNG (or JPEG, GIF) holds; nil when it cannot be decoded.
    public init?(png bytes: [UInt8]) {
        guard let decoded = ImageDecoder.rgba(bytes) else { return nil }
        self.init(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
    }

    /// The part inside the rectangle, which is clipped to the picture; nil when nothing is left.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Picture? {
        let left = max(0, x)
        let top = max(0, y)
        let right = min(width, x + w)
        let bottom = min(height, y + h)
        guard right > left, bottom > top else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity((right - left) * (bottom - top) * 4)
        for row in top..<bottom {
            let start = (row * width + left) * 4
            out += pixels[start..<(start + (right - left) * 4)]
        }
        return Picture(width: right - left, height: bottom - top, pixels: out)
    }

    /// The picture as PNG bytes.
    public var png: [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        pixels.withUnsafeBufferPointer { buffer in
            _ = stbi_write_png_to_func(
                { context, data, size in
                    guard let context, let data, size > 0 else { return }
                    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
                    sink.bytes += UnsafeRawBufferPointer(start: data, count: Int(size))
                }, context, Int32(width), Int32(height), 4, buffer.baseAddress, Int32(width * 4))
        }
        return withExtendedLifetime(sink) { sink.bytes }
    }

    /// How far a picture is from a recorded one.
    public struct Difference: Sendable, Equatable {
        /// Both are the same size (otherwise nothing else is compared).
        public var sameSize: Bool
        /// Pixels where a channel differs by more than the channel tolerance.
        public var differingPixels: Int
        /// Pixels compared.
        public var pixels: Int

        /// The share of pixels that differ, 0…1 (1 when the sizes differ).
        public var fraction: Double { sameSize ? Double(differingPixels) / Double(max(pixels, 1)) : 1 }

        /// Whether at most `share` of the pixels differ (and the sizes are equal).
        public func within(_ share: Double) -> Bool { sameSize && fraction <= share }
    }

    /// Compares with `recorded`: a pixel differs when any channel differs by more than
    /// `channelTolerance` (of 255), which absorbs anti-aliasing that moves by a shade.
    public func difference(from recorded: Picture, channelTolerance: Int = 32) -> Difference {
        guard width == recorded.width, height == recorded.height else {
            return Difference(sameSize: false, differingPixels: width * height, pixels: width * height)
        }
        var differing = 0
        pixels.withUnsafeBufferPointer { a in
            recorded.pixels.withUnsafeBufferPointer { b in
                var i = 0
                while i < a.count {
                    for c in 0..<4 where abs(Int(a[i + c]) - Int(b[i + c])) > channelTolerance {
                        differing += 1
                        break
                    }
                    i += 4
                }
            }
        }
        return Difference(sameSize: true, differingPixels: differing, pixels: width * height)
    }
}
