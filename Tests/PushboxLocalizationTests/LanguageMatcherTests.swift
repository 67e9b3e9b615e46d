import Testing

@testable import PushboxLocalization

@Suite("Language matching as iOS does it")
struct LanguageMatcherTests {
    let app = ["en", "fr", "pt", "pt-BR", "zh-Hans", "zh-Hant", "ko", "en-GB", "es", "es-419", "Base"]

    func pick(_ preferred: [String], from available: [String]? = nil, dev: String = "en") -> String {
        LanguageMatcher(available: available ?? app, developmentRegion: dev).match(preferred).localization
    }

    @Test(
        "a region falls back to its language",
        arguments: [("en-AU", "en-GB"), ("en-US", "en"), ("fr-CA", "fr"), ("pt-PT", "pt"), ("ko-KR", "ko"), ("es-ES", "es")])
    func regionFallback(preferred: String, expected: String) {
        #expect(pick([preferred]) == expected)
    }

    @Test("pt-PT takes pt, never pt-BR; pt-BR takes pt-BR")
    func portuguese() {
        #expect(pick(["pt-PT"]) == "pt")
        #expect(pick(["pt-BR"]) == "pt-BR")
    }

    @Test(
        "Chinese scripts follow the region",
        arguments: [
            ("zh-Hans-CN", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"),
            ("zh-HK", "zh-Hant"), ("zh-TW", "zh-Hant"), ("zh-MO", "zh-Hant"), ("zh-Hant-HK", "zh-Hant"), ("zh", "zh-Hans"),
        ])
    func chinese(preferred: String, expected: String) {
        #expect(pick([preferred]) == expected)
    }

    @Test("legacy folder names are understood")
    func legacyNames() {
        let legacy = ["English", "Japanese", "zh_CN", "zh_TW", "pt_BR"]
        #expect(pick(["en-US"], from: legacy) == "English")
        #expect(pick(["ja-JP"], from: legacy) == "Japanese")
        #expect(pick(["zh-Hans"], from: legacy) == "zh_CN")
        #expect(pick(["zh-HK"], from: legacy) == "zh_TW")
        #expect(pick(["pt-BR"], from: legacy) == "pt_BR")
    }

    @Test("later preferences come before the development region: it,ko → ko")
    func laterPreferences() {
        #expect(pick(["it", "ko"]) == "ko")
        #expect(pick(["it-IT", "de", "fr-CH"]) == "fr")
    }

    @Test("with no match: the development region, else Base, else en")
    func fallbacks() {
        #expect(pick(["it"], from: ["en", "fr"], dev: "fr") == "fr")
        #expect(pick(["it"], from: ["Base", "ko"], dev: "fr") == "Base")
        #expect(pick(["it"], from: ["ko", "en"], dev: "fr") == "en")
        let match = LanguageMatcher(available: ["en", "fr"], developmentRegion: "en").match(["it"])
        #expect(match.preferred == nil)
        #expect(match.reason.contains("development region"))
    }

    @Test("regional siblings: en-IN prefers en-GB, es-MX prefers es-419")
    func siblings() {
        #expect(pick(["en-IN"]) == "en-GB")
        #expect(pick(["es-MX"]) == "es-419")
        #expect(pick(["en-IN"], from: ["en", "fr"]) == "en")
    }

    @Test("a language whose only localization is another region still matches it")
    func otherRegion() {
        #expect(pick(["pt-PT"], from: ["en", "pt-BR"]) == "pt-BR")
    }

    @Test("tags parse from BCP 47, underscores and legacy names")
    func tags() {
        #expect(LanguageTag("zh_TW")?.description == "zh-Hant-TW")
        #expect(LanguageTag("English")?.description == "en")
        #expect(LanguageTag("sr-Latn-RS")?.description == "sr-Latn-RS")
        #expect(LanguageTag("es-419")?.region == "419")
        #expect(LanguageTag("Base") == nil)
        #expect(LanguageTag("") == nil)
    }

    @Test(
        "a bare language or another region against region-only folders takes the region Apple's distance prefers",
        arguments: [
            ("es", ["es-419", "es-ES", "en"], "es-ES"), ("es-MX", ["es-419", "es-ES", "en"], "es-419"),
            ("zh-Hant", ["zh-CN", "zh-HK", "zh-TW", "en"], "zh-TW"), ("zh-Hant-TW", ["zh-CN", "zh-HK", "zh-TW", "zh-Hant"], "zh-TW"),
            ("pt", ["pt-PT", "pt-BR", "en"], "pt-BR"),
        ])
    func regionOnlyFolders(preferred: String, available: [String], expected: String) {
        #expect(pick([preferred], from: available) == expected)
    }

    @Test("deprecated codes are replaced before matching, as Apple does", arguments: [("iw", "he"), ("in", "id"), ("ji", "yi")])
    func deprecatedCodes(code: String, replacement: String) {
        let match = LanguageMatcher(available: ["en", "he", "id", "yi"], developmentRegion: "en").match([code])
        #expect(match.localization == replacement && match.preferred == code)
        #expect(LanguageMatcher.rule(code, replacement) == "deprecated code \(code) → \(replacement)")
    }

    @Test("the trace names the rule that chose the localization")
    func ruleNames() {
        #expect(LanguageMatcher.rule("es", "es-ES") == "Apple's region distance")
        #expect(LanguageMatcher.rule("ko-KR", "ko") == "the region falls back to the language")
        #expect(LanguageMatcher.rule("ko", "ko") == "exact match")
        #expect(
            LanguageMatcher(available: ["es-419", "es-ES"], developmentRegion: "en").match(["es"]).reason == "es → es-ES: Apple's region distance")
    }
}
