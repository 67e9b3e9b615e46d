import Foundation
import PushboxCore
import PushboxIntake
import PushboxStore
import PushboxText

/// `pushbox device`: the simulated device's tokens and its app's registration — installed or
/// uninstalled, and tokens made unregistered — which a running pushbox applies from the next push.
enum DeviceCommand {
    static let spec = CommandSpec(
        name: "device",
        summary:
            "The simulated device: print its APNs device token, its FCM registration token and its state; or change it: offline (the push service answers as usual and keeps what it accepted: APNs the latest per app, FCM per ttl and collapse key), online (what was kept is delivered from storage, or discarded as expired), uninstall (APNs answers 410 Unregistered, FCM 404 UNREGISTERED), install, unregister TOKEN, register TOKEN. A running pushbox applies the change from its next push.",
        operands: "[online|offline|install|uninstall|unregister TOKEN|register TOKEN]",
        options: [Options.database, Options.json.with(help: "Print the state as one JSON object.")],
        run: run)

    /// The token a file or test names when it gives none: this device's APNs token.
    static let apnsToken = IntakeOptions.defaultDeviceToken
    /// This device's FCM registration token (of FCM's form: instance id, `:`, a long id).
    static let fcmToken = "pushboxDevice0000000A:APA91b" + String(repeating: "pushboxSimulatedDevice", count: 6)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let database = args.value(Options.database) ?? InboxStore.defaultPath(environment: io.environment)
        let file = DeviceRegistrationFile(databasePath: database)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var registration = file.current()
        let operands = args.operands
        if let action = operands.first {
            let change: (inout DeviceRegistration) -> Void
            switch (action, operands.count) {
            case ("offline", 1): change = { if $0.online { $0.offlineSince = now } }
            case ("online", 1): change = { $0.offlineSince = nil }
            case ("uninstall", 1): change = { if $0.installed { $0.uninstalledAt = now } }
            case ("install", 1): change = { $0.uninstalledAt = nil }
            case ("unregister", 2): change = { $0.unregistered[operands[1]] = $0.unregistered[operands[1]] ?? now }
            case ("register", 2): change = { $0.unregistered[operands[1]] = nil }
            default:
                io.err("pushbox device: give online, offline, install, uninstall, unregister TOKEN or register TOKEN; see pushbox device --help")
                return 2
            }
            do { registration = try file.update(change) } catch {
                io.err("pushbox device: \(error)")
                return 1
            }
            if action == "online" {
                do {
                    let changed = try InboxStore(path: database).deliverStored(at: Date(timeIntervalSince1970: Double(now) / 1000))
                    let delivered = changed.values.filter { $0.state == .deliveredFromStorage }.count
                    if !args.flag(Options.json) {
                        io.out("delivered from storage  \(delivered)")
                        io.out("discarded — expired     \(changed.count - delivered)")
                    }
                } catch {
                    io.err("pushbox device: \(error)")
                    return 1
                }
            }
        }
        let dates = ISO8601DateFormatter()
        func date(_ ms: Int64) -> String { dates.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)) }
        if args.flag(Options.json) {
            var object = registration.json.objectValue ?? JSONObject()
            object["apnsToken"] = .string(apnsToken)
            object["fcmToken"] = .string(fcmToken)
            io.out(JSONWriter.compact(.object(object)))
            return 0
        }
        io.out("APNs device token       \(apnsToken)")
        io.out("FCM registration token  \(fcmToken)")
        io.out(
            "device                  "
                + (registration.offlineSince.map {
                    "offline since \(date($0)): the push service keeps what it accepts (pushbox device online delivers it)"
                } ?? "online"))
        io.out(
            "app                     "
                + (registration.uninstalledAt.map { "uninstalled at \(date($0)): APNs answers 410 Unregistered, FCM 404 UNREGISTERED" } ?? "installed")
        )
        for (token, at) in registration.unregistered.sorted(by: { $0.key < $1.key }) {
            io.out("unregistered            \(TerminalText.sanitize(token)) since \(date(at))")
        }
        return 0
    }
}
