/// CLDR plural categories, as `.stringsdict` and `.xcstrings` name them.
public enum PluralCategory: String, Sendable, CaseIterable, Comparable {
    case zero, one, two, few, many, other

    /// CLDR's order: zero, one, two, few, many, other.
    public static func < (a: PluralCategory, b: PluralCategory) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
