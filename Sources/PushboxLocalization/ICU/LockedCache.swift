import PushboxJSON
import PushboxSystem

/// A small thread-safe memo table.
final class LockedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let storage = Locked<[Key: Value]>([:])

    func value(for key: Key, make: () -> Value) -> Value {
        storage.withLock { table in
            if let v = table[key] { return v }
            let v = make()
            table[key] = v
            return v
        }
    }
}
