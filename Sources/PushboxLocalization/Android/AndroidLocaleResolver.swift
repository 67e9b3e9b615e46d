/// Which `values-*` folder Android reads a string from, in its two steps (Android 7 and later):
/// `ResourcesImpl.updateConfiguration` picks one locale of the device's list
/// (`LocaleList.getFirstMatchWithEnglishSupported` over the locales the app claims), then
/// `ResTable_config::isBetterThan` picks, per resource, the folder for that locale among those
/// that define it (aosp-mirror/platform_frameworks_base `core/java/android/os/LocaleList.java`,
/// `libs/androidfw/ResourceTypes.cpp`, `libs/androidfw/LocaleData.cpp`).
public enum AndroidLocaleResolver {
    /// Step 1: the locale the resources are configured with, from the device's `preferred`
    /// list and the locales the app claims (its folders' locales, or what the APK claims).
    /// English is assumed supported; a list of one is taken as is; no match is the first.
    public static func configuredLocale(preferred: [AndroidLocale], claimed: [AndroidLocale]) -> (locale: AndroidLocale?, rule: String) {
        guard let first = preferred.first else { return (nil, "no device locale: the default resources") }
        if preferred.count == 1 { return (first, "one device locale: \(first)") }
        let supported = claimed + [AndroidLocale(language: "en", script: "Latn")]
        for (i, desired) in preferred.enumerated() {
            if let match = supported.first(where: { matchScore(supported: $0, desired: desired) > 0 }) {
                if i == 0 { return (desired, "\(desired) is the first device locale and the app supports \(match)") }
                let english = match.language == "en" && !claimed.contains(where: { $0.language == "en" })
                return (
                    desired, "\(desired): the first device locale the app supports (\(english ? "English is assumed supported" : "it has \(match)"))"
                )
            }
        }
        return (first, "no device locale is supported: the first, \(first)")
    }

    /// `LocaleList.matchScore`: 1 when `desired` can use `supported`'s resources.
    static func matchScore(supported: AndroidLocale, desired: AndroidLocale) -> Int {
        if supported == desired { return 1 }
        guard supported.language == desired.language else { return 0 }
        if supported.isPseudo || desired.isPseudo { return 0 }
        let supportedScript = supported.likelyScript
        if supportedScript.isEmpty {
            return supported.region == nil || supported.region == desired.region ? 1 : 0
        }
        return supportedScript == desired.likelyScript ? 1 : 0
    }

    /// Step 2: of `folders` that define a resource, the one Android reads for `locale` (nil:
    /// none can serve it), and why.
    public static func folder(for locale: AndroidLocale?, among folders: [AndroidValuesFolder]) -> (folder: AndroidValuesFolder, rule: String)? {
        let fallback = folders.first { $0.locale == nil }
        guard let locale else { return fallback.map { ($0, "the default resources") } }
        // Same language, and the same script when both can be told.
        let candidates = folders.filter { f in
            guard let l = f.locale, l.language == locale.language else { return false }
            if l.isPseudo != locale.isPseudo { return false }
            let a = l.likelyScript
            let b = locale.likelyScript
            return a.isEmpty || b.isEmpty || a == b
        }
        guard !candidates.isEmpty else {
            return fallback.map { ($0, "no values-\(locale.language)… folder has it: the default") }
        }
        let best = candidates.min { better($0.locale!, than: $1.locale!, for: locale) }!
        // US English: values/ beats a folder for English outside the US (en-001 and its children).
        if let fallback, closeToUSEnglish(locale), let region = best.locale?.region,
            isDescendant(AndroidLocale(language: "en", region: region), of: "en-001")
        {
            return (fallback, "\(locale) is US English: the default beats \(best.name)")
        }
        let why: String
        if best.locale == locale {
            why = "exactly \(locale)"
        } else if let r = best.locale?.region, chain(locale).contains(r) {
            why = "\(best.name) is a parent of \(locale)"
        } else if best.locale?.region == nil {
            why = "the language of \(locale)"
        } else {
            why = "the nearest region to \(locale) the app has"
        }
        return (best, why)
    }

