import PushboxJSON
import Testing

@testable import PushboxLocalization

@Suite(".stringsdict rules")
struct RuleTests {
    let files = RuleVariable(
        kind: .plural, valueType: "d", forms: ["zero": "no files", "one": "%d file", "few": "%d файла", "many": "%d файлов", "other": "%d files"])

    func expand(_ rule: RuleFormat, _ args: [String], language: String = "en", width: Int = 80) -> (String, [Diagnostic]) {
        var warnings: [Diagnostic] = []
        let expanded = RuleExpander(plural: PluralRules.forLanguage(language), displayWidth: width).expand(rule, args: args, warnings: &warnings)
        let text = FormatRenderer(numbers: NumberFormatterICU.forLanguage(language)).render(expanded, args, warnings: &warnings)
        return (text, warnings)
    }

    @Test(
        "the plural variant follows CLDR for the language, zero for 0",
        arguments: [
            ("en", "1", "1 file"), ("en", "2", "2 files"), ("en", "0", "no files"),
            ("ru", "3", "3 файла"), ("ru", "5", "5 файлов"), ("ru", "21", "21 file"),
        ])
    func plural(language: String, n: String, expected: String) {
        #expect(expand(RuleFormat(format: "%#@files@", variables: ["files": files]), [n], language: language).0 == expected)
    }

    @Test("several variables, sequential and positional, keep their own arguments")
    func severalVariables() {
        let photos = RuleVariable(kind: .plural, valueType: "d", forms: ["one": "%d photo", "other": "%d photos"])
        let rule = RuleFormat(format: "%@ shared %#@photos@ in %#@files@", variables: ["photos": photos, "files": files])
        #expect(expand(rule, ["Ana", "1", "3"]).0 == "Ana shared 1 photo in 3 files")
        let positional = RuleFormat(format: "%3$#@files@ from %1$@ (%2$#@photos@)", variables: ["photos": photos, "files": files])
        #expect(expand(positional, ["Ana", "2", "1"]).0 == "1 file from Ana (2 photos)")
    }

    @Test("a missing category falls back to other with a warning; a non-number chooses other")
    func missingCategory() {
        let rule = RuleFormat(format: "%#@n@", variables: ["n": RuleVariable(kind: .plural, valueType: "d", forms: ["other": "%d things"])])
        let (text, warnings) = expand(rule, ["1"])
        #expect(text == "1 things")
        #expect(warnings.map(\.code) == [.ruleVariantFallback])
        #expect(expand(rule, ["many"]).1.map(\.code).contains(.notANumber))
        #expect(expand(rule, []).1.map(\.code).contains(.missingArgument))
    }

    @Test("variable width: exact, else the next smaller, else the smallest")
    func variableWidth() {
        let v = RuleVariable(kind: .variableWidth, valueType: "@", forms: ["20": "short", "40": "medium text", "60": "a rather long text"])
        let rule = RuleFormat(format: "%#@w@", variables: ["w": v])
        #expect(expand(rule, ["x"], width: 40).0 == "medium text")
        #expect(expand(rule, ["x"], width: 50).0 == "medium text")
        #expect(expand(rule, ["x"], width: 10).0 == "short")
        #expect(expand(rule, ["x"], width: 200).0 == "a rather long text")
    }

    @Test("nested variables expand, and a loop stops")
    func nested() {
        let inner = RuleVariable(kind: .plural, valueType: "d", forms: ["one": "one item", "other": "%d items"])
        let outer = RuleVariable(kind: .plural, valueType: "d", forms: ["one": "just %#@inner@", "other": "%#@inner@"])
        #expect(expand(RuleFormat(format: "%#@outer@", variables: ["outer": outer, "inner": inner]), ["1"]).0 == "just one item")
        let loop = RuleVariable(kind: .plural, valueType: "d", forms: ["other": "%#@loop@"])
        #expect(expand(RuleFormat(format: "%#@loop@", variables: ["loop": loop]), ["1"]).1.map(\.code).contains(.ruleTooDeep))
    }

    @Test(".stringsdict overrides .strings of the same key, in an app folder")
    func overrides() throws {
        let app = try AppFixture([
            "en.lproj/Localizable.strings": "\"FILES\" = \"%d file(s)\";\n\"OTHER\" = \"plain\";",
            "en.lproj/Localizable.stringsdict": stringsdict(
                "FILES", format: "%#@f@",
                variables: [
                    "f": [
                        "NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d", "one": "%d file",
                        "other": "%d files",
                    ]
                ]),
        ])
        let l = app.localizer()
        #expect(l.localize("FILES", args: ["2"], preferred: ["en"]).text == "2 files")
        #expect(l.localize("OTHER", args: [], preferred: ["en"]).text == "plain")
    }
}
