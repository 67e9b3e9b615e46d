import Foundation
import PushboxDevice
import PushboxPayload
import PushboxStore

/// The device back online: the inbox's offline store delivered or discarded, the Live Activity
/// pushes it kept applied to the device's activities (the store and the device together, so it
/// belongs to the inbox, not to either).
extension DeviceRegistrationFile {
    /// What bringing the device back online did: its registration, and the notifications the
    /// push service had kept, each now delivered from storage or discarded.
    public struct BackOnline: Sendable {
        /// The registration as written.
        public var registration: DeviceRegistration
        /// Where each kept notification now stands.
        public var changed: [Int64: DeliveryRecord]
        /// How many were delivered from storage.
        public var delivered: Int { changed.values.filter { $0.state == .deliveredFromStorage }.count }
        /// How many were discarded, their expiration past.
        public var discarded: Int { changed.count - delivered }
        /// The Live Activity pushes delivered from storage, in arrival order, each row with what
        /// the device did with it (`liveActivity`).
        public var liveActivities: [StoredNotification] = []
    }

    /// Brings the device back online at `now` (`pushbox device online`, `O` in the inbox): what
    /// `store` kept while it was offline is delivered from storage, or discarded as expired; a Live
    /// Activity push delivered is applied to `activities` then, and its outcome kept with its row.
    /// `device`: an added device of the fleet (`activities` then its own).
    public func comeOnline(at now: Date, store: InboxStore, activities: LiveActivityDevice? = nil, device: String? = nil) throws -> BackOnline {
        let member = device == FleetDevice.defaultName ? nil : device
        let registration =
            try member.map { name throws(FileWriteError) in try update(device: name) { $0.state.offlineSince = nil } }
            ?? update { $0.offlineSince = nil }
        var back = BackOnline(registration: registration, changed: try store.deliverStored(at: now, device: member))
        guard let activities else { return back }
        // In arrival order, as the device receives them.
        for (id, record) in back.changed.sorted(by: { $0.key < $1.key }) where record.state == .deliveredFromStorage {
            guard let row = try store.notification(id: id), let validated = Validator.validate(row.rawPayload).validated,
                validated.pushType == .liveactivity
            else { continue }
            let outcome = activities.apply(validated, deviceToken: row.deviceToken, apnsID: row.apnsID)
            try store.keepLiveActivity(outcome, id: id)
            var applied = row
            applied.liveActivity = outcome
            back.liveActivities.append(applied)
        }
        return back
    }
}
