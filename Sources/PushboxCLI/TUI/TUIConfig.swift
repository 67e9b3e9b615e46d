import Foundation
import PushboxJSON
import PushboxPayload
import PushboxSystem
import PushboxUI

/// `$XDG_CONFIG_HOME/pushbox/config.json`: the user's settings (the theme the TUI last used).
/// The device's languages are not here: they are the device's, kept beside its inbox (a
/// `"languages"` key an older pushbox wrote is ignored).
struct TUIConfig {
    var theme: String?
    /// Whether pushbox puts right-to-left text in visual order (`"bidi": false` leaves it to the terminal).
    var bidi: Bool? = nil
    /// Where `e` writes `.apns` files (`"exportDirectory"`; default: the folder pushbox started in).
    var exportDirectory: String? = nil

    static func path(_ environment: [String: String]) -> String {
        let base = XDG.configHome(environment)
        return (base as NSString).appendingPathComponent("pushbox/config.json")
    }

    static func load(_ environment: [String: String]) -> TUIConfig {
        guard let data = FileManager.default.contents(atPath: path(environment)),
            let o = try? JSONParser.parse(Array(data)).objectValue
        else { return TUIConfig() }
        return TUIConfig(
            theme: o["theme"]?.stringValue,
            bidi: o["bidi"] == .bool(false) ? false : o["bidi"] == .bool(true) ? true : nil,
            exportDirectory: o["exportDirectory"]?.stringValue)
    }

    /// Writes the file; the reason it could not, if it could not.
    func save(_ environment: [String: String]) -> String? {
        let p = Self.path(environment)
        var o = JSONObject([("theme", .optionalString(theme))])
        if let bidi { o["bidi"] = .bool(bidi) }
        if let exportDirectory { o["exportDirectory"] = .string(exportDirectory) }
        do {
            try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (JSONWriter.pretty(.object(o)) + "\n").write(toFile: p, atomically: true, encoding: .utf8)
            return nil
        } catch {
            return "the theme was not saved: cannot write \(p): \(FileErrorText.describe(error))"
        }
    }
}
