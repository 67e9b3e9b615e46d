import Testing

@testable import PushboxLocalization

/// The behaviour examples in Apple's ICU header `ualoc.h` (ualoc_localizationsToUse): blocks of
/// lproj sets, and for each preferred language the localizations a device uses in each set,
/// best first, then its fallbacks. Transcribed as given; where the header itself says a case
/// does not work as intended, the test says so.
@Suite("Apple's matching examples (ualoc.h)")
struct AppleMatchingTableTests {
    /// One example: a preferred language, an lproj set, what a device uses.
    struct Example: Sendable, CustomTestStringConvertible {
        var language: String
        var available: [String]
        var expected: [String]
        var testDescription: String { "\(language) in [\(available.joined(separator: " "))] → \(expected.joined(separator: ","))" }
    }

    /// A block of the table: its lproj sets, and each language's results per set.
    static func block(_ lists: [[String]], _ rows: [(String, [String])]) -> [Example] {
        rows.flatMap { language, results in
            zip(lists, results).map { list, result in
                Example(language: language, available: list, expected: result.split(separator: ",").map(String.init))
            }
        }
    }

    static let chinese = block(
        [
            ["zh_CN", "zh_TW"], ["zh_CN", "zh_TW", "zh_HK"], ["zh_CN", "zh_TW", "zh_HK", "zh_MO"], ["zh_Hans", "zh_Hant", "zh_Hant_HK"],
            ["zh_CN", "zh_TW", "zh_Hans", "zh_Hant"], ["zh_CN", "zh_TW", "zh_HK", "zh_Hans", "zh_Hant", "zh_Hant_HK"],
        ],
        [
            ("zh", ["zh_CN", "zh_CN", "zh_CN", "zh_Hans", "zh_Hans", "zh_Hans"]),
            ("zh-Hans", ["zh_CN", "zh_CN", "zh_CN", "zh_Hans", "zh_Hans", "zh_Hans"]),
            ("zh-Hant", ["zh_TW", "zh_TW", "zh_TW", "zh_Hant", "zh_Hant", "zh_Hant"]),
            ("zh-Hans-CN", ["zh_CN", "zh_CN", "zh_CN", "zh_Hans", "zh_CN,zh_Hans", "zh_CN,zh_Hans"]),
            ("zh-Hans-SG", ["zh_CN", "zh_CN", "zh_CN", "zh_Hans", "zh_Hans", "zh_Hans"]),
            ("zh-Hant-TW", ["zh_TW", "zh_TW", "zh_TW", "zh_Hant", "zh_TW,zh_Hant", "zh_TW,zh_Hant"]),
            ("zh-Hant-HK", ["zh_TW", "zh_HK,zh_TW", "zh_HK,zh_TW", "zh_Hant_HK,zh_Hant", "zh_Hant", "zh_Hant_HK,zh_Hant"]),
            ("zh-Hant-MO", ["zh_TW", "zh_HK,zh_TW", "zh_MO,zh_HK,zh_TW", "zh_Hant_HK,zh_Hant", "zh_Hant", "zh_Hant_HK,zh_Hant"]),
            ("zh-Hans-HK", ["zh_CN", "zh_CN", "zh_CN", "zh_Hans", "zh_Hans", "zh_Hans"]),
            ("zh-CN", ["zh_CN", "zh_CN", "zh_CN", "zh_Hans", "zh_CN,zh_Hans", "zh_CN,zh_Hans"]),
            ("zh-SG", ["zh_CN", "zh_CN", "zh_CN", "zh_Hans", "zh_Hans", "zh_Hans"]),
            ("zh-TW", ["zh_TW", "zh_TW", "zh_TW", "zh_Hant", "zh_TW,zh_Hant", "zh_TW,zh_Hant"]),
            ("zh-HK", ["zh_TW", "zh_HK", "zh_HK,zh_TW", "zh_Hant_HK,zh_Hant", "zh_Hant", "zh_HK,zh_Hant_HK,zh_Hant"]),
            ("zh-MO", ["zh_TW", "zh_HK", "zh_MO,zh_HK,zh_TW", "zh_Hant_HK,zh_Hant", "zh_Hant", "zh_Hant_HK,zh_Hant"]),
        ])

