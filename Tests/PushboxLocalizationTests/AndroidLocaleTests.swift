import Testing

@testable import PushboxLocalization

/// Android's two steps, with the documented examples: step 1 picks one locale of the device's
/// list (`LocaleList.getFirstMatchWithEnglishSupported`), step 2 the folder for it
/// (`ResTable_config::isBetterThan`, CLDR's parent chains).
@Suite("Android's locale resolution")
struct AndroidLocaleTests {
    func locales(_ tags: String) -> [AndroidLocale] { tags.split(separator: ",").compactMap { AndroidLocale(tag: String($0)) } }
    func folders(_ names: String) -> [AndroidValuesFolder] { names.split(separator: " ").compactMap { AndroidValuesFolder(name: String($0)) } }

    /// Step 1 then step 2 for the device list `device` and an app with `app` folders.
    func resolve(_ device: String, _ app: String, claimed: String? = nil) -> String? {
        let f = folders(app)
        let claim = claimed.map(locales) ?? f.compactMap(\.locale)
        let (locale, _) = AndroidLocaleResolver.configuredLocale(preferred: locales(device), claimed: claim)
        return AndroidLocaleResolver.folder(for: locale, among: f)?.folder.name
    }

    @Test("folder names: legacy form, BCP 47 form, legacy codes, numeric regions; other qualifiers are not locale folders")
    func folderNames() {
        #expect(AndroidValuesFolder(name: "values")?.locale == nil)
        #expect(AndroidValuesFolder(name: "values-pt-rBR")?.locale == AndroidLocale(language: "pt", region: "BR"))
        #expect(AndroidValuesFolder(name: "values-b+sr+Latn")?.locale == AndroidLocale(language: "sr", script: "Latn"))
        #expect(AndroidValuesFolder(name: "values-b+es+419")?.locale == AndroidLocale(language: "es", region: "419"))
        // Legacy codes stay as written (aapt2 keeps them); the framework's name is the legacy one.
        #expect(AndroidValuesFolder(name: "values-iw")?.locale == AndroidLocale(language: "iw"))
        #expect(AndroidValuesFolder(name: "values-he")?.locale?.frameworkLanguage == "iw")
        #expect(AndroidValuesFolder(name: "values-in")?.locale?.description == "in")
        #expect(AndroidLocale(tag: "yi-001")?.asRequested.description == "ji-001")
        for other in ["values-night", "values-v21", "values-land", "values-sw600dp", "values-ko-land", "values-en-GB", "values-e"] {
            #expect(AndroidValuesFolder(name: other) == nil, "\(other)")
        }
    }

    @Test("the documented examples (multilingual-support.jd): fr_CH finds fr_FR; [fr_CH, it_CH] without French finds it_IT")
    func documented() {
        let app = "values values-de-rDE values-es-rES values-fr-rFR values-it-rIT"
        #expect(resolve("fr-CH", app) == "values-fr-rFR")
        #expect(resolve("fr-CH,it-CH", "values values-de-rDE values-es-rES values-it-rIT") == "values-it-rIT")
    }

    @Test("English is assumed supported: fr, en, de on an app without French is English, not German")
    func englishAssumed() {
        #expect(resolve("fr-FR,en-US,de-DE", "values values-de") == "values")
        #expect(resolve("fr-FR,de-DE", "values values-de") == "values-de")
    }

    @Test("a library claiming every locale stops step 1 at the first device locale (the apkLocales pitfall)")
    func claimedLocales() {
        let app = "values values-de"
        #expect(resolve("fr-FR,de-DE", app) == "values-de")
        #expect(resolve("fr-FR,de-DE", app, claimed: "fr,de,es,it,ja") == "values")
    }

    @Test("region parent chains: es-AR → es-419 → es; es-MX and es-US stand in for a missing es-419")
    func spanish() {
        #expect(resolve("es-AR", "values values-es values-b+es+419") == "values-b+es+419")
        #expect(resolve("es-AR", "values values-es values-es-rAR values-b+es+419") == "values-es-rAR")
        #expect(resolve("es-AR", "values values-es values-es-rES") == "values-es")
        #expect(resolve("es-AR", "values values-es-rES values-es-rMX values-es-rUS") == "values-es-rMX")
        // es-ES is two steps from es-419 (through es) and three from es-MX.
        #expect(resolve("es-ES", "values values-es-rMX values-b+es+419") == "values-b+es+419")
    }

    @Test("US English: values/ beats values-en-rGB; elsewhere en-GB serves the en-001 family")
    func english() {
        #expect(resolve("en-US", "values values-en-rGB") == "values")
        #expect(resolve("en-US", "values values-en values-en-rGB") == "values-en")
        #expect(resolve("en-AU", "values values-en-rGB") == "values-en-rGB")
        #expect(resolve("en-GB", "values values-en-rGB") == "values-en-rGB")
    }

    @Test("scripts must agree: zh-TW never reads values-zh-rCN; sr-Latn reads values-b+sr+Latn, not values-sr")
    func scripts() {
        #expect(resolve("zh-TW", "values values-zh-rCN") == "values")
        #expect(resolve("zh-TW", "values values-zh-rCN values-zh-rTW") == "values-zh-rTW")
        #expect(resolve("zh-HK", "values values-zh-rCN values-zh-rTW") == "values-zh-rTW")
        #expect(resolve("sr-Latn-RS", "values values-sr values-b+sr+Latn") == "values-b+sr+Latn")
        #expect(resolve("sr-RS", "values values-sr values-b+sr+Latn") == "values-sr")
    }

    @Test("legacy codes: a device in he-IL reads values-iw; id reads values-in")
    func legacy() {
        #expect(resolve("he-IL", "values values-iw") == "values-iw")
        #expect(resolve("id-ID", "values values-in") == "values-in")
    }

    @Test("pseudo-locales match only exactly: en-XA reads values-en-rXA, not values-en; en-US never reads values-en-rXA")
    func pseudo() {
        #expect(resolve("en-XA", "values values-en values-en-rXA") == "values-en-rXA")
        #expect(resolve("en-US", "values values-en-rXA") == "values")
        #expect(resolve("ar-XB,en-US", "values values-ar values-ar-rXB") == "values-ar-rXB")
    }
}
