import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering
import PushboxStore

/// The simulated device and app that `--app` and `--lang` describe.
struct Device {
    static let defaultLanguages = ["en-US"]

    var profile: AppProfile?
    var languages: [String]
    /// Whether `--app` or `--lang` described a device (else FCM targeting is not judged).
    var described = true
    /// `--fcm-tokens`, when given (else the profile's, else any).
    var fcmTokens: FCMTokenMode? = nil
    /// `--apns-tokens`, when given (else any).
    var apnsTokens: FCMTokenMode? = nil
    /// `--apns-environment`, when given (else the profile's, else development).
    var apnsEnvironment: APNsEnvironment? = nil

    /// Reads `--app` and `--lang`. A command that addresses an inbox (`inbox`) takes what they do
    /// not give from that inbox's device (the app and languages its pushbox last ran with, kept
    /// beside it), so every view and command sees one phone; then, with `defaultApp`, the bundled
    /// sample app, and en-US.
    static func from(_ args: ParsedArguments, defaultApp: Bool, inbox: Bool = false, io: CommandIO) throws(UsageError) -> Device {
        let kept = inbox ? Self.kept(args, io: io) : nil
        var device = try describedBy(args, defaultApp: defaultApp, kept: kept, io: io)
        if let mode = args.value(Options.fcmTokens) {
            guard let known = FCMTokenMode(rawValue: mode) else { throw UsageError(message: "--fcm-tokens is any or strict, not \(mode)") }
            device.fcmTokens = known
        }
        if let mode = args.value(Options.apnsTokens) {
            guard let known = FCMTokenMode(rawValue: mode) else { throw UsageError(message: "--apns-tokens is any or strict, not \(mode)") }
            device.apnsTokens = known
        }
        if let environment = args.value(Options.apnsEnvironment) {
            guard let known = APNsEnvironment(rawValue: environment) else {
                throw UsageError(message: "--apns-environment is development or production, not \(environment)")
            }
            device.apnsEnvironment = known
        }
        return device
    }

    /// The device kept beside the inbox of `--db` (or the default one); nil when there is none.
    static func kept(_ args: ParsedArguments, io: CommandIO) -> DeviceRegistration? {
        let database = args.value(Options.database) ?? InboxStore.defaultPath(environment: io.environment)
        let file = DeviceRegistrationFile(databasePath: database)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return file.current()
    }

    /// The device `--app` and `--lang` describe, the rest from `kept`.
    private static func describedBy(_ args: ParsedArguments, defaultApp: Bool, kept: DeviceRegistration?, io: CommandIO) throws(UsageError)
        -> Device
    {
        var languages = kept?.languages ?? Device.defaultLanguages
        if let list = args.value(Options.lang) {
            languages = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !languages.isEmpty else { throw UsageError(message: "--lang needs at least one language, e.g. --lang ko-KR,en") }
        }
        var directory = args.value(Options.app)
        if directory == nil, let app = kept?.app {
            if FileManager.default.fileExists(atPath: (app as NSString).appendingPathComponent(AppProfile.fileName)) {
                directory = app
            } else {
                io.err("pushbox: note: the inbox's app \(TerminalText.sanitize(app)) is gone; using the bundled sample app (pass --app DIR)")
            }
        }
        if directory == nil, defaultApp {
            directory = ResourceLocator.sampleAppDirectory(environment: io.environment)
            if directory == nil {
                io.err("pushbox: note: the bundled sample app was not found; rendering without an app (set PUSHBOX_SAMPLES or pass --app DIR)")
            }
        }
        guard let directory else {
            return Device(profile: nil, languages: languages, described: defaultApp || args.value(Options.lang) != nil || kept?.languages != nil)
        }
        do {
            return Device(profile: try AppProfile.load(directory: directory), languages: languages)
        } catch {
            throw UsageError(message: "--app: \(error)")
        }
    }

    /// Whether this device runs the bundled sample app (the one whose samples seed a new inbox).
    func runsSampleApp(environment: [String: String]) -> Bool {
        guard let profile, let sample = ResourceLocator.sampleAppDirectory(environment: environment) else { return false }
        return Self.samePath(profile.directory, sample)
    }

    /// Whether two paths name the same folder (symbolic links and `..` resolved).
    static func samePath(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).resolvingSymlinksInPath().standardizedFileURL.path
            == URL(fileURLWithPath: b).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// The app's folder as the inbox keeps it: absolute, `.` and `..` resolved.
    var appFolder: String? { profile.map { URL(fileURLWithPath: $0.directory).standardizedFileURL.path } }

