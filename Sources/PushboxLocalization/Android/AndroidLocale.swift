import Foundation

/// A locale as Android's resources see it: a language, maybe a script, maybe a region (two
/// letters or three digits), from a `values-…` folder's qualifiers or a BCP 47 tag.
public struct AndroidLocale: Sendable, Hashable, CustomStringConvertible {
    /// Lowercase language, legacy codes as the framework keeps them (`iw`, `in`, `ji`).
    public var language: String
    /// Title-case script (`Latn`), when given.
    public var script: String?
    /// Uppercase region (`BR`) or three digits (`419`), when given.
    public var region: String?

    /// A locale from its parts; the language's modern and legacy codes are one language.
    public init(language: String, script: String? = nil, region: String? = nil) {
        self.language = Self.legacy[language.lowercased()] ?? language.lowercased()
        self.script = script.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        self.region = region?.uppercased()
    }

    /// The framework's legacy codes: `he→iw`, `id→in`, `yi→ji` before matching.
    static let legacy = ["he": "iw", "id": "in", "yi": "ji"]

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

    /// `ko-KR`, `sr-Latn`, `es-419`, with the modern code of a legacy language (`he-IL`).
    public var description: String {
        let modern = Self.legacy.first { $0.value == language }?.key ?? language
        return ([modern] + [script, region].compactMap { $0 }).joined(separator: "-")
    }

    /// The pseudo-locales, matched only exactly: `en-XA` (accented) and `ar-XB` (bidi).
    public var isPseudo: Bool { (language == "en" && region == "XA") || (language == "ar" && region == "XB") }

    /// The script this locale is written in: its own, else ICU's likely one ("" when unknown).
    public var likelyScript: String {
        if let script { return script }
        let maximal = Locale.Language(identifier: description).maximalIdentifier
        let parts = maximal.split(separator: "-")
        return parts.first { $0.count == 4 && $0.allSatisfy(\.isLetter) }.map(String.init) ?? ""
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
