import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxTestSupport
import Testing

/// Numbers as current iOS writes them: pushbox's format engine against Foundation's
/// `String(format:locale:)` (the same ICU, CLDR 46) for every language of the sample app and
/// of the corpus apps; plural categories against CLDR's for the same numbers.
@Suite("Numbers and plurals as iOS formats them")
struct NumberOracleTests {
    static let integers: [Int] = [0, 1, 2, 5, 11, 21, 101, 1234, 12345, 1_234_567, -3]
    static let specifiers = ["%d", "%ld", "%lld", "%i", "%u"]

    /// The sample app's localizations, and the corpus apps' (.lproj folders and catalogs).
    static func languages() -> [String] {
        var found = Set(AppLocalizations(directory: ProjectPaths.sampleApp).localizations())
        if ProjectPaths.corpusExists, let walker = FileManager.default.enumerator(atPath: ProjectPaths.corpus) {
            for case let path as String in walker {
                if path.hasSuffix(".lproj") { found.insert(String((path as NSString).lastPathComponent.dropLast(6))) }
                if path.hasSuffix(".xcstrings"), path.count < 400,
                    let data = FileManager.default.contents(atPath: ProjectPaths.corpus + "/" + path),
                    let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let strings = root["strings"] as? [String: Any]
                {
                    for case let entry as [String: Any] in strings.values {
                        if let keys = (entry["localizations"] as? [String: Any])?.keys { found.formUnion(keys) }
                    }
                }
            }
        }
        found.remove("Base")
        return found.sorted()
    }

    /// Foundation's rendering of `spec` for `n` in `language`.
    static func foundation(_ spec: String, _ n: Int, _ language: String) -> String {
        let locale = Locale(identifier: language)
        switch spec {
        case "%d", "%i": return String(format: spec, locale: locale, Int32(n))
        case "%lld": return String(format: spec, locale: locale, Int64(n))
        case "%u": return String(format: spec, locale: locale, UInt32(n))
        default: return String(format: spec, locale: locale, n)
        }
    }

    @Test("integer specifiers: pushbox writes every number as Foundation does, in every language")
    func integerSpecifiers() {
        let languages = Self.languages()
        #expect(languages.count >= (ProjectPaths.corpusExists ? 20 : 5), "only \(languages)")
        print("number oracle: \(languages.count) languages: \(languages.joined(separator: " "))")
        var mismatches: [String] = []
        for language in languages {
            let renderer = FormatRenderer(numbers: NumberFormatterICU.forLanguage(language))
            for n in Self.integers {
                for spec in Self.specifiers where !(spec == "%u" && n < 0) {
                    var warnings: [Diagnostic] = []
                    let mine = renderer.render(spec, [String(n)], warnings: &warnings)
                    let theirs = Self.foundation(spec, n, language)
                    if mine != theirs {
                        mismatches.append("\(language) \(spec) \(n): pushbox \(mine.debugDescription), Foundation \(theirs.debugDescription)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g.\n\(mismatches.prefix(15).joined(separator: "\n"))")
    }

    @Test("a decimal count under an integer specifier is shown as written, in the locale's digits, with a warning")
    func decimalCount() {
        var mismatches: [String] = []
        for language in Self.languages() {
            let renderer = FormatRenderer(numbers: NumberFormatterICU.forLanguage(language))
            var warnings: [Diagnostic] = []
            let mine = renderer.render("%ld", ["1.5"], warnings: &warnings)
            let formatter = NumberFormatter()
            formatter.locale = Locale(identifier: language)
            formatter.numberStyle = .decimal
            formatter.minimumFractionDigits = 1
            formatter.maximumFractionDigits = 1
            let theirs = formatter.string(from: 1.5) ?? "?"
            if mine != theirs { mismatches.append("\(language): pushbox \(mine.debugDescription), Foundation \(theirs.debugDescription)") }
            if !warnings.contains(where: { $0.code == .decimalForInteger }) { mismatches.append("\(language): no warning") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(15).joined(separator: "\n"))")
    }

    @Test(
        "four-digit numbers follow the locale's minimum grouping digits",
        arguments: [
            ("es", "1234", "12.345"), ("pl", "1234", "12\u{a0}345"), ("de", "1.234", "12.345"), ("en", "1,234", "12,345"),
        ])
    func grouping(language: String, four: String, five: String) {
        let numbers = NumberFormatterICU.forLanguage(language)
        #expect(numbers.format(1234) == four)
        #expect(numbers.format(12345) == five)
    }

    @Test(
        "plural categories are CLDR's for the number as written (visible fraction digits count)",
        arguments: [
            ("en", ["0": "other", "1": "one", "2": "other", "1.5": "other", "1.0": "other", "-3": "other"]),
            (
                "ru",
                [
                    "1": "one", "2": "few", "5": "many", "11": "many", "21": "one", "101": "one", "1234": "few", "12345": "many", "1.5": "other",
                    "-3": "few",
                ]
            ),
            ("pl", ["1": "one", "2": "few", "5": "many", "22": "few", "1234": "few", "12345": "many", "1.5": "other"]),
            ("cs", ["1": "one", "2": "few", "5": "other", "1.5": "many", "1.0": "many"]),
            ("ar", ["0": "zero", "1": "one", "2": "two", "5": "few", "11": "many", "101": "other", "1234": "many", "1.5": "other"]),
            ("fr", ["0": "one", "1": "one", "1.5": "one", "2": "other", "1234567": "other", "1000000": "many"]),
            ("ko", ["1": "other", "2": "other", "1.5": "other"]),
        ])
    func categories(language: String, expected: [String: String]) {
        let rules = PluralRules.forLanguage(language)
        for (number, category) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(rules.category(forArgument: number).rawValue == category, "\(language) \(number)")
        }
    }

    @Test("a plural rule without the needed form and without other shows a form it has, with an error")
    func missingOther() {
        let rule = RuleFormat(
            format: "%#@files@", variables: ["files": RuleVariable(kind: .plural, valueType: "ld", forms: ["one": "%ld file", "few": "%ld files"])])
        var warnings: [Diagnostic] = []
        let text = RuleExpander(plural: PluralRules.forLanguage("ru"), source: "Localizable.stringsdict").expand(
            rule, args: ["5"], warnings: &warnings)
        #expect(text == "%1$ld file")
        #expect(warnings.map(\.code) == [.ruleMissingVariant] && warnings.map(\.severity) == [.error])
        #expect(warnings.first?.message.hasPrefix("%#@files@ in Localizable.stringsdict") == true)
    }
}
