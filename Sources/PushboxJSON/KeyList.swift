/// A fixed list of keys that objects are read by, told apart as `JSONObject.sameKey` tells
/// them: what a rule that checks many keys of one object reads in one pass over its entries,
/// where a lookup per key scanned them all each time and a `Set` hashed every key it was asked
/// about.
public struct KeyList: Sendable {
    /// The keys, in the order `find(in:)` numbers them.
    public let keys: [String]
    /// Each key's UTF-8 length, beside it: most keys of another length are told apart there.
    private let lengths: [Int]

    /// A list of these keys (each once).
    public init(_ keys: [String]) {
        self.keys = keys
        lengths = keys.map(\.utf8.count)
    }

    /// Where `key` is in the list; nil when it is not one of them.
    public func index(of key: String) -> Int? {
        let length = key.utf8.count
        for i in lengths.indices where lengths[i] == length && keys[i] == key { return i }
        return nil
    }

    /// Whether `key` is one of them.
    public func contains(_ key: String) -> Bool { index(of: key) != nil }

    /// Where each key is among `object`'s entries (the last one when a key repeats, as
    /// `JSONObject`'s subscript finds it).
    public func find(in object: JSONObject) -> Found {
        var positions = [Int](repeating: -1, count: keys.count)
        for (position, entry) in object.entries.enumerated() {
            if let i = index(of: entry.key) { positions[i] = position }
        }
        return Found(object: object, positions: positions)
    }

    /// The keys of a list found in one object.
    public struct Found {
        let object: JSONObject
        let positions: [Int]

        /// The value of the list's `i`th key; nil when the object does not have it.
        public subscript(_ i: Int) -> JSONValue? {
            let position = positions[i]
            // `.none`: a bare nil would be JSON's null, JSONValue being a nil literal itself.
            if position < 0 { return .none }
            return object.entries[position].value
        }
    }
}
