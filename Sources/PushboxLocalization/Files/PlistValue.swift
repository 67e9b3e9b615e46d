import Foundation

/// A property-list value from any of the three forms (old-style text, XML, binary).
public indirect enum PlistValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case date(Double)
    case data([UInt8])
    case array([PlistValue])
    case dict([String: PlistValue])

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The dictionary, when this is one.
    public var dictValue: [String: PlistValue]? {
        if case .dict(let d) = self { return d }
        return nil
    }

    /// The value's type in words (`array`, `integer`), for notes.
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dict: return "dictionary"
        }
    }
}
