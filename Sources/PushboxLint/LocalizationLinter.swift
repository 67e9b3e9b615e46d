import Foundation
import PushboxJSON
import PushboxLocalization

/// Finds localization problems in an app: files that cannot be read, keys missing per
/// language, specifiers that disagree with the development language, positional forms that
/// skip an argument, plural categories CLDR requires but a language lacks, unfinished catalog
/// units, and duplicate keys.
public struct LocalizationLinter {
    /// The app's localizations.
    public let app: AppLocalizations
    /// The table linted (`Localizable`).
    public let table: String

    /// Checks `table` in every localization of `app`.
    public init(app: AppLocalizations, table: String = "Localizable") {
        self.app = app
        self.table = table
    }

    /// The localization whose keys the others are checked against.
    public var developmentLocalization: String {
        LanguageMatcher(available: app.localizations(table: table), developmentRegion: app.developmentRegion).match([]).localization
    }

    /// Every finding, file by file.
    public func lint() -> [LintFinding] {
        var findings: [LintFinding] = []
        let localizations = app.localizations(table: table)
        let devName = developmentLocalization
        let dev = app.table(table, localization: devName)
        for localization in localizations {
            let t = app.table(table, localization: localization)
            for error in t.errors where !findings.contains(where: { $0.code == .brokenFile && $0.file == error.file }) {
                findings.append(
                    LintFinding(
                        .error, .brokenFile, file: error.file, line: error.line, language: localization,
                        message: "\(error.line):\(error.column): \(error.message); the whole file is ignored on a device"))
            }
            // Every note a reader made: duplicate keys, unpaired surrogates, ignored entries, newer catalogs.
            for note in t.notes {
                findings.append(LintFinding(.warning, note.code, file: note.file, line: note.line, language: localization, message: note.message))
            }
            let pluralLanguage = LanguageTag(localization == "Base" ? app.developmentRegion : localization)?.description ?? localization
            for key in t.entries.keys.sorted() {
                let entry = t.entries[key]!
                findings += check(
                    entry, key: key, localization: localization, pluralLanguage: pluralLanguage,
                    reference: localization == devName ? nil : dev.entries[key])
            }
            guard localization != devName, localization != "Base" else { continue }
            for key in dev.entries.keys.sorted() where t.entries[key] == nil {
                let file = t.files.first ?? dev.entries[key]!.file
                findings.append(
                    LintFinding(
                        .warning, .missingKey, file: file, language: localization, key: key,
                        message: "\"\(key)\" is missing in \(localization): the device shows the key itself"))
            }
        }
        return findings
    }

    private func check(_ entry: LocalizedEntry, key: String, localization: String, pluralLanguage: String, reference: LocalizedEntry?)
        -> [LintFinding]
    {
        var out: [LintFinding] = []
        func add(_ severity: LintFinding.Severity, _ code: Diagnostic.Code, _ message: String) {
            out.append(LintFinding(severity, code, file: entry.file, line: entry.line, language: localization, key: key, message: message))
        }
        if let state = entry.state, state == "new" || state == "needs_review" {
            add(.warning, .unfinished, "\"\(key)\" in \(localization) is marked \(state)")
        }
        if entry.fromSourceLanguage { return out }
        let signature = Self.signature(of: entry.value)
        if case let skipped = signature.use.skipped, !skipped.isEmpty {
            add(
                .warning, .skippedArgument,
                "\"\(key)\" in \(localization) uses %\(skipped.max()! + 1)$ but not argument \(skipped.map(String.init).joined(separator: ", ")): fine in pushbox, undefined on a device"
            )
        }
        if signature.use.mixed {
            add(.warning, .mixedSpecifiers, "\"\(key)\" in \(localization) mixes positional and sequential specifiers: undefined on a device")
        }
        if let reference, !reference.fromSourceLanguage {
            let expected = Self.signature(of: reference.value).arguments
            for (index, family) in signature.arguments.sorted(by: { $0.key < $1.key }) {
                if let want = expected[index], want != family {
                    add(
                        .error, .specifierType,
                        "\"\(key)\" in \(localization): argument \(index) is \(family) but \(want) in the development language")
                }
            }
            if Set(signature.arguments.keys) != Set(expected.keys) {
                add(
                    .warning, .specifierCount,
                    "\"\(key)\" in \(localization) uses arguments \(Self.list(signature.arguments.keys)) but the development language uses \(Self.list(expected.keys))"
                )
            }
        }
        if case .rule(let rule) = entry.value {
            let required = Set(PluralRules.forLanguage(pluralLanguage).categories.map(\.rawValue))
            for (name, variable) in rule.variables.sorted(by: { $0.key < $1.key }) where variable.kind == .plural {
                let missing = required.subtracting(variable.forms.keys).sorted { PluralCategory(rawValue: $0)! < PluralCategory(rawValue: $1)! }
                let what = name == XCStringsCatalog.wholeStringVariable ? "the plural" : "variable \(name)"
                if !missing.isEmpty, variable.forms["other"] != nil {
                    add(
                        .warning, .missingPluralCategory,
                        "\"\(key)\" in \(localization): \(what) lacks \(missing.joined(separator: ", ")), which \(pluralLanguage) needs (\"other\" is used instead)"
                    )
                } else if !missing.isEmpty {
                    add(
                        .error, .missingPluralCategory,
                        "\"\(key)\" in \(localization): \(what) lacks \(missing.joined(separator: ", ")), which \(pluralLanguage) needs, and has no \"other\" to fall back on"
                    )
                }
            }
        }
        return out
    }

    static func list<C: Collection>(_ c: C) -> String where C.Element == Int {
        c.isEmpty ? "none" : c.sorted().map { "%\($0)" }.joined(separator: ", ")
    }

    /// Which argument each specifier reads and its family, and how the positions are used
    /// (skipped ones and mixed forms are judged by `ArgumentUse`, as the format engine judges them).
    public struct Signature: Equatable {
        /// Argument types by position (`@`, `d`, …).
        public var arguments: [Int: String] = [:]
        /// The forms and positions used, across the entry's rule variables.
        public var use = ArgumentUse()
    }

    /// The format specifiers a value's arguments need, for comparing translations.
    public static func signature(of value: LocalizedValue) -> Signature {
        var sig = Signature()
        var positional = false
        var sequentialUsed = false
        func scan(_ format: String, boundTo: Int?, variables: [String: RuleVariable], depth: Int) {
            guard depth < 8 else { return }
            var sequential = 0
            for spec in ParsedFormat(format).specifiers where spec.takesArgument && spec.conversion != "n" {
                let index: Int
                if let p = spec.position {
                    index = p
                    if boundTo == nil { positional = true }
                } else if let b = boundTo {
                    index = b
                } else {
                    sequential += 1
                    index = sequential
                    sequentialUsed = true
                }
                if let name = spec.variable, let variable = variables[name] {
                    let arg = variable.argNum ?? index
                    if !variable.variantsAreFormats { sig.arguments[arg] = "integer" }
                    for form in variable.forms.values {
                        scan(form, boundTo: variable.variantsAreFormats ? nil : arg, variables: variables, depth: depth + 1)
                    }
                } else if index <= FormatRenderer.maxPosition {
                    sig.arguments[index] = spec.family
                }
            }
        }
        switch value {
        case .text(let f): scan(f, boundTo: nil, variables: [:], depth: 0)
        case .rule(let r): scan(r.format, boundTo: nil, variables: r.variables, depth: 0)
        }
        sig.use = ArgumentUse(positional: positional, sequential: sequentialUsed, used: Set(sig.arguments.keys))
        return sig
    }
}
