import Foundation
import PushboxJSON

/// The app pushbox simulates, from `pushbox.json` in the app folder (all fields optional).
///
/// ```json
/// { "name": "Sample", "bundleId": "dev.pushbox.sample", "developmentRegion": "en",
///   "fcmTopics": ["NewsApp"], "categories": {…}, "extension": {…} }
/// ```
/// docs/reference/profile.md documents every field (from `ProfileSchema`).
public struct AppProfile: Sendable, Equatable {
    /// The profile's file name in an app folder.
    public static let fileName = "pushbox.json"

    /// The folder the profile and the app's localizations live in.
    public var directory: String
    /// The app's name, as the header shows it.
    public var name: String
    /// The bundle id pushes must be addressed to (`apns-topic`).
    public var bundleID: String?
    /// The development language.
    public var developmentRegion: String
    /// FCM topics the simulated device subscribes to.
    public var fcmTopics: [String]
    /// How FCM `token`/`fid` targets are judged (`fcmTokens`: `any`, the default, or `strict`).
    public var fcmTokens: FCMTokenMode = .any
    /// The Firebase project the app's registration tokens belong to (`fcmProject`); nil: the
    /// first project that sends to the device becomes its own.
    public var fcmProject: String?
    /// The app's `aps-environment` (`apsEnvironment`): development (a debug build, the default)
    /// or production (TestFlight, the App Store).
    public var apsEnvironment: APNsEnvironment = .development
    /// Notification categories and their action buttons.
    public var categories: [NotificationCategory] = []
    /// The service extension's recipe; nil when the profile gives none (the default recipe applies).
    public var recipe: ExtensionRecipe?
    /// APNs provider keys whose tokens the TCP port verifies (`"providerKeys"`).
    public var providerKeys: [ProviderKeyReference] = []
    /// The `android` section: channels, default icon and colour, foreground, claimed locales.
    public var android = AndroidProfile()
    /// The `liveActivities` section: the app's ActivityAttributes types and the device's budgets.
    public var liveActivities = LiveActivityProfile()
    /// The app's capabilities and entitlements (`"capabilities": ["time-sensitive", …]`); nil
    /// when the profile does not list them, and what needs one is not judged.
    public var capabilities: Set<AppCapability>?
    /// URLs each stored notification is posted to (`"webhooks": ["http://127.0.0.1:9000/push"]`),
    /// beside those `--webhook` gives.
    public var webhooks: [String] = []

    /// A profile from its fields (tests; files go through `load`).
    public init(directory: String, name: String, bundleID: String? = nil, developmentRegion: String = "en", fcmTopics: [String] = []) {
        self.directory = directory
        self.name = name
        self.bundleID = bundleID
        self.developmentRegion = developmentRegion
        self.fcmTopics = fcmTopics
    }

    /// The category with this identifier.
    public func category(_ identifier: String) -> NotificationCategory? {
        categories.first { $0.identifier == identifier }
    }

