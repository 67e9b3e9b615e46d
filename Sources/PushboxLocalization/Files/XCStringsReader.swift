import Foundation
import PushboxJSON

/// Reads a String Catalog (`.xcstrings`, versions 1.0–1.3) into per-language entries for an
/// iPhone: device variations pick `iphone`, else `other`; plural variations and substitutions
/// (`argNum`, `formatSpecifier`, `%arg`) become rule formats; a language with no entry takes the
/// source language's value, as Xcode's build does, and a key with no value at all is its own value.
public struct XCStringsCatalog: Sendable {
    /// The catalog's source language.
    public var sourceLanguage: String
    /// The catalog's format version.
    public var version: String
    /// Every language the catalog mentions.
    public var languages: Set<String>
    /// Key → language → entry, as written (no fallback applied).
    public var entries: [String: [String: LocalizedEntry]]
    /// Keys marked `shouldTranslate: false`.
    public var untranslatable: Set<String>
    /// What was readable but odd.
    public var notes: [FileNote]
    /// The `.xcstrings` file.
    public let file: String

    /// Catalog versions pushbox reads as they are.
    public static let supportedVersions: Set<String> = ["1.0", "1.1", "1.2", "1.3"]

    /// Reads a string catalog, errors at file:line:column.
    public init(_ bytes: [UInt8], file: String) throws(LocalizationFileError) {
        self.file = file
        let root: JSONObject
        do {
            guard let object = try JSONParser.parse(bytes, maxDepth: 64).objectValue else {
                throw LocalizationFileError(file: file, line: 1, column: 1, message: "a string catalog is a JSON object")
            }
            root = object
        } catch let error as JSONParseError {
            throw LocalizationFileError(file: file, line: error.line, column: error.column, message: error.message)
        } catch let error as LocalizationFileError {
            throw error
        } catch {
            throw LocalizationFileError(file: file, line: 1, column: 1, message: "\(error)")
        }
        sourceLanguage = root["sourceLanguage"]?.stringValue ?? "en"
        version = root["version"]?.stringValue ?? "1.0"
        notes = []
        if !Self.supportedVersions.contains(version) {
            notes.append(
                FileNote(
                    .newerCatalogVersion, file: file, line: 1,
                    message: "catalog version \(version) is newer than the versions pushbox knows (1.0–1.3); read as 1.3"))
        }
        languages = [sourceLanguage]
        entries = [:]
        untranslatable = []
        guard let strings = root["strings"]?.objectValue else { return }
        for (key, value) in strings.entries {
            guard let item = value.objectValue else { continue }
            if item["shouldTranslate"] == .bool(false) { untranslatable.insert(key) }
            guard let localizations = item["localizations"]?.objectValue else { continue }
            var perLanguage: [String: LocalizedEntry] = [:]
            for (language, node) in localizations.entries {
                languages.insert(language)
                guard let node = node.objectValue else { continue }
                if let entry = entry(from: node, key: key) { perLanguage[language] = entry }
            }
            entries[key] = perLanguage
        }
    }

    /// The entries for one language, with Xcode's fallbacks applied.
    public func table(for language: String) -> [String: LocalizedEntry] {
        var out: [String: LocalizedEntry] = [:]
        out.reserveCapacity(entries.count)
        for (key, perLanguage) in entries {
            if let own = perLanguage[language], !untranslatable.contains(key) {
                out[key] = own
            } else if let source = perLanguage[sourceLanguage] {
                var fallback = source
                fallback.fromSourceLanguage = language != sourceLanguage
                out[key] = fallback
            } else {
                // A key with no value anywhere is its own value (SwiftUI-style keys).
                out[key] = LocalizedEntry(value: .text(key), file: file, state: nil, fromSourceLanguage: language != sourceLanguage)
            }
        }
        return out
    }

    /// One language's node: device variation, then plural variation, substitutions, or a plain unit.
    private mutating func entry(from node: JSONObject, key: String) -> LocalizedEntry? {
        if let device = node.value(atPath: "variations.device")?.objectValue {
            guard let chosen = (device["iphone"] ?? device["other"])?.objectValue else { return nil }
            return entry(from: chosen, key: key)
        }
        if let plural = node.value(atPath: "variations.plural")?.objectValue {
            var forms: [String: String] = [:]
            var states: [String] = []
            for (category, formNode) in plural.entries {
                guard let unit = formNode.objectValue?["stringUnit"]?.objectValue, let value = unit["value"]?.stringValue else { continue }
                forms[category] = value
                states.append(unit["state"]?.stringValue ?? "translated")
            }
            let argNum = Self.firstNumericArgument(in: forms["other"] ?? forms.values.first ?? "")
            let variable = RuleVariable(kind: .plural, valueType: "lld", forms: forms, argNum: argNum, variantsAreFormats: true)
            let rule = RuleFormat(format: "%#@\(Self.wholeStringVariable)@", variables: [Self.wholeStringVariable: variable])
            return LocalizedEntry(value: .rule(rule), file: file, state: Self.worst(states))
        }
        guard let unit = node["stringUnit"]?.objectValue, let value = unit["value"]?.stringValue else { return nil }
        let state = unit["state"]?.stringValue
        guard let substitutions = node["substitutions"]?.objectValue, !substitutions.isEmpty else {
            return LocalizedEntry(value: .text(value), file: file, state: state)
        }
        var variables: [String: RuleVariable] = [:]
        var states = [state ?? "translated"]
        for (name, subNode) in substitutions.entries {
            guard let sub = subNode.objectValue else { continue }
            let argNum = sub["argNum"]?.intValue
            let specifier = sub["formatSpecifier"]?.stringValue ?? "@"
            var forms: [String: String] = [:]
            for (category, formNode) in sub.value(atPath: "variations.plural")?.objectValue?.entries ?? [] {
                guard let unit = formNode.objectValue?["stringUnit"]?.objectValue, let text = unit["value"]?.stringValue else { continue }
                let spec = argNum.map { "%\($0)$\(specifier)" } ?? "%\(specifier)"
                forms[category] = text.replacingArgPlaceholder(with: spec)
                states.append(unit["state"]?.stringValue ?? "translated")
            }
            variables[name] = RuleVariable(kind: .plural, valueType: specifier, forms: forms, argNum: argNum)
        }
        return LocalizedEntry(value: .rule(RuleFormat(format: value, variables: variables)), file: file, state: Self.worst(states))
    }

    public static let wholeStringVariable = "__pushbox_plural"

    /// The least finished of several stringUnit states.
    static func worst(_ states: [String]) -> String? {
        for s in ["new", "needs_review", "stale"] where states.contains(s) { return s }
        return states.first
    }

    /// The argument a whole-string plural counts: its first integer specifier.
    static func firstNumericArgument(in format: String) -> Int {
        var sequential = 0
        for spec in ParsedFormat(format).specifiers where spec.takesArgument {
            if spec.position == nil { sequential += 1 }
            if spec.isInteger || spec.isFloat {
                return spec.position ?? sequential
            }
        }
        return 1
    }
}

extension String {
    /// Replaces each `%arg` placeholder of a catalog substitution.
    func replacingArgPlaceholder(with spec: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: "%arg") {
            out += rest[..<range.lowerBound]
            out += spec
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
