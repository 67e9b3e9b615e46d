import Foundation
import PushboxJSON
import PushboxSystem

/// The system's localization of a key with arguments, for a device's preferred languages: the
/// same engine serves `*-loc-key` and the extension's custom keys.
public final class Localizer: Sendable {
    /// The app's localizations.
    public let app: AppLocalizations
    /// The columns a variable-width rule is chosen for.
    public let displayWidth: Int

    /// Resolutions already made, by table and preferred languages.
    private let resolutions = Locked<[String: Resolution]>([:])

    /// A localizer for `app`, choosing width rules for `displayWidth` columns.
    public init(app: AppLocalizations, displayWidth: Int = 80) {
        self.app = app
        self.displayWidth = displayWidth
    }

    /// Where a device with these preferred languages takes its strings from.
    public struct Resolution: Sendable, Equatable {
        /// The localization the preferred languages matched, and why.
        public var match: LanguageMatcher.Match
        /// The pseudolanguage applied on top, if the device language is one.
        public var pseudolanguage: Pseudolanguage?
        /// The locale numbers are written for: the preferred language that matched, or the localization.
        public var numberLocale: String
        /// The language whose plural rules apply.
        public var pluralLanguage: String

        /// The language to report: the localization, or the pseudolanguage in force.
        public var language: String { pseudolanguage?.rawValue ?? match.localization }
    }

    /// One localized string, its language and every warning met on the way.
    public struct Localized: Sendable, Equatable {
        /// The localized text (the key itself when missing).
        public var text: String
        /// The localization it came from.
        public var language: String
        /// Missing keys, untranslated entries, format problems.
        public var warnings: [Diagnostic]
        /// False when the key was missing and the key itself is shown.
        public var found: Bool
    }

    /// The localization a device with these languages reads `table` from (cached per list).
    public func resolve(_ preferred: [String], table: String = "Localizable") -> Resolution {
        let cacheKey = table + "\u{0}" + preferred.joined(separator: ",")
        if let cached = resolutions.withLock({ $0[cacheKey] }) { return cached }
        let pseudo = preferred.first.flatMap(Pseudolanguage.init(tag:))
        let matcher = LanguageMatcher(available: app.localizations(table: table), developmentRegion: app.developmentRegion)
        let match = matcher.match(pseudo != nil ? [app.developmentRegion] : preferred)
        var reason = match
        if let pseudo { reason.reason = "pseudolanguage \(pseudo.rawValue) over the development language: " + match.reason }
        let language = match.localization == "Base" ? app.developmentRegion : match.localization
        let pluralLanguage = LanguageTag(language)?.description ?? language
        let resolution = Resolution(
            match: reason, pseudolanguage: pseudo,
            numberLocale: LanguageTag(match.preferred ?? language)?.description ?? language,
            pluralLanguage: pluralLanguage)
        resolutions.withLock { $0[cacheKey] = resolution }
        return resolution
    }

    /// Localizes `key` with `args` as a device with `preferred` languages shows it. A key missing
    /// from the chosen language shows the key itself (never another language), with a warning.
    public func localize(_ key: String, args: [String], preferred: [String], table: String = "Localizable") -> Localized {
        let resolution = resolve(preferred, table: table)
        let loc = resolution.match.localization
        let strings = app.table(table, localization: loc)
        var notes: [Diagnostic] = strings.errors.map {
            Diagnostic(.brokenFile, "\($0) (the whole file is ignored, as on a device)", severity: .error, key: key, language: loc)
        }
        guard let entry = strings.entries[key] else {
            notes.append(
                Diagnostic(.missingKey, "key \"\(key)\" is missing from \(table) in \(loc); the device shows the key itself", key: key, language: loc)
            )
            return Localized(
                text: resolution.pseudolanguage?.transformResult(key) ?? key, language: resolution.language, warnings: notes, found: false)
        }
        if let state = entry.state, state == "new" || state == "needs_review" {
            notes.append(
                Diagnostic(
                    .translationState, "\"\(key)\" in \(loc) is marked \(state) in \((entry.file as NSString).lastPathComponent); shown as it is",
                    key: key, language: loc))
        }
        if entry.fromSourceLanguage {
            notes.append(
                Diagnostic(
                    .untranslated,
                    "\"\(key)\" has no \(loc) translation in \((entry.file as NSString).lastPathComponent); Xcode's build uses the source language's value",
                    key: key, language: loc))
        }
        // The rule and format engines say what they met with its code; the key and language are added here.
        var formatNotes: [Diagnostic] = []
        let format: String
        switch entry.value {
        case .text(let text):
            format = text
        case .rule(let rule):
            let expander = RuleExpander(
                plural: PluralRules.forLanguage(resolution.pluralLanguage), displayWidth: displayWidth,
                source: (entry.file as NSString).lastPathComponent)
            format = expander.expand(rule, args: args, warnings: &formatNotes)
        }
        let renderer = FormatRenderer(numbers: NumberFormatterICU.forLanguage(resolution.numberLocale))
        let pseudoFormat = resolution.pseudolanguage?.transformFormat(format) ?? format
        var text = renderer.render(pseudoFormat, args, warnings: &formatNotes)
        if let pseudo = resolution.pseudolanguage { text = pseudo.transformResult(text) }
        notes += formatNotes.map { note in
            var note = note
            (note.key, note.language) = (key, loc)
            return note
        }
        return Localized(
            text: text, language: resolution.language,
            warnings: notes.map { note in
                var prefixed = note
                prefixed.message = "\(key): \(note.message)"
                return prefixed
            }, found: true)
    }
}