    /// Whether `a` serves `request` better than `b` (regions compared as `localeDataCompareRegions`).
    static func better(_ a: AndroidLocale, than b: AndroidLocale, for request: AndroidLocale) -> Bool {
        let ra = regionRank(a, request)
        let rb = regionRank(b, request)
        if ra != rb { return ra < rb }
        // Then the lower region code, two letters before three digits.
        let ca = a.region ?? ""
        let cb = b.region ?? ""
        let aDigits = ca.first?.isNumber ?? false
        let bDigits = cb.first?.isNumber ?? false
        if aDigits != bDigits { return !aDigits }
        return ca < cb
    }

    /// 0 for the request's own region, then its ancestors nearest first (the language alone
    /// last of them), then other regions by their distance in CLDR's parent tree.
    static func regionRank(_ candidate: AndroidLocale, _ request: AndroidLocale) -> Int {
        if candidate.region == request.region { return 0 }
        let ancestors = chain(request)
        if let region = candidate.region, let i = ancestors.firstIndex(of: region) { return i + 1 }
        if candidate.region == nil { return ancestors.count + 1 }
        // Distance through the nearest common ancestor.
        let other = chain(AndroidLocale(language: request.language, region: candidate.region))
        for (i, r) in ancestors.enumerated() {
            if let j = other.firstIndex(of: r) { return 100 + i + j + 2 }
        }
        return 100 + ancestors.count + other.count + 2
    }

    /// The request's region ancestors in CLDR's parentLocales, nearest first (`es-AR` → `419`).
    static func chain(_ l: AndroidLocale) -> [String] {
        var out: [String] = []
        var key = l.region.map { "\(l.language)-\($0)" }
        while let k = key, let parent = parents[k] {
            guard let r = parent.split(separator: "-").last, parent.contains("-") else { break }
            out.append(String(r))
            key = parent
        }
        return out
    }

    static func isDescendant(_ l: AndroidLocale, of ancestor: String) -> Bool {
        var key = l.region.map { "\(l.language)-\($0)" }
        while let k = key {
            if k == ancestor { return true }
            key = parents[k]
        }
        return false
    }

    /// `localeDataIsCloseToUsEnglish`: English whose ancestors reach `en` before `en-001`.
    static func closeToUSEnglish(_ l: AndroidLocale) -> Bool {
        guard l.language == "en" else { return false }
        guard let region = l.region else { return true }
        return !isDescendant(AndroidLocale(language: "en", region: region), of: "en-001")
    }

    /// CLDR's parentLocales for the languages whose regions fall back through a group
    /// (supplementalData.xml): Latin American Spanish, international English, European
    /// Portuguese, and the parents of the groups themselves.
    static let parents: [String: String] = {
        var p: [String: String] = ["es-419": "es", "en-001": "en", "en-150": "en-001", "pt-PT": "pt", "zh-MO": "zh-HK"]
        for r in "AR BO BR BZ CL CO CR CU DO EC GT HN MX NI PA PE PR PY SV US UY VE".split(separator: " ") { p["es-\(r)"] = "es-419" }
        for r in "AT BE CH DE DK FI NL SE SI".split(separator: " ") { p["en-\(r)"] = "en-150" }
        let international =
            "AG AI AU BB BM BS BW BZ CC CK CM CX CY DG DM ER FJ FK FM GB GD GG GH GI GM GY HK IE IL IM IN IO JE JM KE KI KN KY LC LR LS MG MO MS MT MU MV MW MY NA NF NG NR NU NZ PG PK PN PW RW SB SC SD SG SH SL SS SX SZ TC TK TO TT TV TZ UG VC VG VU WS ZA ZM ZW"
        for r in international.split(separator: " ") { p["en-\(r)"] = "en-001" }
        for r in "AO CH CV GQ GW LU MO MZ ST TL".split(separator: " ") { p["pt-\(r)"] = "pt-PT" }
        return p
    }()
}
