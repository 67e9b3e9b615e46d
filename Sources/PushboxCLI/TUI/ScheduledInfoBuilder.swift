import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxPayload
import PushboxUI

/// Builds the Scheduled view's model (`ScheduledInfo`, in PushboxUI) from the running scheduler's
/// snapshot: the adapter between the intake and the UI, so the UI never sees `LocalScheduler`.
enum ScheduledInfoBuilder {
    static func info(_ scheduler: LocalScheduler) -> ScheduledInfo {
        let snapshot = scheduler.snapshot()
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = scheduler.clock.timeZone
        f.dateFormat = "EEE MM-dd HH:mm:ss"
        return ScheduledInfo(
            clock: scheduler.clock.label, simulated: scheduler.clock.isSimulated,
            pending: snapshot.pending.map {
                .init(fire: f.string(from: $0.nextFire), identifier: $0.request.identifier, trigger: $0.request.trigger?.summary ?? "now")
            },
            limit: PendingSet.limit,
            dropped: (snapshot.dropped + snapshot.refused).map(\.description),
            delivered: snapshot.delivered)
    }
}
