import CICUWrap
import Foundation

// @unchecked: the ICU handle is used only with `lock` held; PluralThreadsTests shares one per language across 8 threads.
/// ICU's cardinal plural rules for one locale (through the CICUWrap shim).
public final class PluralRules: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer?
    private let lock = NSLock()
    /// The ICU locale the rules are for.
    public let locale: String

    private init(locale: String) {
        self.locale = locale
        handle = pb_plural_open(ICULocale.identifier(for: locale))
    }

    deinit { pb_plural_close(handle) }

    private static let cache = LockedCache<String, PluralRules>()

    /// The rules for a language tag (cached: ICU's open is costly).
    public static func forLanguage(_ tag: String) -> PluralRules {
        cache.value(for: tag) { PluralRules(locale: tag) }
    }

    /// The category CLDR gives `n` in this locale; `other` if ICU cannot say.
    public func category(for n: Double) -> PluralCategory {
        guard let handle else { return .other }
        var buf = [CChar](repeating: 0, count: 16)
        lock.lock()
        let length = pb_plural_select(handle, n, &buf, 16)
        lock.unlock()
        guard length > 0 else { return .other }
        return PluralCategory(rawValue: String(decoding: buf.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? .other
    }

    /// The category for a count as written in a loc-arg: CLDR's operands see its visible
    /// fraction digits ("1" is `one` in English, "1.0" and "1.5" are `other`).
    public func category(forArgument text: String) -> PluralCategory {
        guard let handle, let decimal = DecimalText(text) else { return category(for: Double(text) ?? 0) }
        var buf = [CChar](repeating: 0, count: 16)
        lock.lock()
        let length = pb_plural_select_decimal(handle, decimal.text, Int32(decimal.fractionDigits), &buf, 16)
        lock.unlock()
        guard length > 0 else { return category(for: Double(text) ?? 0) }
        return PluralCategory(rawValue: String(decoding: buf.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? .other
    }

    /// Every category the locale's rules use, in CLDR order.
    public var categories: [PluralCategory] {
        guard let handle else { return [.other] }
        var buf = [CChar](repeating: 0, count: 64)
        lock.lock()
        let length = pb_plural_keywords(handle, &buf, 64)
        lock.unlock()
        guard length > 0 else { return [.other] }
        let words = String(decoding: buf.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
        return words.compactMap { PluralCategory(rawValue: String($0)) }.sorted()
    }
}
