import CICUWrap
import Foundation

// @unchecked: the ICU handle is used only with `lock` held; PluralThreadsTests shares one per language across 8 threads.
/// ICU's decimal number formatting for one locale: grouping and the locale's digits, as
/// `String.localizedStringWithFormat` formats `%d` on a device.
public final class NumberFormatterICU: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer?
    private let lock = NSLock()

    private init(locale: String) {
        handle = pb_number_open(ICULocale.identifier(for: locale))
        localeID = ICULocale.identifier(for: locale)
    }

    deinit { pb_number_close(handle) }

    /// The locale id this formatter was opened for.
    private var localeID: String = ""
    var localeIDForDecimals: String { localeID }

    private static let cache = LockedCache<String, NumberFormatterICU>()

    /// The formatter of a language tag, made once per tag.
    public static func forLanguage(_ tag: String) -> NumberFormatterICU {
        cache.value(for: tag) { NumberFormatterICU(locale: tag) }
    }

    /// The number as the locale writes it, or nil if ICU fails.
    public func format(_ n: Double) -> String? {
        guard let handle else { return nil }
        var buf = [CChar](repeating: 0, count: 256)
        lock.lock()
        let length = pb_number_format(handle, n, &buf, 256)
        lock.unlock()
        guard length >= 0 else { return nil }
        return String(decoding: buf.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension NumberFormatterICU {
    /// A decimal as written ("1.5", "-0.25"), in the locale's digits and separators, keeping
    /// its fraction digits; nil if it is not a plain decimal or ICU fails.
    public func format(decimal text: String) -> String? {
        guard let decimal = DecimalText(text) else { return nil }
        var buf = [CChar](repeating: 0, count: 256)
        let length = pb_number_format_decimal(localeIDForDecimals, decimal.text, Int32(decimal.fractionDigits), &buf, 256)
        guard length >= 0 else { return nil }
        return String(decoding: buf.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A plain decimal as a loc-arg writes it: an optional sign, digits, an optional fraction.
struct DecimalText {
    let text: String
    let fractionDigits: Int

    init?(_ raw: String) {
        let t = raw.trimmingCharacters(in: .whitespaces)
        var body = Substring(t)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 30,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            parts.count == 1 || !parts[1].isEmpty
        else { return nil }
        text = t.hasPrefix("+") ? String(t.dropFirst()) : t
        fractionDigits = parts.count == 2 ? min(parts[1].count, 20) : 0
    }
}
