import Foundation
import PushboxJSON

/// An Android app's string resources: every `values*/` folder of its `res/`, each file read as
/// AAPT2 reads it, and the lookup Android does for a device's locale list.
public struct AndroidResources: Sendable {
    /// The `res/` folder.
    public let root: String
    /// Locale folders (and `values/`) with their strings, merged over the folder's files.
    public let folders: [AndroidValuesFolder: [String: AndroidString]]
    /// Plurals and arrays by name (unreachable from an FCM loc key).
    public let unreachable: Set<String>
    /// Every file read, with its errors and warnings.
    public let files: [AndroidStringsFile]
    /// Strings that exist only outside `values/`: `aapt2 link` removes them ("without
    /// required default value"), so the app has none of them.
    public let withoutDefault: [String: [AndroidValuesFolder]]

    /// Where an Android app keeps its resources under `app`: an Android project
    /// (`app/src/main/res`, `src/main/res`, `res`) or a Flutter / React Native root
    /// (`android/app/src/main/res`). Nil when there is none.
    public static func find(in app: String) -> String? {
        for relative in ["android/app/src/main/res", "app/src/main/res", "src/main/res", "res"] {
            let path = app + "/" + relative
            if let entries = try? FileManager.default.contentsOfDirectory(atPath: path), entries.contains(where: { $0.hasPrefix("values") }) {
                return path
            }
        }
        return nil
    }

    /// Reads every `values*/*.xml` of `res`; with `pseudoLocales` (a build with
    /// `pseudoLocalesEnabled`), `values-en-rXA` and `values-ar-rXB` are made from the default
    /// strings as AAPT2 makes them.
    public init(res: String, pseudoLocales: Bool = false) {
        root = res
        var folders: [AndroidValuesFolder: [String: AndroidString]] = [:]
        var unreachable: Set<String> = []
        var files: [AndroidStringsFile] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: res)) ?? []).sorted()
        for name in names {
            guard let folder = AndroidValuesFolder(name: name) else { continue }
            let dir = res + "/" + name
            for file in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() where file.hasSuffix(".xml") {
                guard let data = FileManager.default.contents(atPath: dir + "/" + file) else { continue }
                let read = AndroidStringsReader.read(Array(data), path: dir + "/" + file)
                files.append(read)
                for s in read.strings { folders[folder, default: [:]][s.name] = s }
                unreachable.formUnion(read.plurals.keys)
                unreachable.formUnion(read.arrays.keys)
            }
        }
        let defaults = folders.first { $0.key.locale == nil }?.value ?? [:]
        var withoutDefault: [String: [AndroidValuesFolder]] = [:]
        for (folder, strings) in folders where folder.locale != nil {
            for name in strings.keys where defaults[name] == nil { withoutDefault[name, default: []].append(folder) }
        }
        for (name, _) in withoutDefault {
            for folder in folders.keys { folders[folder]?[name] = nil }
        }
        if pseudoLocales, let defaults = folders.first(where: { $0.key.locale == nil })?.value {
            for (name, method) in [("values-en-rXA", AndroidPseudolocalizer.Method.accent), ("values-ar-rXB", .bidi)] {
                guard let folder = AndroidValuesFolder(name: name) else { continue }
                for (key, string) in defaults where string.translatable {
                    guard let text = string.text else { continue }
                    var pseudo = string
                    pseudo.value = .text(AndroidPseudolocalizer.localize(text, method, untranslatable: string.untranslatable))
                    folders[folder, default: [:]][key] = pseudo
                }
            }
        }
        self.folders = folders
        self.unreachable = unreachable
        self.files = files
        self.withoutDefault = withoutDefault
    }

    /// The locales the app's own folders cover.
    public var locales: [AndroidLocale] { folders.keys.compactMap(\.locale).sorted { $0.description < $1.description } }

    /// A string as the device reads it.
    public struct Lookup: Sendable, Equatable {
        /// The text (references followed).
        public var text: String
        /// The folder it came from (`values-ko`).
        public var folder: AndroidValuesFolder
        /// Why that folder, in words.
        public var rule: String
        /// The resource as written.
        public var resource: AndroidString
    }

    /// What `Resources.getString(id)` gives for `name` with the resources configured for
    /// `locale` (step 1's result): nil when no folder defines it.
    public func string(_ name: String, locale: AndroidLocale?) -> Lookup? {
        var seen: Set<String> = []
        var current = name
        while seen.insert(current).inserted {
            let having = folders.filter { $0.value[current] != nil }.map(\.key).sorted { $0.name < $1.name }
            guard let (folder, rule) = AndroidLocaleResolver.folder(for: locale, among: having), let resource = folders[folder]?[current] else {
                return nil
            }
            switch resource.value {
            case .text(let t): return Lookup(text: t, folder: folder, rule: rule, resource: resource)
            case .null: return Lookup(text: "", folder: folder, rule: rule, resource: resource)
            case .reference(let type, let target, let package):
                guard type == "string", package == nil else { return nil }
                current = target
            }
        }
        return nil
    }
}
