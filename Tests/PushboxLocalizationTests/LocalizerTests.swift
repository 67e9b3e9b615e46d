import Testing

@testable import PushboxLocalization

@Suite("The localizer")
struct LocalizerTests {
    func app() throws -> AppFixture {
        try AppFixture([
            "App/en.lproj/Localizable.strings": "\"HELLO\" = \"Hello %@\";\n\"ONLY_EN\" = \"English only\";",
            "App/ko.lproj/Localizable.strings": "\"HELLO\" = \"%@님 안녕하세요\";",
            "App/Base.lproj/Main.strings": "\"x\" = \"y\";",
            "App/fr.lproj/Localizable.strings": "\"HELLO\" = \"Bonjour %@\"\n\"BROKEN\" = \"x\";",
        ])
    }

    @Test("a key missing from the chosen language shows the key itself, never another language")
    func missingKey() throws {
        let fixture = try app()
        let r = fixture.localizer().localize("ONLY_EN", args: [], preferred: ["ko-KR"])
        #expect(r.text == "ONLY_EN")
        #expect(!r.found)
        #expect(r.warnings.contains { $0.code == .missingKey && $0.key == "ONLY_EN" && $0.language == "ko" })
    }

    @Test("a broken file is ignored whole, and the warning gives file:line:column")
    func brokenFile() throws {
        let fixture = try app()
        let r = fixture.localizer().localize("HELLO", args: ["Ana"], preferred: ["fr"])
        #expect(r.text == "HELLO")
        #expect(
            r.warnings.contains {
                $0.code == .brokenFile && $0.severity == .error && $0.message.contains("fr.lproj/Localizable.strings:2:1: missing ';'")
            })
    }

    @Test("tables load once per language; switching back reads no file")
    func cache() throws {
        let fixture = try app()
        let l = fixture.localizer()
        for lang in ["en", "ko", "en", "ko", "en"] { _ = l.localize("HELLO", args: ["A"], preferred: [lang]) }
        #expect(l.app.tableLoads == 2)
    }

    @Test(
        "pseudolanguages transform the development language's strings",
        arguments: [
            ("accented", "Ĥéļļö Ana"), ("double-length", "Hello Ana Hello Ana"), ("bounded", "[#Hello Ana#]"), ("right-to-left", "anA olleH"),
        ])
    func pseudolanguages(tag: String, expected: String) throws {
        let fixture = try app()
        let r = fixture.localizer().localize("HELLO", args: ["Ana"], preferred: [tag])
        #expect(r.text == expected)
        #expect(r.language == tag)
    }

    @Test("the development region serves when nothing matches; Base stands in for it")
    func developmentRegion() throws {
        let fixture = try app()
        #expect(fixture.localizer().localize("HELLO", args: ["A"], preferred: ["it"]).text == "Hello A")
        let baseOnly = try AppFixture(["Base.lproj/Localizable.strings": "\"K\" = \"from Base\";"])
        #expect(baseOnly.localizer(developmentRegion: "de").localize("K", args: [], preferred: ["it"]).text == "from Base")
    }
}
