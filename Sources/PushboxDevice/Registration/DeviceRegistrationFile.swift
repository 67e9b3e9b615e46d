import Foundation
import PushboxJSON
import PushboxPayload

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
    public func record(app: String?, languages: [String], apnsEnvironment: APNsEnvironment? = nil) throws(FileWriteError) {
        let now = current()
        guard now.app != app || now.languages != languages || (apnsEnvironment != nil && now.apnsEnvironment != apnsEnvironment) else { return }
        _ = try update {
            $0.app = app
            $0.languages = languages
            if let apnsEnvironment { $0.apnsEnvironment = apnsEnvironment }
        }
    }
}
