import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore

/// What every intake command reads from its options: the socket path, the store, the provider
/// topic, and the renderings built from them.
enum IntakeOptions {
    /// A provider always sends its topic: `send` and `replay` add one when a payload has none.
    static let providerOptions = [
        Options.topic,
        Options.app.with(help: "The app whose bundle id is the default topic. Default: the running pushbox's app (asked over its socket)."),
    ]

    /// The topic a provider would send: `--topic`, else the app's bundle id.
    static func providerTopic(_ args: ParsedArguments, _ io: CommandIO) throws(UsageError) -> String? {
        if let topic = args.value(Options.topic) { return topic }
        return try Device.from(args, defaultApp: true, inbox: true, io: io).profile?.bundleID
    }

    /// The device token used when a file names none (the simulated device's).
    static let defaultDeviceToken = DeviceIdentity.apnsToken

    static func socketPath(_ args: ParsedArguments, _ io: CommandIO) -> String {
        args.value(Options.socket) ?? Listeners.defaultSocketPath(environment: io.environment)
    }

    /// The inbox of `--db` (or the default one). `existing`: a `--db` that names no file is an
    /// error (`list`, `replay`, `export` read an inbox; a mistyped path must not make an empty one).
    static func openStore(_ args: ParsedArguments, _ io: CommandIO, existing: Bool = false) throws(UsageError) -> InboxStore {
        let path = args.value(Options.database) ?? InboxStore.defaultPath(environment: io.environment)
        if existing, args.value(Options.database) != nil, !FileManager.default.fileExists(atPath: path) {
            throw UsageError(message: "no inbox at \(path); check --db (pushbox serve or pushbox make one there)")
        }
        do { return try InboxStore(path: path) } catch { throw UsageError(message: "\(error)") }  // it names the file
    }

    /// The owner of renderings for the device the options describe (the same device, app and
    /// extension setup as `render`), and the device (its app profile read once).
    static func renderings(_ args: ParsedArguments, store: InboxStore, io: CommandIO) throws(UsageError) -> (Renderings, Device) {
        let device = try Device.from(args, defaultApp: true, inbox: true, io: io)
        let renderings = Renderings(base: try device.renderer(args, io: io), store: store)
        // A notification delivered to another device of the fleet is shown in that device's languages.
        let file = DeviceRegistrationFile(databasePath: store.path)
        let languages = device.languages
        renderings.languages(ofDevice: { name in file.languages(ofDevice: name, otherwise: languages) })
        return (renderings, device)
    }
}
