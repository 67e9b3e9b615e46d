import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxStore

/// What a user does to an inbox and its device, whoever asks (the TUI's keys; the commands
/// share `DeviceChange` and `comeOnline`): each action changes the store, the device's files
/// and the running phone together, so every view and command sees the same device after it.
public struct InboxActions: Sendable {
    /// The inbox.
    public let store: InboxStore
    /// The intake, with the phone it judges on.
    public let service: IntakeService
    /// The owner of the renderings, told when the device's languages change.
    public let renderings: Renderings
    /// The device's registration, beside the inbox.
    public let registrationFile: DeviceRegistrationFile
    /// Local notifications and the device clock, when the intake keeps them.
    public let scheduler: LocalScheduler?
    /// The app folder the device runs, recorded with its languages.
    public let appFolder: String?

    /// The actions on this inbox and device.
    public init(
        store: InboxStore, service: IntakeService, renderings: Renderings, registrationFile: DeviceRegistrationFile,
        scheduler: LocalScheduler?, appFolder: String?
    ) {
        self.store = store
        self.service = service
        self.renderings = renderings
        self.registrationFile = registrationFile
        self.scheduler = scheduler
        self.appFolder = appFolder
    }

    /// Changes the device's registration (offline, install, uninstall, a token, a topic).
    public func change(_ change: DeviceChange, at now: Date = Date()) throws(FileWriteError) -> DeviceRegistration {
        try registrationFile.apply(change, baseTopics: service.phone.context.deviceTopics ?? [], at: now)
    }

    /// Changes the added device `name` (`change` nil: brings it back online, what the push
    /// service kept for it delivered from storage or discarded); the registration as written.
    public func changeFleetDevice(_ name: String, _ change: DeviceChange?, at now: Date = Date()) throws -> DeviceRegistrationFile.BackOnline {
        guard let change else {
            let activities = registrationFile.current().device(named: name).flatMap(service.phone.liveActivities(of:))
            return try registrationFile.comeOnline(at: now, store: store, activities: activities, device: name)
        }
        let base = registrationFile.current().device(named: name).map { service.phone.baseTopics(of: $0) } ?? []
        return DeviceRegistrationFile.BackOnline(
            registration: try registrationFile.apply(change, device: name, baseTopics: base, at: now), changed: [:])
    }

    /// Brings the device back online: what the inbox kept is delivered or discarded, kept Live
    /// Activity pushes are applied, and those are rendered again for `languages` (pushed to the
    /// renderings' listeners) with what the device did.
    public func comeOnline(at now: Date = Date(), languages: [String]) throws -> DeviceRegistrationFile.BackOnline {
        let back = try registrationFile.comeOnline(at: now, store: store, activities: service.phone.liveActivities)
        if !back.liveActivities.isEmpty { renderings.renderAgain(back.liveActivities, languages: languages) }
        return back
    }

    /// The device's languages changed (the language picker): rendered ahead from now on, the
    /// phone's language topic follows, and they are recorded with the inbox for every command.
    public func changeLanguages(to languages: [String], profileTopics: [String]) throws(FileWriteError) {
        renderings.renderAhead(for: languages)
        service.phone.deviceLanguagesChanged(to: languages, profileTopics: profileTopics)
        try registrationFile.record(app: appFolder, languages: languages)
    }

    /// Sends a stored notification in again, received now: a push as a replay, a local
    /// notification as one.
    public func replay(_ row: StoredNotification) -> IntakeResult {
        var raw = row.rawPayload
        raw.envelope.receivedAt = Date()
        if raw.envelope.source == .local { return service.receiveLocal(raw) }
        raw.envelope.source = .replay
        return service.receive(raw)
    }

    /// A stored push as a Simulator `.apns` file; nil for one the Simulator would not take
    /// (refused when it arrived, or a fired local notification).
    public func simulatorFile(_ row: StoredNotification) -> JSONObject? {
        Self.simulatorFile(row, bundleID: service.phone.context.bundleID)
    }

    /// A stored push as a Simulator `.apns` file for the app `bundleID` when it names no topic.
    public static func simulatorFile(_ row: StoredNotification, bundleID: String?) -> JSONObject? {
        guard row.source != .local, row.status == 200, let v = Validator.validate(row.rawPayload).validated else { return nil }
        return v.simulatorFile(fallbackBundleID: bundleID ?? "com.example.app")
    }

    /// Moves the device clock on by `seconds`, or to the next pending fire time (`nil`: nothing
    /// pending, the clock stays); the Live Activities file records the clock either way.
    @discardableResult
    public func moveClock(by seconds: Double?) -> Bool {
        defer { service.phone.liveActivities?.noteClock() }
        guard let scheduler else { return false }
        guard let seconds else { return scheduler.jumpToNext() != nil }
        scheduler.advance(by: seconds)
        return true
    }
}