    static let english = block(
        [
            ["English"], ["en", "en_AU", "en_GB"], ["en", "en_AU", "en_GB", "en_CA"], ["en", "en_AU", "en_GB", "en_CA", "en_IN", "en_US"],
            ["en", "en_AU", "en_GB", "en_001"], ["en", "en_AU", "en_GB", "en_001", "en_150"],
        ],
        [
            ("en", ["English", "en", "en", "en", "en", "en"]),
            ("en-US", ["English", "en", "en", "en_US,en", "en", "en"]),
            ("en-AU", ["English", "en_AU,en_GB,en", "en_AU,en_GB,en", "en_AU,en_GB,en", "en_AU,en_GB,en_001,en", "en_AU,en_GB,en_001,en"]),
            ("en-CA", ["English", "en", "en_CA,en", "en_CA,en", "en_001,en", "en_001,en"]),
            ("en-GB", ["English", "en_GB,en", "en_GB,en", "en_GB,en", "en_GB,en_001,en", "en_GB,en_001,en"]),
            ("en-IN", ["English", "en_GB,en", "en_GB,en", "en_IN,en_GB,en", "en_GB,en_001,en", "en_GB,en_001,en"]),
            ("en-FR", ["English", "en_GB,en", "en_GB,en", "en_GB,en", "en_GB,en_001,en", "en_150,en_GB,en_001,en"]),
            ("en-IL", ["English", "en", "en", "en", "en_001,en", "en_001,en"]),
            ("en-001", ["English", "en", "en", "en", "en_001,en", "en_001,en"]),
            ("en-150", ["English", "en_GB,en", "en_GB,en", "en_GB,en", "en_GB,en_001,en", "en_150,en_GB,en_001,en"]),
            ("en-Latn", ["English", "en", "en", "en", "en", "en"]),
            // The header marks list4's en_US,en with * as "not working as intended": a device gets en.
            ("en-Latn_US", ["English", "en", "en", "en", "en", "en"]),
        ])

    static let spanish = block(
        [
            ["Spanish"], ["es", "es_MX"], ["es", "es_419"], ["es", "es_419", "es_MX"], ["es", "es_ES", "es_MX"], ["es", "es_ES", "es_419", "es_MX"],
        ],
        [
            ("es", ["Spanish", "es", "es", "es", "es", "es"]),
            ("es-ES", ["Spanish", "es", "es", "es", "es_ES,es", "es_ES,es"]),
            ("es-419", ["Spanish", "es", "es_419,es", "es_419,es", "es", "es_419,es"]),
            ("es-MX", ["Spanish", "es_MX,es", "es_419,es", "es_MX,es_419,es", "es_MX,es", "es_MX,es_419,es"]),
            ("es-AR", ["Spanish", "es", "es_419,es", "es_419,es", "es", "es_419,es"]),
        ])

    static let portuguese = block(
        [["Portuguese"], ["pt", "pt_PT"], ["pt", "pt_BR", "pt_PT"], ["pt", "pt_BR"]],
        [
            ("pt", ["Portuguese", "pt", "pt", "pt"]),
            ("pt-BR", ["Portuguese", "pt", "pt_BR,pt", "pt_BR,pt"]),
            ("pt-PT", ["Portuguese", "pt_PT,pt", "pt_PT,pt", "pt"]),
            ("pt-MO", ["Portuguese", "pt_PT,pt", "pt_PT,pt", "pt"]),
        ])

    static let all = chinese + english + spanish + portuguese

