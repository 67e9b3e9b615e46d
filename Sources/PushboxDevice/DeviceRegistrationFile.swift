import Foundation
import PushboxCore
import PushboxStore
import PushboxText

/// The device's registration on disk, beside the inbox (`inbox.device.json` for
/// `inbox.sqlite`): `pushbox device` writes it, and a running pushbox reads it again whenever
/// it changed, so uninstalling the app takes effect on the next push.
public final class DeviceRegistrationFile: Sendable {
    private let file: DeviceStateFile<DeviceRegistration>
    /// The file.
    public var path: String { file.path }

    /// The registration file of the inbox at `databasePath`.
    public init(databasePath: String) {
        file = DeviceStateFile(
            path: DeviceStateFile<DeviceRegistration>.beside(databasePath, suffix: ".device.json"),
            decode: { $0.map(DeviceRegistration.init(json:)) ?? DeviceRegistration() }, encode: { $0.json })
    }

    /// The registration now: the cached one while the file is unchanged; the default (installed,
    /// every token valid) when there is no file or it cannot be read.
    public func current() -> DeviceRegistration { file.current() }

    /// Changes the registration under a lock and writes it whole (a new file renamed into place).
    /// Every change counts once in `changes`, so an open view knows the device changed.
    public func update(_ change: (inout DeviceRegistration) -> Void) throws(FileWriteError) -> DeviceRegistration {
        try file.update { registration in
            change(&registration)
            registration.changes += 1
        }.value
    }

    /// Records the app and languages a pushbox runs the device with (serve and the inbox at
    /// start, the language picker), so every command on this inbox sees the same device; the
    /// file is left alone when they are already the recorded ones.
    public func record(app: String?, languages: [String]) throws(FileWriteError) {
        let now = current()
        guard now.app != app || now.languages != languages else { return }
        _ = try update {
            $0.app = app
            $0.languages = languages
        }
    }
}

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
    public func comeOnline(at now: Date, store: InboxStore, activities: LiveActivityDevice? = nil) throws -> BackOnline {
        let registration = try update { $0.offlineSince = nil }
        var back = BackOnline(registration: registration, changed: try store.deliverStored(at: now))
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