    /// Makes `service` take pushes as this device (serve, exec's intake and the inbox at start):
    /// records its app and languages beside the inbox, so every command on it sees the same
    /// device, and gives the service the registration file, the language topic and the Live
    /// Activities; the reason the device could not be recorded, if it could not.
    func attach(to service: IntakeService, registration: DeviceRegistrationFile, clock: SimulatedClock) -> String? {
        service.phone.registrationFile = registration
        service.phone.deviceLanguagesChanged(to: languages, profileTopics: profile?.fcmTopics ?? [])
        service.phone.liveActivities = liveActivities(database: service.store.path, clock: clock)
        service.phone.clock = clock
        do { try registration.record(app: appFolder, languages: languages, apnsEnvironment: validationContext.apnsEnvironment) } catch {
            return "\(error)"
        }
        return nil
    }

    /// What is wrong with the `--lang` languages: not a language code, or matching none of the
    /// app's localizations (the device then falls back without a word otherwise).
    func languageProblems(_ localizer: Localizer?) -> [Diagnostic] {
        let matched = localizer.map { $0.resolve(languages).match.preferred != nil } ?? true
        return LanguageCodeCheck.problems(languages, matched: matched).map { Diagnostic(.unknownLanguage, $0) }
    }

    /// The app's localizations, found below its folder (tables are read on first use).
    func makeLocalizer() -> Localizer? {
        profile.map { Localizer(app: AppLocalizations(directory: $0.directory, developmentRegion: $0.developmentRegion)) }
    }

    var validationContext: ValidationContext {
        var context = ValidationContext(
            bundleID: profile?.bundleID,
            deviceTopics: described ? DeviceTopics.topics(preferredLanguages: languages, profileTopics: profile?.fcmTopics ?? []) : nil)
        context.fcmTokens = fcmTokens ?? profile?.fcmTokens ?? .any
        context.apnsTokens = apnsTokens ?? .any
        context.fcmProject = profile?.fcmProject
        context.capabilities = profile?.capabilities
        context.communicationSender = profile?.recipe?.communicateStep.map { [$0.handle, $0.sender].compactMap { $0 } }
        context.apnsEnvironment = apnsEnvironment ?? profile?.apsEnvironment ?? .development
        return context
    }

    /// The renderer for this device: its app's context, languages, localizations and
    /// categories, and the service extension as the options set it up.
    func renderer(_ args: ParsedArguments, io: CommandIO) throws(UsageError) -> Renderer {
        var renderer = Renderer(
            context: validationContext, preferredLanguages: languages, localizer: makeLocalizer(),
            categories: profile?.categories ?? [], extensionSetup: try RenderCommand.extensionSetup(args, device: self, io: io))
        renderer.android = makeAndroidRenderer()
        return renderer
    }

    /// How FCM messages show on the app's Android build: its `res/` (found under the app
    /// folder, or the profile's `android.resources`) and its `android` section.
    func makeAndroidRenderer() -> AndroidRenderer? {
        guard let profile else { return nil }
        let res = profile.android.resources ?? AndroidResources.find(in: profile.directory)
        return AndroidRenderer(
            resources: res.map { AndroidResources(res: $0, pseudoLocales: profile.android.pseudoLocales) }, profile: profile.android,
            appName: profile.name)
    }
}

extension Device {
    /// This device as a phone with the registration and Live Activities kept beside the inbox at
    /// `database` (nil: a phone of its own, installed, online, with none), for a dry run: what
    /// `render` and `snapshot` judge a payload by, as the intake would.
    func phone(database: String?) -> Phone {
        let phone = Phone(
            context: validationContext, registrationFile: database.map { DeviceRegistrationFile(databasePath: $0) },
            liveActivities: database.map { liveActivities(database: $0, clock: nil) })
        // The fleet's devices take their topics from the same languages and profile as the intake's.
        phone.deviceLanguagesChanged(to: languages, profileTopics: profile?.fcmTopics ?? [])
        return phone
    }

    /// The device's Live Activities beside the inbox at `database`, with the app's types and
    /// budgets, on `clock` (nil: the clock the file last recorded).
    func liveActivities(database: String, clock: SimulatedClock?) -> LiveActivityDevice {
        LiveActivityDevice(databasePath: database, clock: clock, profile: profile?.liveActivities ?? LiveActivityProfile())
    }
}