    /// Where Apple's code as it ships (the ICU of the Swift toolchain, ICU 76 with CLDR 46) gives
    /// another answer than the header's table, which is older than the code: what the code gives,
    /// and why. A device runs the code, so pushbox follows it; each case is still asserted, so a
    /// change in either shows.
    static let codeDiffers: [String: (result: String, why: String)] = [
        // Hong Kong and Macao fall back through zh_Hant to zh_TW since Apple moved their parents
        // (appleParentMap: zh_HK → zh_Hant → zh_TW; rdar://67469388): the fallbacks grow.
        "zh-Hant-HK|zh_CN zh_TW zh_HK zh_Hans zh_Hant zh_Hant_HK": ("zh_Hant_HK,zh_TW,zh_HK,zh_Hant", "HK falls back through zh_TW"),
        "zh-HK|zh_CN zh_TW zh_HK": ("zh_HK,zh_TW", "HK falls back to zh_TW"),
        "zh-HK|zh_CN zh_TW zh_HK zh_Hans zh_Hant zh_Hant_HK": ("zh_HK,zh_TW,zh_Hant_HK,zh_Hant", "HK falls back through zh_TW"),
        "zh-MO|zh_CN zh_TW zh_HK": ("zh_HK,zh_TW", "MO falls back through HK to zh_TW"),
        "zh-Hant-MO|zh_CN zh_TW zh_HK zh_MO": ("zh_MO,zh_TW,zh_HK", "zh_TW comes before zh_HK in MO's fallbacks"),
        "zh-MO|zh_CN zh_TW zh_HK zh_MO": ("zh_MO,zh_TW,zh_HK", "zh_TW comes before zh_HK in MO's fallbacks"),
        // With both zh_HK and zh_Hant_HK present, Macao's parent zh_HK is taken as written first.
        "zh-Hant-MO|zh_CN zh_TW zh_HK zh_Hans zh_Hant zh_Hant_HK": ("zh_HK,zh_TW,zh_Hant_HK,zh_Hant", "zh_HK, Macao's parent, before zh_Hant_HK"),
        "zh-MO|zh_CN zh_TW zh_HK zh_Hans zh_Hant zh_Hant_HK": ("zh_HK,zh_TW,zh_Hant_HK,zh_Hant", "zh_HK, Macao's parent, before zh_Hant_HK"),
        // Canadian English stays with en rather than en_001 in the shipped code.
        "en-CA|en en_AU en_GB en_001": ("en", "en-CA → en, not en_001"),
        "en-CA|en en_AU en_GB en_001 en_150": ("en", "en-CA → en, not en_001"),
    ]

    /// What a device uses: the header's answer, or the code's where the two differ.
    static func expected(_ e: Example) -> [String] {
        guard let differs = codeDiffers["\(e.language)|\(e.available.joined(separator: " "))"] else { return e.expected }
        return differs.result.split(separator: ",").map(String.init)
    }

    @Test("every example: the localizations Apple's matching gives, in order", arguments: all)
    func example(_ e: Example) {
        #expect(AppleLocalizationChoice.localizationsToUse(preferred: [e.language], available: e.available) == Self.expected(e))
    }

    @Test("every example: the localization pushbox shows is the one a device uses first", arguments: all)
    func chosen(_ e: Example) {
        #expect(LanguageMatcher(available: e.available, developmentRegion: "en").match([e.language]).localization == Self.expected(e).first)
    }

    @Test("every case the code answers differently is a case of the table")
    func differencesAreCases() {
        let keys = Set(Self.all.map { "\($0.language)|\($0.available.joined(separator: " "))" })
        #expect(Set(Self.codeDiffers.keys).isSubset(of: keys))
    }

    @Test("the table is whole: 14 Chinese, 12 English, 5 Spanish and 4 Portuguese languages")
    func count() {
        #expect(Self.all.count == 14 * 6 + 12 * 6 + 5 * 6 + 4 * 4)
    }
}
