import Foundation
import PushboxJSON
import PushboxSystem

/// An Android app's string resources: the `values*/` folders of its `res/`, each file read as
/// AAPT2 reads it, and the lookup Android does for a device's locale list.
///
/// A folder is read when a lookup first needs it — `values/` and the folders of the requested
/// language, never the other 80 — and kept for the object's lifetime (the inbox keeps one per
/// app), so a warm lookup reads nothing. `folders`, `files` and `withoutDefault` read them all.
public final class AndroidResources: Sendable {
    /// The `res/` folder.
    public let root: String
    /// Every `values*/` folder found (none read yet), in name order; with `pseudoLocales`, also
    /// `values-en-rXA` and `values-ar-rXB`, made from `values/` when first needed.
    public let folderList: [AndroidValuesFolder]
    /// Whether the pseudo-locales are made (a build with `pseudoLocalesEnabled`).
    public let pseudoLocales: Bool
    /// The locales the app's own folders cover (from their names: nothing is read).
    public let locales: [AndroidLocale]
    private let read = Locked<[String: Contents]>([:])
    /// The folders that can serve each requested locale, as found.
    private let candidatesByRequest = Locked<[AndroidLocale: [AndroidValuesFolder]]>([:])
    private let whole = Locked<Whole?>(nil)

    /// What one folder defines.
    struct Contents: Sendable {
        var strings: [String: AndroidString] = [:]
        var unreachable: Set<String> = []
        var files: [AndroidStringsFile] = []
    }

    /// Every folder read, as `aapt2 link` keeps them.
    struct Whole: Sendable {
        var folders: [AndroidValuesFolder: [String: AndroidString]]
        var unreachable: Set<String>
        var files: [AndroidStringsFile]
        var withoutDefault: [String: [AndroidValuesFolder]]
    }

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

    /// The resources of `res` (its folders listed, none read); with `pseudoLocales` (a build
    /// with `pseudoLocalesEnabled`), `values-en-rXA` and `values-ar-rXB` are made from the
    /// default strings as AAPT2 makes them.
    public init(res: String, pseudoLocales: Bool = false) {
        root = res
        self.pseudoLocales = pseudoLocales
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: res)) ?? []).sorted()
        var list = names.compactMap(AndroidValuesFolder.init(name:))
        if pseudoLocales && list.contains(where: { $0.locale == nil }) {
            for name in ["values-en-rXA", "values-ar-rXB"] where !names.contains(name) {
                if let folder = AndroidValuesFolder(name: name) { list.append(folder) }
            }
        }
        folderList = list
        locales = list.compactMap(\.locale).sorted { $0.description < $1.description }
    }

    /// One folder's strings, read on first use.
    func contents(_ folder: AndroidValuesFolder) -> Contents {
        if let known = read.withLock({ $0[folder.name] }) { return known }
        let made = load(folder)
        read.withLock { $0[folder.name] = made }
        return made
    }

    private func load(_ folder: AndroidValuesFolder) -> Contents {
        var contents = Contents()
        if pseudoLocales, let method = Self.pseudoMethods[folder.name], !FileManager.default.fileExists(atPath: root + "/" + folder.name) {
            guard let base = folderList.first(where: { $0.locale == nil }) else { return contents }
            for (key, string) in self.contents(base).strings where string.translatable {
                guard let text = string.text else { continue }
                var pseudo = string
                pseudo.value = .text(AndroidPseudolocalizer.localize(text, method, untranslatable: string.untranslatable))
                contents.strings[key] = pseudo
            }
            return contents
        }
        let dir = root + "/" + folder.name
        for file in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() where file.hasSuffix(".xml") {
            guard let data = FileManager.default.contents(atPath: dir + "/" + file) else { continue }
            let read = AndroidStringsReader.read(Array(data), path: dir + "/" + file)
            contents.files.append(read)
            contents.strings.reserveCapacity(contents.strings.count + read.strings.count)
            for s in read.strings { contents.strings[s.name] = s }
            contents.unreachable.formUnion(read.plurals.keys)
            contents.unreachable.formUnion(read.arrays.keys)
        }
        return contents
    }

    private static let pseudoMethods: [String: AndroidPseudolocalizer.Method] = ["values-en-rXA": .accent, "values-ar-rXB": .bidi]

    /// Every folder read, with what `aapt2 link` removes removed (for lint and the rare lookup
    /// that needs them all).
    private var all: Whole {
        if let known = whole.withLock({ $0 }) { return known }
        var folders: [AndroidValuesFolder: [String: AndroidString]] = [:]
        var unreachable: Set<String> = []
        var files: [AndroidStringsFile] = []
        for folder in folderList {
            let c = contents(folder)
            if !c.files.isEmpty || !c.strings.isEmpty { folders[folder] = c.strings }
            unreachable.formUnion(c.unreachable)
            files += c.files
        }
        let defaults = folders.first { $0.key.locale == nil }?.value ?? [:]
        var withoutDefault: [String: [AndroidValuesFolder]] = [:]
        for (folder, strings) in folders where folder.locale != nil {
            for name in strings.keys where defaults[name] == nil { withoutDefault[name, default: []].append(folder) }
        }
        for (name, _) in withoutDefault {
            for folder in folders.keys { folders[folder]?[name] = nil }
        }
        let made = Whole(folders: folders, unreachable: unreachable, files: files, withoutDefault: withoutDefault)
        whole.withLock { $0 = made }
        return made
    }

    /// Locale folders (and `values/`) with their strings, merged over the folder's files.
    public var folders: [AndroidValuesFolder: [String: AndroidString]] { all.folders }
    /// Plurals and arrays by name (unreachable from an FCM loc key).
    public var unreachable: Set<String> { all.unreachable }
    /// Every file read, with its errors and warnings.
    public var files: [AndroidStringsFile] { all.files }
    /// Strings that exist only outside `values/`: `aapt2 link` removes them ("without
    /// required default value"), so the app has none of them.
    public var withoutDefault: [String: [AndroidValuesFolder]] { all.withoutDefault }

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

    /// The folders that can serve `locale` (and those under its language's other code).
    private func candidates(for locale: AndroidLocale) -> [AndroidValuesFolder] {
        if let known = candidatesByRequest.withLock({ $0[locale] }) { return known }
        let request = locale.asRequested
        let found = folderList.filter { f in
            guard let l = f.locale else { return false }
            return AndroidLocaleResolver.matches(l, request) || l.frameworkLanguage == request.language
        }
        candidatesByRequest.withLock { $0[locale] = found }
        return found
    }

    /// What `Resources.getString(id)` gives for `name` with the resources configured for
    /// `locale` (step 1's result): nil when no folder defines it.
    ///
    /// Reads `values/` and the folders of the requested language only (and those under the
    /// language's other code, to say why they are not read).
    public func string(_ name: String, locale: AndroidLocale?) -> Lookup? {
        guard let base = folderList.first(where: { $0.locale == nil }) else { return nil }
        let candidates = locale.map(candidates(for:)) ?? []
        var seen: Set<String> = []
        var current = name
        while seen.insert(current).inserted {
            // A string values/ lacks is removed by `aapt2 link` from every folder.
            guard contents(base).strings[current] != nil else { return nil }
            let having = ([base] + candidates).filter { contents($0).strings[current] != nil }.sorted { $0.name < $1.name }
            guard let (folder, rule) = AndroidLocaleResolver.folder(for: locale, among: having), let resource = contents(folder).strings[current]
            else {
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
