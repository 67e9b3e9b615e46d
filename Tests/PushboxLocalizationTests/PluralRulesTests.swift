import Testing

@testable import PushboxLocalization

@Suite("ICU plural rules and numbers")
struct PluralRulesTests {
    @Test(
        "every category in ru, ar, pl, en and ko",
        arguments: [
            ("ru", 1.0, PluralCategory.one), ("ru", 3, .few), ("ru", 5, .many), ("ru", 21, .one), ("ru", 11, .many), ("ru", 1.5, .other),
            ("ar", 0, .zero), ("ar", 1, .one), ("ar", 2, .two), ("ar", 3, .few), ("ar", 11, .many), ("ar", 100, .other),
            ("pl", 1, .one), ("pl", 22, .few), ("pl", 25, .many), ("pl", 1.5, .other),
            ("en", 1, .one), ("en", 0, .other), ("en", 2, .other),
            ("ko", 1, .other), ("ko", 0, .other),
        ])
    func categories(language: String, n: Double, expected: PluralCategory) {
        #expect(PluralRules.forLanguage(language).category(for: n) == expected)
    }

    @Test("the categories each language uses")
    func categorySets() {
        #expect(PluralRules.forLanguage("ar").categories == [.zero, .one, .two, .few, .many, .other])
        #expect(PluralRules.forLanguage("ru").categories == [.one, .few, .many, .other])
        #expect(PluralRules.forLanguage("ko").categories == [.other])
        #expect(PluralRules.forLanguage("pt-BR").categories.contains(.one))
    }

    @Test("numbers use the locale's grouping and digits")
    func numbers() {
        #expect(NumberFormatterICU.forLanguage("en").format(1_234_567) == "1,234,567")
        #expect(NumberFormatterICU.forLanguage("de").format(1_234_567) == "1.234.567")
        #expect(NumberFormatterICU.forLanguage("ar-EG").format(12) == "١٢")
    }
}
