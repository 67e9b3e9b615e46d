/// One rendering's identity: a stored notification and the device's preferred-language list it
/// was rendered for. The store keeps renderings under `languageKey`; the UI keeps them under
/// the same key.
public struct RenderKey: Hashable, Sendable {
    /// The stored notification's row id.
    public var id: Int64
    /// The device's preferred languages, most preferred first.
    public var languages: [String]

    /// The rendering of notification `id` for `languages`.
    public init(id: Int64, languages: [String]) {
        self.id = id
        self.languages = languages
    }

    /// The key renderings for this language list are kept under.
    public var languageKey: String { Self.languageKey(languages) }

    /// The key renderings for a language list are kept under: the tags joined by commas.
    public static func languageKey(_ languages: [String]) -> String { languages.joined(separator: ",") }
}
