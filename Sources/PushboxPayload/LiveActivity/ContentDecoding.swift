import Foundation
import PushboxJSON

/// Why Swift's default `JSONDecoder` would not decode a value into the app's type: the
/// `DecodingError` case it throws, where, and the Swift type expected.
public struct DecodingFailure: Error, Sendable, Equatable {
    /// `DecodingError`'s case.
    public enum Kind: String, Sendable {
        /// A non-optional field is missing (`keyNotFound`).
        case keyNotFound = "key-not-found"
        /// A non-optional field is `null` (`valueNotFound`).
        case valueNotFound = "value-not-found"
        /// The JSON has another type (`typeMismatch`).
        case typeMismatch = "type-mismatch"
        /// A number that does not fit the type (`dataCorrupted`).
        case numberDoesNotFit = "number-does-not-fit"
        /// A raw value no case has (`dataCorrupted`).
        case invalidEnumValue = "invalid-enum-value"
        /// A date string not in the strategy's form (`dataCorrupted`).
        case badDate = "bad-date"
    }

    public var kind: Kind
    /// The coding path as a user writes it: `state.eta`, `state.stops[2]`.
    public var path: String
    /// The Swift type expected.
    public var expected: String
    /// What the JSON had (`String`, `null`, `1.5`).
    public var found: String

    /// The sentence the trace shows: "decoding fails at `state.eta`: expected Double, found String".
    public var message: String {
        switch kind {
        case .keyNotFound: return "decoding fails at `\(path)`: the key is missing and \(expected) is not optional"
        case .valueNotFound: return "decoding fails at `\(path)`: expected \(expected), found null"
        case .typeMismatch: return "decoding fails at `\(path)`: expected \(expected), found \(found)"
        case .numberDoesNotFit: return "decoding fails at `\(path)`: the number \(found) does not fit in \(expected)"
        case .invalidEnumValue: return "decoding fails at `\(path)`: \(found) is not a raw value of \(expected)"
        case .badDate: return "decoding fails at `\(path)`: \(found) is not a date as \(expected) reads it"
        }
    }
}

/// A value decoded as the app's type would hold it: what `JSONEncoder` writes back (the
/// fields the type has, in its order; extra keys gone), and the dates it read, for display.
public struct DecodedContent: Sendable, Equatable {
    /// The value re-encoded.
    public var encoded: JSONValue
    /// Each `Date` field's path and the date it decoded to.
    public var dates: [(path: String, date: Date)]

    public static func == (a: DecodedContent, b: DecodedContent) -> Bool {
        a.encoded == b.encoded && a.dates.map(\.path) == b.dates.map(\.path) && a.dates.map(\.date) == b.dates.map(\.date)
    }
}

/// Decodes JSON against a schema the way Swift's default `JSONDecoder` decodes a `Decodable`
/// struct with synthesized conformance (Foundation is the oracle: `ContentDecodingOracleTests`).
public enum ContentDecoder {
    /// `value` decoded as `type`, its path starting at `root` (`state`, `attributes`).
    public static func decode(_ value: JSONValue, as type: SchemaType, root: String, dates: DateDecoding) -> Result<
        DecodedContent, DecodingFailure
    > {
        var found: [(String, Date)] = []
        do throws(DecodingFailure) {
            let encoded = try decode(value, type, path: root, dates: dates, into: &found)
            return .success(DecodedContent(encoded: encoded ?? .null, dates: found.map { (path: $0.0, date: $0.1) }))
        } catch { return .failure(error) }
    }

