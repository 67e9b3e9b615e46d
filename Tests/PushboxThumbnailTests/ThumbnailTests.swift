import Foundation
import PushboxThumbnail
import PushboxUI
import Testing

@Suite("ThumbnailMaker with chafa")
struct ThumbnailTests {
    static let image = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sample-payloads/media/lighthouse.png").path

    @Test("the sample image becomes one-column cells with palette colours, for 256, 16 and 8 colours", arguments: [256, 16, 8])
    func sample(palette: Int) throws {
        let t = try #require(ThumbnailMaker.make(ThumbnailRequest(path: Self.image, columns: 32, rows: 10, palette: palette)))
        #expect(t.columns == 32 && t.rows == 10 && t.cells.count == 320)
        #expect(
            t.cells.allSatisfy {
                $0.text.count == 1 && $0.foreground >= 0 && $0.foreground < palette && $0.background >= 0 && $0.background < palette
            })
        // The dusk sky, the tower and the sea are different colours.
        #expect(Set(t.cells.map(\.background)).count >= 3)
    }

    @Test("a file that is not an image gives no thumbnail")
    func notImage() {
        #expect(ThumbnailMaker.make(ThumbnailRequest(path: "/etc/hostname", columns: 8, rows: 4, palette: 256)) == nil)
    }
}
