import PushboxLocalization
import Testing

/// ICU's line breaking and bidi, as the card uses them.
@Suite("Line breaking and visual order")
struct TextLayoutTests {
    @Test("Hebrew with niqqud in visual order keeps each mark after its own letter")
    func marksStayWithTheirLetters() {
        let shalom = "שָׁלוֹם"
        let visual = TextLayout.visualOrder(shalom, rightToLeft: true)
        // Clusters are the same, in the opposite order.
        #expect(Array(visual) == Array(shalom).reversed())
    }

    @Test("break opportunities: none before 。 in Japanese, Korean between words, Thai by its dictionary")
    func breaks() {
        func pieces(_ text: String, _ language: String) -> [String] {
            let chars = Array(text)
            var last = 0
            return TextLayout.lineBreaks(text, language: language).map { b in
                defer { last = b }
                return String(chars[last..<b])
            }
        }
        #expect(pieces("雨です。晴れ", "ja").allSatisfy { !$0.hasPrefix("。") })
        #expect(pieces("김민수 님이 공유했습니다", "ko") == ["김민수 ", "님이 ", "공유했습니다"])
        #expect(pieces("สวัสดีชาวโลก", "th") == ["สวัสดี", "ชาว", "โลก"])
        #expect(pieces("しょう", "ja").allSatisfy { !$0.hasPrefix("ょ") })
    }

    /// A small deterministic generator, so a failure names a case that comes back.
    struct SplitMix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test("wrapping keeps every character once, in order, and no line is wider than asked unless it holds one wide cluster")
    func wrapProperties() {
        let pieces = ["a", "b", "word", " ", " ", "漢", "字", "👋🏽", "🏳️‍🌈", "e\u{301}", "-", "/", "한국어", "https://example.com/x?y=1"]
        var random = SplitMix(state: 2026)
        for round in 0..<400 {
            var text = ""
            for _ in 0..<(1 + random.next(60)) {
                // Now and then a long run with no break opportunity.
                text += random.next(10) == 0 ? String(repeating: "x", count: random.next(200)) : pieces[random.next(pieces.count)]
            }
            let width = 1 + random.next(40)
            let lines = TextLayout.wrap(text, width: width)
            let kept = lines.joined().filter { $0 != " " }
            #expect(kept == text.filter { $0 != " " }, "round \(round), width \(width)")
            for line in lines where line.count > 1 {
                #expect(DisplayWidth.of(line) <= width, "round \(round), width \(width): \(line)")
            }
        }
    }

    @Test("a word of 2,000,000 characters with no break opportunity wraps into full lines, each character read once", .timeLimit(.minutes(1)))
    func longWordIsLinear() {
        // Wrapping re-scanned the rest of the word for every line: 200,000 characters took 36 s
        // to render, so this one would take about an hour. Its time is pushbox-bench render's;
        // this only keeps a hang from coming back.
        let word = String(repeating: "x", count: 2_000_000)
        let lines = TextLayout.wrap(word, width: 37)
        #expect(lines.count == (2_000_000 + 36) / 37)
        #expect(lines.dropLast().allSatisfy { $0.count == 37 })
    }
}
