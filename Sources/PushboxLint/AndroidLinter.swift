import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering

extension Diagnostic.Code {
    public static let androidBrokenFile = Self(
        "android-broken-file", .error,
        "A `strings.xml` the build refuses (unescaped apostrophe, bad `\\u`, broken XML, duplicate).")
    public static let androidNonPositional = Self(
        "android-non-positional", .warning,
        "Several non-positional substitutions without `formatted=\"false\"` (AAPT2 warns).")
    public static let androidArgumentMismatch = Self(
        "android-argument-mismatch", .warning,
        "A translation's arguments differ from the default string's.")
    public static let crossPlatformMissing = Self("cross-platform-missing", .warning, "A key an FCM message uses exists on one platform only.")
    public static let crossPlatformArguments = Self(
        "cross-platform-arguments", .warning,
        "A key's argument count differs between the iOS string and the Android string.")
    public static let androidUnreadFolder = Self(
        "android-unread-folder", .warning,
        "A folder named with a language's modern code (`values-he`) that Android never reads: the framework asks " + "for the legacy code (`iw`).")
}

/// `lint` for the Android side: each `strings.xml` as the build reads it, translations against
/// the default strings, and an FCM payload folder's keys on both platforms.
public struct AndroidLinter {
    /// The app's Android resources.
    public let resources: AndroidResources
    /// The iOS side, for the cross-platform checks (nil: Android only).
    public let ios: AppLocalizations?
    /// The iOS table checked.
    public let table: String

    /// A linter of `resources`, beside the iOS `ios` localizations.
    public init(resources: AndroidResources, ios: AppLocalizations?, table: String = "Localizable") {
        self.resources = resources
        self.ios = ios
        self.table = table
    }

    /// What each file and folder says.
    public func lint() -> [LintFinding] {
        var out: [LintFinding] = []
        for file in resources.files {
            for e in file.errors {
                out.append(
                    LintFinding(.error, .androidBrokenFile, file: e.file, line: e.line, message: "\(e.message) (column \(e.column)); the build fails")
                )
            }
            for w in file.warnings { out.append(LintFinding(.warning, .androidNonPositional, file: w.file, line: w.line, message: w.message)) }
        }
        let names = Set(resources.folders.keys.map(\.name))
        for folder in resources.folders.keys.sorted(by: { $0.name < $1.name }) {
            guard let locale = folder.locale, locale.frameworkLanguage != locale.language else { continue }
            let legacy = folder.name.replacingOccurrences(of: "values-\(locale.language)", with: "values-\(locale.frameworkLanguage)")
            guard !names.contains(legacy) else { continue }
            out.append(
                LintFinding(
                    .warning, .androidUnreadFolder, file: resources.root + "/" + folder.name, language: folder.name,
                    message:
                        "Android asks the resources for \(locale.frameworkLanguage), never \(locale.language): a device in this language never reads \(folder.name); name it \(legacy) (or keep both)"
                ))
        }
        let defaults = resources.folders.first { $0.key.locale == nil }?.value ?? [:]
        let defaultPath = resources.root + "/values"
        for (name, folders) in resources.withoutDefault.sorted(by: { $0.key < $1.key }) {
            out.append(
                LintFinding(
                    .warning, .androidNoDefault, file: defaultPath, key: name,
                    message:
                        "\(name) is in \(folders.map(\.name).sorted().joined(separator: ", ")) but not values/: aapt2 link removes it, so no device has it"
                ))
        }
        for (folder, strings) in resources.folders.sorted(by: { $0.key.name < $1.key.name }) where folder.locale != nil {
            for (name, s) in strings.sorted(by: { $0.key < $1.key }) {
                guard let d = defaults[name]?.text, let t = s.text, s.formatted, defaults[name]?.formatted != false else { continue }
                let a = JavaFormat.arguments(d)
                let b = JavaFormat.arguments(t)
                if a != b {
                    out.append(
                        LintFinding(
                            .warning, .androidArgumentMismatch, file: resources.root + "/" + folder.name, line: s.line, language: folder.name,
                            key: name,
                            message: "\(name) in \(folder.name) takes \(Self.describe(b)); values/ takes \(Self.describe(a))"))
                }
            }
        }
        return out
    }