    private static func decode(_ value: JSONValue?, _ type: SchemaType, path: String, dates: DateDecoding, into found: inout [(String, Date)])
        throws(DecodingFailure) -> JSONValue?
    {
        if case .optional(let inner) = type {
            guard let value, value != .null else { return nil }
            return try decode(value, inner, path: path, dates: dates, into: &found)
        }
        guard let value else { throw DecodingFailure(kind: .keyNotFound, path: path, expected: type.swiftName, found: "nothing") }
        if value == .null { throw DecodingFailure(kind: .valueNotFound, path: path, expected: type.swiftName, found: "null") }
        func mismatch() -> DecodingFailure { DecodingFailure(kind: .typeMismatch, path: path, expected: type.swiftName, found: name(of: value)) }
        switch type {
        case .optional: return nil
        case .string:
            guard case .string = value else { throw mismatch() }
            return value
        case .bool:
            guard case .bool = value else { throw mismatch() }
            return value
        case .int:
            guard case .number(let text) = value else { throw mismatch() }
            guard let i = integer(text) else { throw DecodingFailure(kind: .numberDoesNotFit, path: path, expected: "Int", found: text) }
            return .number(String(i))
        case .double:
            guard case .number(let text) = value else { throw mismatch() }
            guard let d = double(text) else { throw DecodingFailure(kind: .numberDoesNotFit, path: path, expected: "Double", found: text) }
            return .number(shortest(d))
        case .date:
            let date = try decodeDate(value, path: path, dates: dates)
            found.append((path, date))
            return value
        case .enumeration(let raw):
            let isString = raw.first?.stringValue != nil
            switch value {
            case .string where isString, .number where !isString: break
            default:
                throw DecodingFailure(kind: .typeMismatch, path: path, expected: isString ? "String" : "Int", found: name(of: value))
            }
            if !isString, case .number(let text) = value, integer(text) == nil {
                throw DecodingFailure(kind: .numberDoesNotFit, path: path, expected: "Int", found: text)
            }
            let matches = raw.contains { isString ? $0 == value : $0.intValue == value.intValue }
            guard matches else {
                let shown = value.stringValue ?? (value.intValue.map(String.init) ?? "")
                throw DecodingFailure(kind: .invalidEnumValue, path: path, expected: type.swiftName, found: shown)
            }
            return value
        case .array(let element):
            guard let items = value.arrayValue else {
                throw DecodingFailure(kind: .typeMismatch, path: path, expected: "an array", found: name(of: value))
            }
            var out: [JSONValue] = []
            for (i, item) in items.enumerated() {
                // An element that decodes to nil (optional elements) is written back as null.
                out.append(try decode(item, element, path: "\(path)[\(i)]", dates: dates, into: &found) ?? .null)
            }
            return .array(out)
        case .structure(let fields):
            guard let object = value.objectValue else {
                throw DecodingFailure(kind: .typeMismatch, path: path, expected: "an object", found: name(of: value))
            }
            var out = JSONObject()
            for field in fields {
                // Synthesized `encode(to:)` leaves out a nil optional (`encodeIfPresent`).
                if let v = try decode(object[field.name], field.type, path: path + "." + field.name, dates: dates, into: &found) {
                    out[field.name] = v
                }
            }
            return .object(out)
        }
    }

    /// The JSON type as Swift's messages name it.
    static func name(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "Bool"
        case .number(let text): return "number \(text)"
        case .string: return "String"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The literal as an `Int`: any number with an integral value within `Int`'s range (`1.0`
    /// and `1e2` decode, `1.5` and `9223372036854775808` do not).
    static func integer(_ text: String) -> Int? {
        if let i = Int(text) { return i }
        if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let d = Double(text), d.isFinite, d.rounded() == d,
            d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0
        {
            return Int(d)
        }
        return nil
    }

    /// The literal as a `Double`: nil when it overflows or underflows to zero (`1e400`,
    /// `1e-400`), which Foundation's parser refuses.
    static func double(_ text: String) -> Double? {
        guard let d = Double(text), d.isFinite else { return nil }
        if d == 0, text.contains(where: { ("1"..."9").contains($0) }) {
            // A literal whose digits are not all zero, read as zero, underflowed.
            let mantissa = text.split(whereSeparator: { $0 == "e" || $0 == "E" }).first ?? ""
            if mantissa.contains(where: { ("1"..."9").contains($0) }) { return nil }
        }
        return d
    }

    /// A Double as `JSONEncoder` writes it now: the shortest text that reads back the same.
    public static func shortest(_ d: Double) -> String {
        if d.rounded() == d, abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    /// The date a value decodes to with `dates`.
    static func decodeDate(_ value: JSONValue, path: String, dates: DateDecoding) throws(DecodingFailure) -> Date {
        let expected = "Date (\(dates.rawValue))"
        if dates == .iso8601 {
            guard let s = value.stringValue else {
                throw DecodingFailure(kind: .typeMismatch, path: path, expected: "String (\(dates.rawValue) dates)", found: name(of: value))
            }
            guard let date = parseISO8601(s) else { throw DecodingFailure(kind: .badDate, path: path, expected: expected, found: "\"\(s)\"") }
            return date
        }
        guard case .number(let text) = value else {
            throw DecodingFailure(kind: .typeMismatch, path: path, expected: "Double (\(dates.rawValue) dates)", found: name(of: value))
        }
        guard let d = double(text) else { throw DecodingFailure(kind: .numberDoesNotFit, path: path, expected: "Double", found: text) }
        switch dates {
        case .deferredToDate: return Date(timeIntervalSinceReferenceDate: d)
        case .secondsSince1970: return Date(timeIntervalSince1970: d)
        case .millisecondsSince1970: return Date(timeIntervalSince1970: d / 1000)
        case .iso8601: return Date(timeIntervalSince1970: d)
        }
    }

    /// An ISO 8601 date and time with a zone, as Foundation's `.iso8601` strategy takes it
    /// (fractional seconds allowed).
    static func parseISO8601(_ s: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let d = plain.date(from: s) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: s)
    }
}
