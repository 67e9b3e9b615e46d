import CICUWrap
import Foundation

/// Apple's own choice of localizations for a device's preferred languages:
/// `ualoc_localizationsToUse` from Apple's ICU, which CFBundle calls on Apple's systems and the
/// Swift toolchain's ICU exports — its alias map (`English`, `no`), deprecated codes (`iw`, `in`,
/// `ji`), parent chains (`en-IN` → `en-GB`, `es-MX` → `es-419`) and region distances (`es` →
/// `es-ES`, not `es-419`), all as a device applies them.
enum AppleLocalizationChoice {
    /// The localizations to use for `preferred`, best first then its fallbacks: those of the first
    /// preferred language that matches any of `available` (names as given); empty when none does.
    static func localizationsToUse(preferred: [String], available: [String]) -> [String] {
        guard !preferred.isEmpty, !available.isEmpty else { return [] }
        var chosen = [Int32](repeating: 0, count: min(64, available.count))
        let count = withCStrings(preferred) { p in
            withCStrings(available) { a in
                pb_localizations_to_use(p, Int32(preferred.count), a, Int32(available.count), &chosen, Int32(chosen.count))
            }
        }
        guard count > 0 else { return [] }
        return chosen.prefix(Int(count)).map { available[Int($0)] }
    }

    /// Calls `body` with the strings as a C array of NUL-terminated UTF-8 strings.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { for c in copies { free(c) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
