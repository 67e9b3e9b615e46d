import Foundation
import PushboxPayload

/// What adding or removing a device of the fleet did.
public enum FleetEdit: Sendable, Equatable {
    /// Done.
    case done
    /// A device of that name exists already (adding), or none does (removing).
    case nameTaken, noSuchDevice
    /// The default device is every inbox's: it cannot be added again or removed.
    case defaultDevice
}

extension DeviceRegistrationFile {
    /// Adds `device` to the fleet kept with the inbox, unless its name is taken.
    public func add(_ device: FleetDevice) throws(FileWriteError) -> FleetEdit {
        var edit = FleetEdit.done
        _ = try update { registration in
            if device.name == FleetDevice.defaultName {
                edit = .defaultDevice
            } else if registration.device(named: device.name) != nil {
                edit = .nameTaken
            } else {
                registration.devices.append(device)
            }
        }
        return edit
    }

    /// Removes the device named `name` (what it received stays in the inbox, under its name).
    public func remove(_ name: String) throws(FileWriteError) -> FleetEdit {
        guard name != FleetDevice.defaultName else { return .defaultDevice }
        var edit = FleetEdit.done
        _ = try update { registration in
            let before = registration.devices.count
            registration.devices.removeAll { $0.name == name }
            if registration.devices.count == before { edit = .noSuchDevice }
        }
        return edit
    }

    /// Changes the added device named `name` (nothing when there is none); the registration as written.
    public func update(device name: String, _ change: (inout FleetDevice) -> Void) throws(FileWriteError) -> DeviceRegistration {
        try update { registration in
            if let i = registration.devices.firstIndex(where: { $0.name == name }) { change(&registration.devices[i]) }
        }
    }

    /// Makes `change` to the device named `name` at `now`: the default device's registration, or
    /// an added device's; the registration file as written.
    public func apply(_ change: DeviceChange, device name: String, baseTopics: Set<String> = [], at now: Date = Date()) throws(FileWriteError)
        -> DeviceRegistration
    {
        guard name != FleetDevice.defaultName else { return try apply(change, baseTopics: baseTopics, at: now) }
        let ms = Int64(now.timeIntervalSince1970 * 1000)
        return try update(device: name) { device in
            // An added device's languages are its own, not its registration's.
            if case .language(let tags) = change { device.languages = tags } else { change.apply(to: &device.state, baseTopics: baseTopics, at: ms) }
        }
    }
}
