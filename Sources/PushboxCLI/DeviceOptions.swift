import Foundation
import PushboxCore
import PushboxIntake
import PushboxLocalization
import PushboxText

/// The simulated device and app that `--app` and `--lang` describe.
struct Device {
    static let defaultLanguages = ["en-US"]

    var profile: AppProfile?
    var languages: [String]
    /// Whether `--app` or `--lang` described a device (else FCM targeting is not judged).
    var described = true
    /// `--fcm-tokens`, when given (else the profile's, else any).
    var fcmTokens: FCMTokenMode? = nil

    /// Reads `--app` (or the bundled sample app when `defaultApp` is set) and `--lang`.
    static func from(_ args: ParsedArguments, defaultApp: Bool, io: CommandIO) throws(UsageError) -> Device {
        var device = try describedBy(args, defaultApp: defaultApp, io: io)
        if let mode = args.value(Options.fcmTokens) {
            guard let known = FCMTokenMode(rawValue: mode) else { throw UsageError(message: "--fcm-tokens is any or strict, not \(mode)") }
            device.fcmTokens = known
        }
        return device
    }

    /// The device `--app` and `--lang` describe.
    private static func describedBy(_ args: ParsedArguments, defaultApp: Bool, io: CommandIO) throws(UsageError) -> Device {
        var languages = Device.defaultLanguages
        if let list = args.value(Options.lang) {
            languages = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !languages.isEmpty else { throw UsageError(message: "--lang needs at least one language, e.g. --lang ko-KR,en") }
        }
        var directory = args.value(Options.app)
        if directory == nil, defaultApp {
            directory = ResourceLocator.sampleAppDirectory(environment: io.environment)
            if directory == nil {
                io.err("pushbox: note: the bundled sample app was not found; rendering without an app (set PUSHBOX_SAMPLES or pass --app DIR)")
            }
        }
        guard let directory else {
            return Device(profile: nil, languages: languages, described: defaultApp || args.value(Options.lang) != nil)
        }
        do {
            return Device(profile: try AppProfile.load(directory: directory), languages: languages)
        } catch {
            throw UsageError(message: "--app: \(error)")
        }
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
    /// The device's Live Activities beside the inbox at `database`, with the app's types and
    /// budgets, on `clock` (nil: the clock the file last recorded).
    func liveActivities(database: String, clock: SimulatedClock?) -> LiveActivityDevice {
        LiveActivityDevice(databasePath: database, clock: clock, profile: profile?.liveActivities ?? LiveActivityProfile())
    }
}
