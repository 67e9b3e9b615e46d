import PushboxJSON
import Testing

@Suite("Byte-level text helpers")
struct ByteTextTests {
    @Test(
        "spaces and tabs around a header value go, everything inside and other characters stay",
        arguments: [
            ("  bearer abc.def  ", "bearer abc.def"),
            ("\tx\t y \t", "x\t y"),
            ("   ", ""),
            ("", ""),
            ("é ü", "é ü"),
            ("\u{00A0}x\u{00A0}", "\u{00A0}x\u{00A0}"),  // a no-break space is not HTTP's whitespace
            ("\nx\n", "\nx\n"),
        ])
    func trimming(text: String, trimmed: String) {
        #expect(ByteText.trimmingSpaces(text) == trimmed)
        #expect(ByteText.trimmingSpaces(text.dropFirst(0)) == trimmed)
    }
}
