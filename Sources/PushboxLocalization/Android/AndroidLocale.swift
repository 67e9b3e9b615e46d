import Foundation

/// A locale as Android's resources see it: a language, maybe a script, maybe a region (two
/// letters or three digits), from a `values-…` folder's qualifiers or a BCP 47 tag.
public struct AndroidLocale: Sendable, Hashable, CustomStringConvertible {
    /// Lowercase language as written: a folder's `values-he` stays `he`, `values-iw` stays `iw`
    /// (aapt2 keeps both as they are, and the runtime tells them apart).
    public var language: String
    /// Title-case script (`Latn`), when given.
    public var script: String?
    /// Uppercase region (`BR`) or three digits (`419`), when given.
    public var region: String?

    /// A locale from its parts, its language kept as written.
    public init(language: String, script: String? = nil, region: String? = nil) {
        self.language = language.lowercased()
        self.script = script.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        self.region = region?.uppercased()
    }

    /// The codes Java's `Locale` still produces, and `ResourcesImpl.adjustLanguageTag` asks the
    /// resources for: `he→iw`, `id→in`, `yi→ji`.
    static let legacy = ["he": "iw", "id": "in", "yi": "ji"]

    /// The language as the framework names it (`iw` for Hebrew, however it was written): what
    /// Java's `Locale` compares in step 1, and what a device's request asks the resources for.
    public var frameworkLanguage: String { Self.legacy[language] ?? language }

    /// The same locale as the framework asks the resources for it (`he-IL` → `iw-IL`).
    public var asRequested: AndroidLocale { AndroidLocale(language: frameworkLanguage, script: script, region: region) }

    /// A BCP 47 tag (`ko-KR`, `sr-Latn`, `es-419`, `zh-Hant-TW`, `ko_KR`).
    public init?(tag: String) {
        let parts = LanguageTag.subtags(tag)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter) else { return nil }
        var script: String?
        var region: String?
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isLetter), script == nil, region == nil {
                script = part
            } else if (part.count == 2 && part.allSatisfy(\.isLetter)) || (part.count == 3 && part.allSatisfy(\.isNumber)), region == nil {
                region = part
            } else {
                break  // variants and extensions: not part of resource matching here
            }
        }
        self.init(language: first, script: script, region: region)
    }

    /// `ko-KR`, `sr-Latn`, `es-419`, `iw-IL`: the language as written.
    public var description: String { ([language] + [script, region].compactMap { $0 }).joined(separator: "-") }

    /// The pseudo-locales, matched only exactly: `en-XA` (accented) and `ar-XB` (bidi).
    public var isPseudo: Bool { (language == "en" && region == "XA") || (language == "ar" && region == "XB") }

    /// The script this locale is written in: its own, else ICU's likely one ("" when unknown).
    public var likelyScript: String {
        if let script { return script }
        return Self.likely(description).script ?? ""
    }

    /// ICU's likely script and region of `identifier` (`zh-Hant` → Hant, TW), cached.
    static func likely(_ identifier: String) -> (script: String?, region: String?) {
        let found = likelyCache.value(for: identifier) {
            let parts = Locale.Language(identifier: identifier).maximalIdentifier.split(separator: "-").dropFirst()
            let script = parts.first { $0.count == 4 && $0.allSatisfy(\.isLetter) }.map(String.init)
            let region = parts.first { ($0.count == 2 && $0.allSatisfy(\.isLetter)) || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }
            return [script, region.map(String.init)]
        }
        return (found[0], found[1])
    }
    private static let likelyCache = LockedCache<String, [String?]>()

    /// `isRepresentative` (LocaleData.cpp): the locale ICU's likely subtags make of this
    /// language in `script` (`zh-Hant` → `zh-Hant-TW`, `es` → `es-Latn-ES`), and Android's own
    /// additions en-GB (for en-001) and es-MX, es-US (for es-419): among regions as near to a
    /// request as each other, a representative one is better.
    func isRepresentative(script: String) -> Bool {
        guard let region else { return false }
        if script == "Latn" && ["en-GB", "es-MX", "es-US"].contains("\(frameworkLanguage)-\(region)") { return true }
        return Self.likely("\(frameworkLanguage)-\(script)").region == region
    }
}

/// A `values…` folder: the default one, or one for a locale (`values-ko`, `values-pt-rBR`,
/// `values-b+sr+Latn`, `values-b+es+419`). Folders with other qualifiers (`values-night`,
/// `values-v21`, `values-ko-land`) are not locale folders.
public struct AndroidValuesFolder: Sendable, Hashable, CustomStringConvertible {
    /// Its name, `values-pt-rBR`.
    public var name: String
    /// Its locale; nil for `values/`.
    public var locale: AndroidLocale?

    /// The folder named `name`, or nil when it is not `values` or a locale's values folder.
    public init?(name: String) {
        self.name = name
        guard name.hasPrefix("values") else { return nil }
        if name == "values" {
            locale = nil
            return
        }
        guard name.hasPrefix("values-") else { return nil }
        let qualifiers = String(name.dropFirst("values-".count))
        if qualifiers.hasPrefix("b+") {
            let parts = qualifiers.dropFirst(2).split(separator: "+").map(String.init)
            guard let locale = AndroidLocale(tag: parts.joined(separator: "-")), parts.count <= 3 else { return nil }
            self.locale = locale
            return
        }
        let parts = qualifiers.split(separator: "-").map(String.init)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(\.isLetter)
        else { return nil }
        switch parts.count {
        case 1: locale = AndroidLocale(language: language)
        case 2:
            let r = parts[1]
            guard r.count == 3, r.first == "r", r.dropFirst().allSatisfy(\.isLetter) else { return nil }
            locale = AndroidLocale(language: language, region: String(r.dropFirst()))
        default: return nil
        }
    }

    /// `values-ko`.
    public var description: String { name }
}
