import Foundation
import PushboxJSON
import PushboxSystem
import PushboxUI

/// Where the TUI's themes are found and how they are read: the bundled `themes/` folder, then
/// `$XDG_CONFIG_HOME/pushbox/themes`, or a file given with `--theme`. Parsing is `Theme.parse`.
enum ThemeFiles {
    /// Where themes live: the project's `themes/`, then `$XDG_CONFIG_HOME/pushbox/themes`.
    static func folders(projectThemes: String?, environment: [String: String]) -> [String] {
        let config = XDG.configHome(environment)
        return [projectThemes, (config as NSString).appendingPathComponent("pushbox/themes")].compactMap { $0 }
    }

    /// Every theme in the folders, by name (a user theme replaces a bundled one of the same name).
    /// A folder that does not exist has no themes.
    static func available(in folders: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for folder in folders {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() where name.hasSuffix(".json") {
                out[String(name.dropLast(5))] = (folder as NSString).appendingPathComponent(name)
            }
        }
        return out
    }

    /// Reads and parses one theme file.
    static func load(path: String) throws(Theme.LoadError) -> Theme {
        guard let data = FileManager.default.contents(atPath: path) else { throw Theme.LoadError(description: "\(path): cannot be read") }
        return try Theme.parse(Array(data), path: path)
    }

    /// Every theme found, and a sentence for each file that could not be used.
    static func loadAll(in folders: [String]) -> (themes: [String: Theme], problems: [String]) {
        var themes: [String: Theme] = [:]
        var problems: [String] = []
        for (name, path) in available(in: folders).sorted(by: { $0.key < $1.key }) {
            do { themes[name] = try load(path: path) } catch { problems.append("theme \(name) not loaded: \(error)") }
        }
        return (themes, problems)
    }
}
