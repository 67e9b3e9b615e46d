import PushboxLocalization
import PushboxPayload

/// The device-language component: the device's preferred languages, and what `[`, `]` and the
/// language picker step through (the app's localizations, then the pseudolanguages).
public struct DeviceLanguages: Sendable {
    /// The device's preferred languages; the first is the device language.
    public var languages: [String]
    /// What the picker lists.
    public var choices: [String]

    /// A device with these languages, picking among `choices`.
    public init(languages: [String], choices: [String]) {
        self.languages = languages
        self.choices = choices
    }

    /// The key under which renderings for the current language list are kept.
    public var key: String { RenderKey.languageKey(languages) }

    /// The choice the device language stands on: itself, or the localization it matches
    /// (`ko-KR` stands on `ko`).
    var currentChoice: Int? {
        guard let first = languages.first else { return nil }
        if let exact = choices.firstIndex(of: first) { return exact }
        let localizations = choices.filter { Pseudolanguage(tag: $0) == nil }
        let match = LanguageMatcher(available: localizations, developmentRegion: localizations.first ?? "en").match([first])
        return match.preferred == nil ? nil : choices.firstIndex(of: match.localization)
    }

    /// The choice `step` places after (or before, when negative) the current one, round.
    func stepped(_ step: Int) -> String? {
        guard !choices.isEmpty else { return nil }
        return choices[Self.wrap((currentChoice ?? -1) + step, choices.count)]
    }

    /// The picker's selection moved by `step`, round.
    func moved(selection: Int, by step: Int) -> Int { Self.wrap(selection + step, max(1, choices.count)) }

    private static func wrap(_ i: Int, _ n: Int) -> Int { (i % n + n) % n }
}
