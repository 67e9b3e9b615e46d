import PushboxJSON
import PushboxSystem

/// The compact JSON text of the last value written, kept for the next row: rows in a burst
/// repeat the same arrival and presentation, and writing their JSON anew was a few thousand
/// instructions a push.
final class LastJSON<Value: Equatable & Sendable>: Sendable {
    private let last = Locked<(value: Value, text: String)?>(nil)

    /// The compact text of `json`, the JSON of `value`: the last one's when `value` is the same.
    func text(of value: Value, _ json: @autoclosure () -> JSONValue) -> String {
        if let kept = last.withLock({ $0 }), kept.value == value { return kept.text }
        let text = JSONWriter.compact(json())
        last.withLock { $0 = (value, text) }
        return text
    }
}
