import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore

/// The intake as `serve` starts it, and `exec` when no pushbox is running: the store, the
/// renderings for the device, the service with its registration file, the scheduler with its
/// schedule files, then the listeners. `stop()` ends it in the reverse order.
struct RunningIntake {
    let server: IntakeServer
    let store: InboxStore
    let scheduler: LocalScheduler
    /// The app's profile (`pushbox.json`), when the device runs one.
    let profile: AppProfile?

    /// Starts it. `command` names it in messages; `accessLog` hears every answer; `configure`
    /// sets the listeners on options that hold the socket path.
    static func start(
        _ args: ParsedArguments, _ io: CommandIO, command: String, accessLog: (IntakeService) -> (@Sendable (RequestRecord) -> Void)?,
        configure: (inout IntakeServer.Options, AppProfile?) throws(UsageError) -> Void
    ) throws(UsageError) -> RunningIntake {
        let clock = try ClockOptions.clock(args)
        let store = try IntakeOptions.openStore(args, io)
        let (renderings, device) = try IntakeOptions.renderings(args, store: store, io: io)
        let service = IntakeService(store: store, context: device.validationContext, renderings: renderings)
        if let problem = device.attach(to: service, registration: DeviceRegistrationFile(databasePath: store.path), clock: clock) {
            io.err("pushbox \(command): the device was not recorded: \(problem)")
        }
        // What the intake's threads have to say on stderr.
        let say: @Sendable (String) -> Void = { message in FileHandle.standardError.write(Data("pushbox \(command): \(message)\n".utf8)) }
        // The sender only sees InternalServerError; this is where its reason is said.
        service.onStoreFailure = { result in say("apns-id \(result.apnsID) answered 500: \(result.detail ?? "")") }
        let log = accessLog(service)
        var options = IntakeServer.Options(socketPath: IntakeOptions.socketPath(args, io))
        try configure(&options, device.profile)
        // The scheduler and its schedule file are ready before the first request can arrive.
        let scheduler = LocalScheduler(service: service, clock: clock)
        if let refusal = LocalStartup.load(args, into: scheduler) { io.err("pushbox \(command): \(refusal)") }
        let server: IntakeServer
        do {
            server = try IntakeServer(service: service, options: options, scheduler: scheduler, onWatchEnded: say, accessLog: log)
        } catch { throw UsageError(message: "\(error)") }
        scheduler.start()
        return RunningIntake(server: server, store: store, scheduler: scheduler, profile: device.profile)
    }

    /// Stops the scheduler and the listeners, and waits for what was taken in to be processed.
    func stop() {
        scheduler.stop()
        server.stop()
        server.service.drain()
    }
}