    /// An FCM payload folder: the Android keys its messages use (a missing one, one whose
    /// string the loc args cannot fill), and each key against the other platform.
    public func lint(folder: String) -> [LintFinding] {
        guard let paths = try? PayloadFile.paths(in: folder) else { return [] }
        var out: [LintFinding] = []
        let renderer = AndroidRenderer(resources: resources, profile: AndroidProfile(), appName: "")
        for path in paths {
            guard let raw = PayloadFile.read(path, source: .commandLine), let validated = Validator.validate(raw).validated,
                let message = validated.fcm
            else {
                continue
            }
            let text = String(decoding: raw.bytes, as: UTF8.self)
            let android = renderer.render(message, preferred: [])
            for w in android.warnings
            where [.androidMissingResource, .androidNoDefault, .androidUnreachableResource, .androidFormatException].contains(w.code) {
                out.append(
                    LintFinding(
                        w.code == .androidFormatException ? .error : .warning, w.code, file: path,
                        line: w.key.flatMap { PayloadKeyLinter.line(of: "\"\($0)\"", in: text) },
                        language: w.language, key: w.key, message: w.message))
            }
            out += crossPlatform(message, file: path, text: text)
        }
        return out
    }

    /// Each key the message names, on both platforms: present on one only, or with different
    /// argument counts.
    func crossPlatform(_ message: FCMMessage, file: String, text: String) -> [LintFinding] {
        guard let ios else { return [] }
        let dev = LocalizationLinter(app: ios, table: table).developmentLocalization
        let iosTable = ios.table(table, localization: dev)
        let androidDefaults = resources.folders.first { $0.key.locale == nil }?.value ?? [:]
        let alert = message.apnsPayload?["aps"]?.objectValue?["alert"]?.objectValue
        let n = message.android?["notification"]?.objectValue
        // Keys each block names for its own phone.
        var iosKeys: [String] = []
        var androidKeys: [String] = []
        for k in ["title-loc-key", "subtitle-loc-key", "loc-key"] { if let v = alert?[k]?.stringValue { iosKeys.append(v) } }
        for k in ["title_loc_key", "body_loc_key", "titleLocKey", "bodyLocKey"] { if let v = n?[k]?.stringValue { androidKeys.append(v) } }
        var out: [LintFinding] = []
        for (key, forIOS) in iosKeys.map({ ($0, true) }) + androidKeys.map({ ($0, false) }) {
            let onIOS = iosTable.entries[key]
            let onAndroid = androidDefaults[key]
            let line = PayloadKeyLinter.line(of: "\"\(key)\"", in: text)
            switch (onIOS, onAndroid, forIOS) {
            case (nil, _?, true):
                out.append(
                    LintFinding(
                        .warning, .crossPlatformMissing, file: file, line: line, key: key,
                        message: "\(key) (apns) is an Android resource, not an iOS string (\(dev)): the iPhone shows the key itself"))
            case (_?, nil, false):
                out.append(
                    LintFinding(
                        .warning, .crossPlatformMissing, file: file, line: line, key: key,
                        message: "\(key) (android) is an iOS string, not an Android resource: Android shows no text for it"))
            case (let i?, let a?, _):
                // One key on both phones (as React Native and Flutter apps share them): the same loc args must fill both.
                let iosCount = LocalizationLinter.signature(of: i.value).arguments.keys.max() ?? 0
                let androidCount = a.text.map { JavaFormat.arguments($0).count } ?? 0
                if iosCount != androidCount {
                    out.append(
                        LintFinding(
                            .warning, .crossPlatformArguments, file: file, line: line, key: key,
                            message: "\(key) takes \(iosCount) argument(s) on iOS and \(androidCount) on Android: the same loc args cannot fill both")
                    )
                }
            default: continue
            }
        }
        return out
    }

    static func describe(_ args: [Int: Character]) -> String {
        args.isEmpty ? "no arguments" : args.sorted { $0.key < $1.key }.map { "%\($0.key)$\($0.value)" }.joined(separator: " ")
    }
}

/// The Android and category linters' codes, for the reference page (a test checks it holds every code declared in the module).
extension Diagnostic.Code {
    public static let lintCatalog: [Self] = [
        .categoryFormat,
        .communicationNoIntent,
        .androidBrokenFile,
        .androidNonPositional,
        .androidArgumentMismatch,
        .crossPlatformMissing,
        .crossPlatformArguments,
        .androidUnreadFolder,
    ]
}
