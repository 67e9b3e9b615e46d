import Testing

@testable import PushboxLocalization

/// The warning about a typed device language says what the matching does with it: one reading
/// of the tag for both.
@Suite("Typed device languages: the warning agrees with the matching")
struct LanguageCodeCheckTests {
    @Test(
        "a withdrawn code or a legacy name is read as the matching reads it, and the matching picks that language",
        arguments: [
            ("iw", "he"), ("in", "id"), ("ji", "yi"), ("tl", "fil"), ("korean", "ko"), ("Japanese", "ja"), ("iw-IL", "he-IL"),
        ])
    func readAsTheMatchingReads(typed: String, readAs: String) {
        #expect(LanguageCodeCheck.judge(typed) == .language(readAs: readAs, rare: false))
        #expect(LanguageCodeCheck.problems([typed], matched: true).isEmpty)
        let language = LanguageTag.subtags(readAs)[0]
        let match = LanguageMatcher(available: ["en", language], developmentRegion: "en").match([typed])
        #expect(match.localization == language, "\(match.reason)")
        #expect(match.preferred == typed)
    }

    @Test("a language the system has is taken as meant: no country's language is suggested for ar, in or se")
    func languagesAreMeant() {
        #expect(LanguageCodeCheck.problems(["ar"], matched: false) == ["ar matches none of the app's localizations"])
        #expect(LanguageCodeCheck.problems(["in"], matched: false) == ["in (read as id) matches none of the app's localizations"])
        #expect(LanguageCodeCheck.problems(["se-SE"], matched: false) == ["se-SE matches none of the app's localizations"])
    }

    @Test("a code no language of the system's goes by is read as the country it looks like")
    func countries() {
        #expect(
            LanguageCodeCheck.problems(["kr"], matched: false) == [
                "kr matches none of the app's localizations; did you mean ko (the language of KR)?"
            ])
        #expect(LanguageCodeCheck.problems(["jp"], matched: true) == ["jp is not a language code; did you mean ja (the language of JP)?"])
        #expect(LanguageCodeCheck.problems(["xx-YY"], matched: true) == ["xx-YY is not a language code"])
        // Only the first language is said to match nothing; every one that is no language is named.
        #expect(LanguageCodeCheck.problems(["ko-KR", "jp", "ar"], matched: true).count == 1)
    }

    @Test("Xcode's pseudolanguages are nothing to warn about")
    func pseudo() {
        #expect(LanguageCodeCheck.judge("accented") == .pseudolanguage)
        #expect(LanguageCodeCheck.problems(["rtl"], matched: false).isEmpty)
    }
}
