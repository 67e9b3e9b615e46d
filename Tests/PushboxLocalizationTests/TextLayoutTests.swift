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
}
