import Foundation
import PushboxJSON
import PushboxSystem

/// An app's localizations as found below its folder: every `*.lproj` folder (an Xcode project
/// layout works as it is; legacy names and `Base.lproj` included) and every `*.xcstrings`.
/// Tables are read on first use and kept: switching back to a language costs no file read.
public final class AppLocalizations: Sendable {
    /// The app's folder.
    public let directory: String
    /// The app's development language (`CFBundleDevelopmentRegion`).
    public let developmentRegion: String
    /// `.lproj` name (as found: `ko`, `zh_CN`, `Base`) → the folders with that name.
    public let lprojFolders: [String: [String]]
    /// Table name → catalog files (`Localizable` → `…/Localizable.xcstrings`).
    public let catalogFiles: [String: [String]]

    /// Files read so far: catalogs by path, tables by name and localization.
    private struct Cache {
        var catalogs: [String: Result<XCStringsCatalog, LocalizationFileError>] = [:]
        var tables: [String: LocalizationTable] = [:]
        var tableLoads = 0
    }

    private let cache = Locked(Cache())
    /// How many tables were built from files (for tests of the cache).
    public var tableLoads: Int { cache.withLock { $0.tableLoads } }

    /// Folders never searched: build products and dependencies.
    static let skippedFolders: Set<String> = [".build", ".git", "node_modules", "Pods", "DerivedData", "build", "Carthage"]

    /// Finds every `.lproj` and catalog below `directory` (tables are read on first use).
    public init(directory: String, developmentRegion: String = "en") {
        self.directory = directory
        self.developmentRegion = developmentRegion
        var lproj: [String: [String]] = [:]
        var catalogs: [String: [String]] = [:]
        let fm = FileManager.default
        var pending = [directory]
        while let dir = pending.popLast() {
            let names = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).sorted()
            for name in names where !name.hasPrefix(".") && !Self.skippedFolders.contains(name) {
                let path = (dir as NSString).appendingPathComponent(name)
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
                if isDir.boolValue {
                    if name.hasSuffix(".lproj") {
                        lproj[String(name.dropLast(".lproj".count)), default: []].append(path)
                    } else {
                        pending.append(path)
                    }
                } else if name.hasSuffix(".xcstrings") {
                    catalogs[String(name.dropLast(".xcstrings".count)), default: []].append(path)
                }
            }
        }
        lprojFolders = lproj
        catalogFiles = catalogs
    }

    /// Every localization the app has for a table: `.lproj` names holding it, plus its catalogs' languages.
    public func localizations(table: String = "Localizable") -> [String] {
        var names = Set(
            lprojFolders.filter { _, folders in
                folders.contains { dir in ["strings", "stringsdict"].contains { FileManager.default.fileExists(atPath: "\(dir)/\(table).\($0)") } }
            }.keys)
        for catalog in loadedCatalogs(table) { names.formUnion(catalog.languages) }
        return names.sorted()
    }

    /// The table for one localization name, read once and cached.
    public func table(_ name: String = "Localizable", localization: String) -> LocalizationTable {
        let cacheKey = name + "\u{0}" + localization
        if let cached = cache.withLock({ $0.tables[cacheKey] }) { return cached }
        let built = buildTable(name, localization: localization)
        cache.withLock { cache in
            cache.tables[cacheKey] = built
            cache.tableLoads += 1
        }
        return built
    }

    private func buildTable(_ name: String, localization: String) -> LocalizationTable {
        var table = LocalizationTable()
        for folder in lprojFolders[localization] ?? [] {
            let stringsPath = "\(folder)/\(name).strings"
            if let data = FileManager.default.contents(atPath: stringsPath) {
                table.files.append(stringsPath)
                do {
                    let (strings, lines, notes) = try StringsFileReader.readStrings(Array(data), file: stringsPath)
                    for (key, value) in strings { table.entries[key] = LocalizedEntry(value: .text(value), file: stringsPath, line: lines[key]) }
                    table.notes += notes
                } catch {
                    table.errors.append(error)
                }
            }
            let dictPath = "\(folder)/\(name).stringsdict"
            if let data = FileManager.default.contents(atPath: dictPath) {
                table.files.append(dictPath)
                do {
                    // .stringsdict entries override .strings entries of the same key.
                    let (rules, notes) = try StringsFileReader.readStringsDict(Array(data), file: dictPath)
                    for (key, rule) in rules { table.entries[key] = LocalizedEntry(value: .rule(rule), file: dictPath) }
                    table.notes += notes
                } catch {
                    table.errors.append(error)
                }
            }
        }
        let wanted = LanguageTag(localization)
        for catalog in loadedCatalogs(name) {
            table.files.append(catalog.file)
            table.notes += catalog.notes
            guard
                let language = catalog.languages.first(where: { $0 == localization || (wanted != nil && LanguageTag($0) == wanted) })
                    ?? (localization == "Base" ? catalog.sourceLanguage : nil)
            else { continue }
            for (key, entry) in catalog.table(for: language) where table.entries[key] == nil {
                table.entries[key] = entry
            }
        }
        for (_, result) in catalogResults(name) {
            if case .failure(let error) = result { table.errors.append(error) }
        }
        return table
    }

    private func catalogResults(_ table: String) -> [(String, Result<XCStringsCatalog, LocalizationFileError>)] {
        (catalogFiles[table] ?? []).map { path in
            if let cached = cache.withLock({ $0.catalogs[path] }) { return (path, cached) }
            let result: Result<XCStringsCatalog, LocalizationFileError>
            if let data = FileManager.default.contents(atPath: path) {
                do throws(LocalizationFileError) { result = .success(try XCStringsCatalog(Array(data), file: path)) } catch {
                    result = .failure(error)
                }
            } else {
                result = .failure(LocalizationFileError(file: path, line: 1, column: 1, message: "cannot be read"))
            }
            cache.withLock { $0.catalogs[path] = result }
            return (path, result)
        }
    }

    private func loadedCatalogs(_ table: String) -> [XCStringsCatalog] {
        catalogResults(table).compactMap { try? $0.1.get() }
    }
}
