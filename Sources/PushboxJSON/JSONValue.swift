/// A JSON value as pushbox reads it: objects keep their key order (and duplicates, so
/// that validation can flag them); numbers keep their literal text.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's literal text, exactly as sent (`10`, `1.0`, `-3e2`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value as a string when it is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value as a Double when it is a number.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The value as an Int when it is a number with an integral value.
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let i = Int(text) { return i }
        if let d = Double(text), d.rounded() == d, abs(d) < 9e15 { return Int(d) }
        return nil
    }

    /// The object, when this is one.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The JSON type's name as a user reads it in a message ("a string", "an object").
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object with its keys in the order sent. Lookup returns the last occurrence of a
/// key, which is what Foundation's parser (and so an iOS app) keeps.
public struct JSONObject: Sendable, Equatable {
    /// Key-value pairs in document order, repeated keys kept.
    public var entries: [(key: String, value: JSONValue)]

    /// An object with these entries, in this order.
    public init(_ entries: [(key: String, value: JSONValue)] = []) {
        self.entries = entries
    }

    /// Objects are equal when they hold the same keys and values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { sameKey($0.key, $1.key) && $0.value == $1.value }
    }

    /// Whether two keys are one key. Keys of different lengths in UTF-8 never are — as in
    /// Foundation's dictionaries (and so an iOS app), which compare code units: "é" and
    /// "e\u{301}" are two keys there. Comparing the lengths first is also what keeps lookups
    /// cheap (every push makes some fifty): String's `==` is a call into the runtime.
    /// (Concrete, not generic over `StringProtocol`: the generic `==` cost validation 2,700
    /// instructions a push more, by callgrind.)
    @inline(__always)
    public static func sameKey(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }

    /// `sameKey` for a key path's component.
    @inline(__always)
    static func sameKey(_ a: String, _ b: Substring) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }

    /// A key as a set tells it apart: by `sameKey`'s rule, its UTF-8 length beside the text.
    private struct KeyIdentity: Hashable {
        let key: String
        let length: Int

        init(_ key: String) {
            self.key = key
            length = key.utf8.count
        }
    }

    /// The value of `key` (the last one when a key repeats); setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            for entry in entries.reversed() where Self.sameKey(entry.key, key) { return entry.value }
            return nil
        }
        set {
            // Replace in place (keeping the key's position) or append a new key.
            guard let newValue else {
                entries.removeAll { Self.sameKey($0.key, key) }
                return
            }
            if let i = entries.lastIndex(where: { Self.sameKey($0.key, key) }) {
                entries[i].value = newValue
                entries = entries.enumerated().filter { $0.offset == i || !Self.sameKey($0.element.key, key) }.map(\.element)
            } else {
                entries.append((key, newValue))
            }
        }
    }

    /// The keys in order (repeats included).
    public var keys: [String] { entries.map(\.key) }
    /// Whether the object has no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// Keys that occur more than once, each named once, in order of first repetition.
    public var duplicateKeys: [String] {
        // Payload objects are small: comparing pairs beats hashing every key.
        guard entries.count > 1 else { return [] }
        var repeated: [String] = []
        if entries.count <= 16 {
            for i in 1..<entries.count {
                let key = entries[i].key
                if !repeated.contains(where: { Self.sameKey($0, key) }), entries[..<i].contains(where: { Self.sameKey($0.key, key) }) {
                    repeated.append(key)
                }
            }
            return repeated
        }
        var seen = Set<KeyIdentity>()
        var named = Set<KeyIdentity>()
        for entry in entries where !seen.insert(KeyIdentity(entry.key)).inserted && named.insert(KeyIdentity(entry.key)).inserted {
            repeated.append(entry.key)
        }
        return repeated
    }

    /// The value at a dotted key path such as `aps.data.subsMsgTitleKey`.
    /// Walks the path in place: the extension looks up several paths per payload, and splitting
    /// each into new strings was a sixth of a rendering's time. The dots are found among the
    /// UTF-8 bytes: looking for the Character "." walked the path grapheme by grapheme, 4,700
    /// instructions a lookup (a dot is a dot here even before a combining mark).
    public func value(atPath path: String) -> JSONValue? {
        var object = self
        var rest = path[...]
        while true {
            let dot = rest.utf8.firstIndex(of: UInt8(ascii: "."))
            let component = rest[..<(dot ?? rest.endIndex)]
            guard let next = object.entries.last(where: { Self.sameKey($0.key, component) })?.value else { return nil }
            guard let dot else { return next }
            guard case .object(let inner) = next else { return nil }
            object = inner
            rest = rest[rest.utf8.index(after: dot)...]
        }
    }
}
