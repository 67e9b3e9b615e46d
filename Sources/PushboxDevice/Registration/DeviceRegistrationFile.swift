import Foundation
import PushboxJSON
import PushboxPayload
import PushboxSystem

/// The device's registration on disk, beside the inbox (`inbox.device.json` for
/// `inbox.sqlite`): `pushbox device` writes it, and a running pushbox reads it again whenever
/// it changed, so uninstalling the app takes effect on the next push.
public final class DeviceRegistrationFile: Sendable {
    private let file: DeviceStateFile<DeviceRegistration>
    /// The added devices' own languages by name, for the registration whose change count and
    /// size it was made from (`languages(ofDevice:otherwise:)`).
    private let languagesByName = Locked<(changes: Int, count: Int, map: [String: [String]?])?>(nil)
    /// The file.
    public var path: String { file.path }

    /// The registration file of the inbox at `databasePath`.
    public init(databasePath: String) {
        file = DeviceStateFile(
            path: DeviceStateFile<DeviceRegistration>.beside(databasePath, suffix: ".device.json"),
            decode: { $0.map(DeviceRegistration.init(json:)) ?? DeviceRegistration() }, encode: { $0.json })
    }

    /// The languages of the added device named `name` — its own, else `otherwise` (the default
    /// device's) —; nil when there is no such device. Asked once per row of a push that reached the
    /// whole fleet: looked up by name in a table made once per change of the file, not searched.
    public func languages(ofDevice name: String, otherwise: [String]) -> [String]? {
        let registration = current()
        guard !registration.devices.isEmpty else { return nil }
        let byName = languagesByName.withLock { cached -> [String: [String]?] in
            if let cached, cached.changes == registration.changes, cached.count == registration.devices.count { return cached.map }
            let map = Dictionary(registration.devices.map { ($0.name, $0.languages) }, uniquingKeysWith: { first, _ in first })
            cached = (registration.changes, registration.devices.count, map)
            return map
        }
        guard let languages = byName[name] else { return nil }
        return languages ?? otherwise
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
