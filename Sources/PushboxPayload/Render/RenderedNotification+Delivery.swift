import Foundation

extension RenderedNotification {
    /// The rendering as the device has it given where the notification stands in delivery: one
    /// still stored or discarded shows nothing (its texts move to `intended`) and its trace ends
    /// with the delivery log's words; one delivered from storage keeps its content and says so.
    /// A rendering is kept once per language; its delivery changes, so it is applied on reading.
    public func delivering(_ record: DeliveryRecord?, receivedAt: Date, now: Date) -> RenderedNotification {
        guard let record, record.state != .delivered, status == 200, delivered != .rejected else { return self }
        let state = record.state(at: now)
        let time = { (date: Date) in date.formatted(.iso8601) }
        var out = self
        if let until = record.expiresAt {
            out.trace.append(
                TraceEntry(
                    step: .deliver, ms: 0, outcome: .stored, cause: .deviceOffline,
                    detail:
                        "\(DeliveryState.stored.phrase): the push service keeps it until \(time(until)), or until a newer one for the same app or collapse key replaces it"
                ))
        }
        switch state {
        case .delivered, .stored:
            if state == .stored { out.withheld(.stored, because: DeliveryState.stored.phrase + " since \(time(receivedAt))") }
        case .deliveredFromStorage:
            out.trace.append(
                TraceEntry(
                    step: .deliver, ms: 0, outcome: .delivered, cause: .fromStorage,
                    detail: "\(state.phrase) at \(time(record.at)), when the device came back online"))
        case .discardedExpired:
            let why =
                record.expiresAt.map { "its expiration, \(time($0)), passed before the device came back online" }
                ?? "it was sent to be delivered now or never (apns-expiration 0, ttl 0s) while the device was offline"
            out.withheld(.discarded, because: "\(state.phrase): \(why)")
            out.trace.append(TraceEntry(step: .deliver, ms: 0, outcome: .discarded, cause: .expired, detail: out.detail ?? ""))
        case .discardedReplaced:
            out.withheld(
                .discarded, because: "\(state.phrase) at \(time(record.at)): a newer notification for the same app or collapse key took its place")
            out.trace.append(TraceEntry(step: .deliver, ms: 0, outcome: .discarded, cause: .replaced, detail: out.detail ?? ""))
        }
        return out
    }

    /// Shows nothing, keeping what it would have shown in `intended`.
    private mutating func withheld(_ delivery: Delivery, because detail: String) {
        intended = AlertContent(title: title, subtitle: subtitle, body: body)
        (title, subtitle, body) = (nil, nil, nil)
        delivered = delivery
        self.detail = detail
    }
}
