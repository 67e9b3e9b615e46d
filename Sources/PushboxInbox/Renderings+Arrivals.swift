import Foundation
import PushboxPayload
import PushboxStore

/// An arrival as the inbox lists it: the row as stored and its rendering for the device's
/// languages, made before it is handed on, so nobody asks for it again.
public struct RenderedArrival: Sendable {
    /// The row as the intake stored it (with what the inbox lists of it).
    public var stored: StoredNotification
    /// Its rendering for `languageKey`; nil when it could not be rendered (the row is gone).
    public var rendering: RenderedNotification?
    /// The language list it was rendered for (`RenderKey.languageKey`).
    public var languageKey: String
}

extension Renderings {
    /// Calls `listener` with every burst of arrivals, each with its rendering for the languages
    /// rendered ahead, in arrival order, no later than `maxWait` after it arrived. Set it before
    /// the intake starts, so none is missed.
    public func onArrived(_ listener: @escaping @Sendable ([RenderedArrival]) -> Void) {
        arrivalListeners.withLock { $0.append(listener) }
    }

    /// How long an arrival waits for its rendering at most while somebody listens for arrivals
    /// (the inbox folds arrivals in five times a second), however busy the intake is.
    public static let maxWait: Duration = .milliseconds(200)

    /// Hands these arrivals to the arrival listeners, each with its rendering: the one just
    /// made, else the one another reader made meanwhile (waited for, or read from the store).
    /// Threads render batches side by side: one whose arrivals came later waits in `ready`
    /// until those before it were handed on.
    func publish(_ rows: [(place: Int, row: StoredNotification)], made: [Int64: RenderedNotification], languages: [String]) {
        guard !rows.isEmpty else { return }
        let rendered = rows.map { r in
            // An arrival of another device of the fleet is handed on in that device's languages.
            let own = self.languages(of: r.row) ?? languages
            return (
                r.place,
                RenderedArrival(
                    stored: r.row, rendering: (own == languages ? made[r.row.id] : nil) ?? rendering(id: r.row.id, languages: own, row: r.row),
                    languageKey: RenderKey.languageKey(own))
            )
        }
        handingOn.lock()
        defer { handingOn.unlock() }
        let inOrder = state.withLock { state in
            for (place, arrival) in rendered { state.ready[place] = arrival }
            var inOrder: [RenderedArrival] = []
            while let next = state.ready.removeValue(forKey: state.nextToPublish) {
                inOrder.append(next)
                state.nextToPublish += 1
            }
            return inOrder
        }
        guard !inOrder.isEmpty else { return }
        for listener in arrivalListeners.withLock({ $0 }) { listener(inOrder) }
    }
}
