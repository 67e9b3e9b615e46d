import Foundation
import Testing

@testable import PushboxFetch

/// Pictures cut from a screenshot, written as PNG and compared within a tolerance: stb_image and
/// stb_image_write round-trip every pixel; a shade of anti-aliasing is not a difference.
@Suite("Pictures: cut, PNG, compared")
struct PictureTests {
    /// A 4×3 picture whose pixel (x, y) is (x·60, y·80, 7, 255).
    static let gradient = Picture(
        width: 4, height: 3, pixels: (0..<3).flatMap { y in (0..<4).flatMap { x in [UInt8(x * 60), UInt8(y * 80), 7, 255] } })!

    @Test("PNG bytes decode to the same pixels")
    func pngRoundTrip() throws {
        let png = Self.gradient.png
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Picture(png: png) == Self.gradient)
        #expect(Picture(png: [0x89, 0x50, 0x4E, 0x47]) == nil)
    }

    @Test("a crop keeps the pixels under it and is clipped to the picture")
    func crop() throws {
        let cut = try #require(Self.gradient.cropped(x: 1, y: 1, width: 2, height: 5))
        #expect(cut.width == 2 && cut.height == 2)
        #expect(Array(cut.pixels.prefix(4)) == [60, 80, 7, 255])
        #expect(Array(cut.pixels.suffix(4)) == [120, 160, 7, 255])
        #expect(Self.gradient.cropped(x: 4, y: 0, width: 2, height: 2) == nil)
    }

    @Test("a shade within the channel tolerance is not a difference; a changed pixel and another size are")
    func difference() throws {
        var shaded = Self.gradient.pixels
        for i in stride(from: 0, to: shaded.count, by: 4) { shaded[i + 2] += 20 }
        let near = try #require(Picture(width: 4, height: 3, pixels: shaded))
        #expect(near.difference(from: Self.gradient) == .init(sameSize: true, differingPixels: 0, pixels: 12))
        shaded[0] = 255
        let one = try #require(Picture(width: 4, height: 3, pixels: shaded)).difference(from: Self.gradient)
        #expect(one.differingPixels == 1 && one.within(0.1) && !one.within(0.05))
        let other = try #require(Self.gradient.cropped(x: 0, y: 0, width: 4, height: 2)).difference(from: Self.gradient)
        #expect(!other.sameSize && other.fraction == 1 && !other.within(1))
    }
}