    /// A problem in `pushbox.json`, with the path of the bad field.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        /// The profile file.
        public var file: String
        /// The key path at fault (`extension.steps[1]`).
        public var path: String
        /// What is wrong, in words.
        public var message: String
        /// `file: path: message`.
        public var description: String { "\(file): \(path.isEmpty ? "" : path + ": ")\(message)" }
    }

    /// Loads the profile of an app folder; a folder without `pushbox.json` gets the defaults.
    public static func load(directory: String) throws(LoadError) -> AppProfile {
        let file = (directory as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file) else {
            var isDir: ObjCBool = false
            if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDir) || !isDir.boolValue {
                throw LoadError(file: directory, path: "", message: "no such app folder")
            }
            return AppProfile(directory: directory, name: URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent)
        }
        return try parse(Array(data), directory: directory)
    }

    /// Reads a profile's bytes as if they were `pushbox.json` in `directory` (the fuzz target's way in).
    // Long on purpose: one line per pushbox.json key, in the schema's order.
    /// A profile from `pushbox.json`'s bytes, errors naming the key's path.
    public static func parse(_ data: [UInt8], directory: String) throws(LoadError) -> AppProfile {
        let folderName = URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent
        var profile = AppProfile(directory: directory, name: folderName)
        let file = (directory as NSString).appendingPathComponent(fileName)
        let root: JSONObject
        do {
            guard let object = try JSONParser.parse(data).objectValue else {
                throw LoadError(file: file, path: "", message: "the profile must be a JSON object")
            }
            root = object
        } catch let error as JSONParseError {
            throw LoadError(file: file, path: "", message: error.description)
        } catch let error as LoadError {
            throw error
        } catch {
            throw LoadError(file: file, path: "", message: "\(error)")
        }
        func string(_ key: String) throws(LoadError) -> String? {
            guard let v = root[key] else { return nil }
            guard let s = v.stringValue else { throw LoadError(file: file, path: key, message: "must be a string, not \(v.typeDescription)") }
            return s
        }
        let known = ProfileSchema.keys(of: "")
        for key in root.keys where !known.contains(key) {
            throw LoadError(file: file, path: key, message: "unknown key (known: \(known.joined(separator: ", ")))")
        }
        if let name = try string("name") { profile.name = name }
        profile.bundleID = try string("bundleId")
        if let region = try string("developmentRegion") { profile.developmentRegion = region }
        if let topics = root["fcmTopics"] {
            guard let array = topics.arrayValue else {
                throw LoadError(file: file, path: "fcmTopics", message: "must be an array of strings, not \(topics.typeDescription)")
            }
            for (i, topic) in array.enumerated() {
                guard let name = topic.stringValue, TopicCondition.isValidTopicName(name) else {
                    throw LoadError(file: file, path: "fcmTopics[\(i)]", message: "must be a topic name (letters, digits and -_.~%)")
                }
                profile.fcmTopics.append(name)
            }
        }
        if let list = root["capabilities"] {
            guard let items = list.arrayValue else {
                throw LoadError(file: file, path: "capabilities", message: "must be an array, not \(list.typeDescription)")
            }
            var capabilities = Set<AppCapability>()
            for (i, item) in items.enumerated() {
                guard let capability = item.stringValue.flatMap(AppCapability.init(rawValue:)) else {
                    throw LoadError(
                        file: file, path: "capabilities[\(i)]",
                        message: "must be one of \(AppCapability.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                capabilities.insert(capability)
            }
            profile.capabilities = capabilities
        }
        if let hooks = root["webhooks"] {
            guard let array = hooks.arrayValue else {
                throw LoadError(file: file, path: "webhooks", message: "must be an array of URLs, not \(hooks.typeDescription)")
            }
            for (i, hook) in array.enumerated() {
                guard let url = hook.stringValue, url.hasPrefix("http://") || url.hasPrefix("https://") else {
                    throw LoadError(file: file, path: "webhooks[\(i)]", message: "must be an http:// or https:// URL")
                }
                profile.webhooks.append(url)
            }
        }
        profile.fcmProject = try string("fcmProject")
        if let environment = try string("apsEnvironment") {
            guard let known = APNsEnvironment(rawValue: environment) else {
                throw LoadError(file: file, path: "apsEnvironment", message: "must be \"development\" or \"production\", not \"\(environment)\"")
            }
            profile.apsEnvironment = known
        }
        if let mode = try string("fcmTokens") {
            guard let known = FCMTokenMode(rawValue: mode) else {
                throw LoadError(file: file, path: "fcmTokens", message: "must be \"any\" or \"strict\", not \"\(mode)\"")
            }
            profile.fcmTokens = known
        }
        if let keys = root["providerKeys"] {
            guard let array = keys.arrayValue else {
                throw LoadError(file: file, path: "providerKeys", message: "must be an array of {keyId, teamId, file}, not \(keys.typeDescription)")
            }
            for (i, entry) in array.enumerated() {
                let o = try ProfileReader(file: file).object(entry, "providerKeys[\(i)]", known: ProfileSchema.keys(of: "providerKeys[]"))
                guard let keyID = o?["keyId"]?.stringValue, keyID.count == 10 else {
                    throw LoadError(file: file, path: "providerKeys[\(i)].keyId", message: "must be the 10-character key id")
                }
                guard let teamID = o?["teamId"]?.stringValue, teamID.count == 10 else {
                    throw LoadError(file: file, path: "providerKeys[\(i)].teamId", message: "must be the 10-character team id")
                }
                guard let path = o?["file"]?.stringValue, !path.isEmpty else {
                    throw LoadError(file: file, path: "providerKeys[\(i)].file", message: "must name the .p8 file, relative to the app folder")
                }
                let resolved = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
                profile.providerKeys.append(ProviderKeyReference(keyID: keyID, teamID: teamID, file: resolved))
            }
        }
        let reader = ProfileReader(file: file)
        profile.categories = try reader.categories(root["categories"])
        profile.recipe = try reader.recipe(root["extension"])
        profile.android = try AndroidProfile(root["android"], reader: reader, directory: directory)
        profile.liveActivities = try LiveActivityProfile(root["liveActivities"], reader: reader)
        return profile
    }
}

/// A provider key the app's profile registers: a `.p8` file and the ids APNs knows it by.
public struct ProviderKeyReference: Sendable, Equatable {
    /// The provider key's id (`kid`).
    public var keyID: String
    /// The team it belongs to, when the profile says.
    public var teamID: String?
    /// Absolute path of the `.p8` file.
    public var file: String

    /// A provider key file the profile registers.
    public init(keyID: String, teamID: String?, file: String) {
        self.keyID = keyID
        self.teamID = teamID
        self.file = file
    }
}
