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
    /// Java's `Locale` names Hebrew `iw` however it was written, so both sides compare as the
    /// framework names them.
    static func matchScore(supported: AndroidLocale, desired: AndroidLocale) -> Int {
        let supported = supported.asRequested
        let desired = desired.asRequested
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
    ///
    /// The framework asks with the legacy code (`ResourcesImpl.adjustLanguageTag`: a device in
    /// Hebrew asks for `iw`), and a folder's language is compared as written, so `values-he`
    /// never serves it (checked against libandroidfw).
    public static func folder(for device: AndroidLocale?, among folders: [AndroidValuesFolder]) -> (folder: AndroidValuesFolder, rule: String)? {
        let fallback = folders.first { $0.locale == nil }
        guard let device else { return fallback.map { ($0, "the default resources") } }
        let locale = device.asRequested
        let candidates = folders.filter { f in f.locale.map { matches($0, locale) } ?? false }
        guard !candidates.isEmpty else {
            let unread = folders.first { $0.locale?.language != locale.language && $0.locale?.frameworkLanguage == locale.language }
            if let unread {
                return fallback.map {
                    (
                        $0,
                        "Android asks for \(locale.language), the legacy code of \(unread.locale!.language), and never reads \(unread.name): the default"
                    )
                }
            }
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
        } else if best.locale!.isRepresentative(script: locale.likelyScript) {
            why = "the nearest region to \(locale) the app has; \(best.name) stands for its group"
        } else {
            why = "the nearest region to \(locale) the app has"
        }
        return (best, why)
    }

    /// `ResTable_config::match` for the locale: an equivalent language (Tagalog and Filipino are
    /// one), then the same script when both can be told — the folder's own or its likely one —
    /// else the same region when the folder names one.
    static func matches(_ folder: AndroidLocale, _ request: AndroidLocale) -> Bool {
        guard equivalent(folder.language, request.language), folder.isPseudo == request.isPseudo else { return false }
        let requested = request.likelyScript
        let script = folder.likelyScript
        if requested.isEmpty || script.isEmpty { return folder.region == nil || folder.region == request.region }
        return script == requested
    }

    /// `langsAreEquivalent`: the same code, or Tagalog and Filipino.
    static func equivalent(_ a: String, _ b: String) -> Bool { a == b || (Set([a, b]) == ["tl", "fil"]) }

    /// Whether `a` serves `request` better than `b`: their regions as `localeDataCompareRegions`
    /// (LocaleData.cpp) compares them, then, for one region in two equivalent languages, the
    /// request's own code.
    static func better(_ a: AndroidLocale, than b: AndroidLocale, for request: AndroidLocale) -> Bool {
        if a.region == b.region {
            return a.language == request.language && b.language != request.language
        }
        // The nearer of the request's own ancestors (itself first, the language alone last).
        let ancestors = lineage(request.region, language: request.language)
        for region in ancestors {
            if region == a.region { return true }
            if region == b.region { return false }
        }
        // Else the shorter way through the parent tree.
        let da = distance(a.region, language: request.language, to: ancestors)
        let db = distance(b.region, language: request.language, to: ancestors)
        if da != db { return da < db }
        // As near as each other: a representative locale (es-MX for es-419, zh-TW for zh-Hant).
        let script = request.likelyScript
        let ea = a.isRepresentative(script: script)
        let eb = b.isRepresentative(script: script)
        if ea != eb { return ea }
        // Then the lower region code, two letters before three digits.
        let ca = a.region ?? ""
        let cb = b.region ?? ""
        let aDigits = ca.first?.isNumber ?? false
        let bDigits = cb.first?.isNumber ?? false
        if aDigits != bDigits { return !aDigits }
        return ca < cb
    }

    /// A region and its ancestors, nearest first, ending with nil: the language alone.
    static func lineage(_ region: String?, language: String) -> [String?] {
        guard let region else { return [nil] }
        return [region] + chain(AndroidLocale(language: language, region: region)) + [nil]
    }

    /// `findDistance`: steps from `region` up to the first of the request's `ancestors`, plus
    /// that ancestor's steps from the request.
    static func distance(_ region: String?, language: String, to ancestors: [String?]) -> Int {
        for (up, r) in lineage(region, language: language).enumerated() {
            if let i = ancestors.firstIndex(of: r) { return up + i }
        }
        return .max
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
            "AG AI AU BB BM BS BW BZ CA CC CK CM CX CY DG DM ER FJ FK FM GB GD GG GH GI GM GY HK IE IL IM IN IO JE JM KE KI KN KY LC LR LS MG MO MS MT MU MV MW MY NA NF NG NR NU NZ PG PH PK PN PW RW SB SC SD SG SH SL SS SX SZ TC TK TO TT TV TZ UG VC VG VU WS ZA ZM ZW"
        for r in international.split(separator: " ") { p["en-\(r)"] = "en-001" }
        for r in "AO CH CV GQ GW LU MO MZ ST TL".split(separator: " ") { p["pt-\(r)"] = "pt-PT" }
        return p
    }()
}
