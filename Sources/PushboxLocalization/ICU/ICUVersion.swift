import CICUWrap

/// The ICU pushbox localizes with (the Swift toolchain's), and its CLDR data.
public enum ICUVersion {
    /// `ICU 76.1, CLDR 46.0`.
    public static var description: String {
        var icu = [CChar](repeating: 0, count: 24)
        var cldr = [CChar](repeating: 0, count: 24)
        pb_icu_versions(&icu, &cldr)
        return "ICU \(String(cString: icu)), CLDR \(String(cString: cldr))"
    }
}
