import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxLocalization

@Suite("String catalogs (.xcstrings)")
struct CatalogTests {
    static let catalog = #"""
        {
          "sourceLanguage" : "en",
          "version" : "1.1",
          "strings" : {
            "inbox.count" : {
              "localizations" : {
                "en" : { "variations" : { "plural" : {
                  "zero" : { "stringUnit" : { "state" : "translated", "value" : "No messages" } },
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld message" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld messages" } } } } },
                "ru" : { "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld сообщение" } },
                  "few" : { "stringUnit" : { "state" : "needs_review", "value" : "%lld сообщения" } },
                  "many" : { "stringUnit" : { "state" : "translated", "value" : "%lld сообщений" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld сообщения" } } } } }
              }
            },
            "tap" : {
              "localizations" : {
                "en" : { "variations" : { "device" : {
                  "mac" : { "stringUnit" : { "state" : "translated", "value" : "Click to open" } },
                  "iphone" : { "stringUnit" : { "state" : "translated", "value" : "Tap to open" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "Open" } } } } }
              }
            },
            "summary" : {
              "localizations" : {
                "en" : {
                  "stringUnit" : { "state" : "translated", "value" : "%@: %#@photos@ in %#@albums@" },
                  "substitutions" : {
                    "photos" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg photo" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg photos" } } } } },
                    "albums" : { "argNum" : 3, "formatSpecifier" : "lld", "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg album" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg albums" } } } } }
                  }
                }
              }
            },
            "fresh" : { "localizations" : { "en" : { "stringUnit" : { "state" : "new", "value" : "Brand new" } } } },
            "Key is the text" : { },
            "brand" : { "shouldTranslate" : false, "localizations" : { "en" : { "stringUnit" : { "state" : "translated", "value" : "pushbox" } } } }
          }
        }
        """#

    /// Held by the suite instance, so the folder lives as long as each test.
    let fixture: AppFixture

    init() throws {
        fixture = try AppFixture(["Resources/Localizable.xcstrings": Self.catalog])
    }

    func localizer() throws -> (AppFixture, Localizer) {
        (fixture, fixture.localizer())
    }

    @Test("plural variations of a whole string, zero for 0, by the language's rules")
    func plural() throws {
        let (_, l) = try localizer()
        #expect(l.localize("inbox.count", args: ["0"], preferred: ["en"]).text == "No messages")
        #expect(l.localize("inbox.count", args: ["1"], preferred: ["en"]).text == "1 message")
        #expect(l.localize("inbox.count", args: ["5"], preferred: ["ru"]).text == "5 сообщений")
        let few = l.localize("inbox.count", args: ["3"], preferred: ["ru"])
        #expect(few.text == "3 сообщения")
        #expect(
            few.warnings.contains {
                $0.code == .translationState && $0.key == "inbox.count" && $0.language == "ru" && $0.message.contains("needs_review")
            })
    }

    @Test("device variations: the device is an iPhone")
    func device() throws {
        let (_, l) = try localizer()
        #expect(l.localize("tap", args: [], preferred: ["en"]).text == "Tap to open")
    }

    @Test("substitutions use argNum, formatSpecifier and %arg")
    func substitutions() throws {
        let (_, l) = try localizer()
        #expect(l.localize("summary", args: ["Trip", "1", "2"], preferred: ["en"]).text == "Trip: 1 photo in 2 albums")
    }

    @Test("a language with no entry takes the source value, with a warning; a key with none is itself")
    func fallback() throws {
        let (_, l) = try localizer()
        let r = l.localize("tap", args: [], preferred: ["ru"])
        #expect(r.language == "ru")
        #expect(r.text == "Tap to open")
        #expect(r.warnings.contains { $0.code == .untranslated && $0.key == "tap" && $0.language == "ru" })
        #expect(l.localize("Key is the text", args: [], preferred: ["en"]).text == "Key is the text")
        #expect(l.localize("brand", args: [], preferred: ["ru"]).text == "pushbox")
    }

    @Test("new units are shown with a warning")
    func states() throws {
        let (_, l) = try localizer()
        let r = l.localize("fresh", args: [], preferred: ["en"])
        #expect(r.text == "Brand new")
        #expect(r.warnings.contains { $0.code == .translationState && $0.message.contains("marked new") })
    }

    @Test("the catalog's languages take part in matching")
    func languages() throws {
        let (app, _) = try localizer()
        #expect(AppLocalizations(directory: app.directory).localizations() == ["en", "ru"])
    }

    @Test("a broken catalog is refused with line and column")
    func broken() throws {
        let app = try AppFixture(["Localizable.xcstrings": "{\n  \"sourceLanguage\": \"en\",\n  \"strings\": {,}\n}"])
        let table = AppLocalizations(directory: app.directory).table(localization: "en")
        #expect(table.errors.first?.line == 3)
        #expect(table.errors.first?.description.contains("Localizable.xcstrings:3:") == true)
    }

    @Test(
        "every corpus catalog reads, versions 1.0 to 1.3",
        .enabled(if: ProjectPaths.corpusExists, "../shared/corpus is absent: catalog corpus check skipped"))
    func corpusCatalogs() throws {
        let files = ProjectPaths.corpusFiles(["xcstrings"])
        #expect(files.count >= 70)
        var versions = Set<String>()
        for path in files {
            let catalog = try XCStringsCatalog(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
            versions.insert(catalog.version)
            for language in catalog.languages { _ = catalog.table(for: language) }
        }
        #expect(versions.isSuperset(of: ["1.0", "1.1"]))
    }
}
