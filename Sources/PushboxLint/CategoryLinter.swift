import PushboxJSON
import PushboxLocalization
import PushboxPayload

extension Diagnostic.Code {
    public static let categoryFormat = Self(
        "category-format", .error,
        "A category's `categorySummaryFormat` or hidden-previews placeholder, in some language, reads arguments "
            + "iOS does not give it (`%u` the count, and for a summary `%@`).")
    public static let communicationNoIntent = Self(
        "communication-no-intent", .warning,
        "The app has the Communication Notifications capability but its extension donates no intent (no "
            + "`communicate` step): every notification shows as an ordinary one.")
}

/// Checks what the app profile says iOS will format or present: each category's summary format
/// and hidden-previews placeholder against every localization of it, and a communication
/// capability without the step that uses it.
public struct CategoryLinter {
    /// The app's profile (`pushbox.json`).
    public let profile: AppProfile
    /// Its localizations.
    public let app: AppLocalizations
    /// The table the texts are keys of.
    public let table: String

    /// A linter for `profile`'s categories with `app`'s strings from `table`.
    public init(profile: AppProfile, app: AppLocalizations, table: String = "Localizable") {
        self.profile = profile
        self.app = app
        self.table = table
    }

    /// What iOS gives each text: a summary format `%u` (the count, an unsigned integer) and
    /// optionally `%@` (a string); a placeholder `%u` only (Apple, UNNotificationCategory's
    /// `categorySummaryFormat` and `hiddenPreviewsBodyPlaceholder`).
    static let allowed: [String: [Int: String]] = [
        "categorySummaryFormat": [1: "integer", 2: "object"], "hiddenPreviewsBodyPlaceholder": [1: "integer"],
    ]

    /// Every finding, against `pushbox.json` (a literal text) or the strings file (a key).
    public func lint() -> [LintFinding] {
        var out: [LintFinding] = []
        let file = profile.directory + "/pushbox.json"
        for category in profile.categories {
            for (field, text) in [
                ("categorySummaryFormat", category.summaryFormat), ("hiddenPreviewsBodyPlaceholder", category.hiddenPreviewsBodyPlaceholder),
            ] {
                guard let text, let allowed = Self.allowed[field] else { continue }
                let localized = app.localizations(table: table).compactMap { language in
                    app.table(table, localization: language).entries[text].map { (language, $0) }
                }
                // Not a key in any language: the text itself, formatted as it is.
                let forms: [(language: String?, value: LocalizedValue, file: String, line: Int?)] =
                    localized.isEmpty
                    ? [(nil, .text(text), file, nil)] : localized.filter { !$0.1.fromSourceLanguage }.map { ($0.0, $0.1.value, $0.1.file, $0.1.line) }
                for form in forms {
                    let arguments = LocalizationLinter.signature(of: form.value).arguments
                    let wrong = arguments.filter { allowed[$0.key] != $0.value }.sorted { $0.key < $1.key }
                    guard !wrong.isEmpty else { continue }
                    let reads = wrong.map { "argument \($0.key) as \($0.value)" }.joined(separator: ", ")
                    let gives = allowed.sorted { $0.key < $1.key }.map { "%\($0.key) \($0.value == "integer" ? "%u (the count)" : "%@")" }
                    out.append(
                        LintFinding(
                            .error, .categoryFormat, file: form.file, line: form.line, language: form.language, key: localized.isEmpty ? nil : text,
                            message:
                                "category \(category.identifier)'s \(field) \(localized.isEmpty ? "\"\(text)\"" : "\"\(text)\" in \(form.language ?? "")") reads \(reads); iOS gives only \(gives.joined(separator: " and "))"
                        ))
                }
            }
        }
        if profile.capabilities?.contains(.communicationNotifications) == true && profile.recipe?.communicateStep == nil {
            out.append(
                LintFinding(
                    .warning, .communicationNoIntent, file: file,
                    message:
                        "the app has the Communication Notifications capability but its extension has no communicate step: no intent is donated, so no notification shows a sender's avatar or breaks through a Focus that allows the sender"
                ))
        }
        return out
    }
}
