import Foundation
import PushboxCore
import PushboxText
import PushboxUI

/// `$XDG_CONFIG_HOME/pushbox/config.json`: the device languages and theme the TUI last used.
struct TUIConfig {
    var languages: [String]?
    var theme: String?

    static func path(_ environment: [String: String]) -> String {
        let base = XDG.configHome(environment)
        return (base as NSString).appendingPathComponent("pushbox/config.json")
    }

    static func load(_ environment: [String: String]) -> TUIConfig {
        guard let data = FileManager.default.contents(atPath: path(environment)),
            let o = try? JSONParser.parse(Array(data)).objectValue
        else { return TUIConfig() }
        return TUIConfig(languages: o["languages"]?.arrayValue?.compactMap(\.stringValue), theme: o["theme"]?.stringValue)
    }

    /// Writes the file; the reason it could not, if it could not.
    func save(_ environment: [String: String]) -> String? {
        let p = Self.path(environment)
        let o = JSONObject([("languages", .array((languages ?? []).map { .string($0) })), ("theme", .optionalString(theme))])
        do {
            try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (JSONWriter.pretty(.object(o)) + "\n").write(toFile: p, atomically: true, encoding: .utf8)
            return nil
        } catch {
            return "the languages were not saved: cannot write \(p): \(FileErrorText.describe(error))"
        }
    }
}
