import PushboxDevice
import PushboxPayload

/// One device's share of a push in the fleet view: its card, or why it did not get it.
public struct FleetCell: Sendable {
    /// The device (`phone`, or a name from `pushbox device add`).
    public var device: String
    /// iPhone, Android phone, or the default device (which takes both).
    public var platform: DevicePlatform?
    /// Its preferred languages.
    public var languages: [String]
    /// What it shows (its languages' rendering); nil when it did not get the push.
    public var rendering: RenderedNotification?
    /// Where the push stands for it: delivered, kept while offline, or why it did not get it.
    public var state: String
    /// Whether it got the push (or will, from storage).
    public var reached: Bool
    /// The campaign's findings for it, in words (`duplicate`, `wrong language: …`).
    public var findings: [String]

    /// A cell.
    public init(
        device: String, platform: DevicePlatform?, languages: [String], rendering: RenderedNotification?, state: String, reached: Bool,
        findings: [String]
    ) {
        self.device = device
        self.platform = platform
        self.languages = languages
        self.rendering = rendering
        self.state = state
        self.reached = reached
        self.findings = findings
    }
}

/// The fleet view's content: one push (its request) across every device.
public struct FleetSummary: Sendable {
    /// The push, in a few words (its title or body as sent, to whom it was addressed).
    public var push: String
    /// One cell per device, the default device first.
    public var cells: [FleetCell]

    /// A summary.
    public init(push: String, cells: [FleetCell]) {
        self.push = push
        self.cells = cells
    }
}

extension InboxState {
    /// The devices the inbox shows one at a time: the default one, then those added.
    public var fleetNames: [String] { [FleetDevice.defaultName] + registration.devices.map(\.name) }

    /// Whether the inbox holds devices beside its own.
    public var hasFleet: Bool { !registration.devices.isEmpty }

    /// Shows the next (or previous) device of the fleet: its notifications, in its languages.
    mutating func stepDevice(_ step: Int) -> [Command] {
        let names = fleetNames
        let here = names.firstIndex(of: shownDevice) ?? 0
        return showDevice(names[((here + step) % names.count + names.count) % names.count])
    }

    /// Shows `name`'s notifications in its languages; the default device's languages are kept
    /// to come back to.
    mutating func showDevice(_ name: String) -> [Command] {
        guard name != shownDevice else { return [] }
        if shownDevice == FleetDevice.defaultName { ownLanguages = device.languages }
        shownDevice = name
        list.device = hasFleet ? name : nil
        let member = registration.device(named: name)
        device.languages = member?.languages ?? ownLanguages ?? device.languages
        if member == nil { ownLanguages = nil }
        appInstalled = member?.state.installed ?? registration.installed
        deviceOnline = member?.state.online ?? registration.online
        renders = [:]
        list.selected = 0
        card.pressedAction = nil
        status = .device(name, device.languages.first ?? "")
        return []
    }
}
