import Foundation
import Testing
@testable import PushboxUI

@Suite("Themes")
struct ThemeTests {
    static let themesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("themes").path

    @Test("the four bundled themes load and style every role")
    func bundled() throws {
        let available = Theme.available(in: [Self.themesFolder])
        #expect(Set(available.keys) == ["dark", "light", "high-contrast", "ios"])
        for (_, path) in available {
            let theme = try Theme.load(path: path)
            #expect(Set(theme.styles.keys) == Set(Role.allCases), "\(theme.name) misses \(Set(Role.allCases).subtracting(theme.styles.keys))")
        }
    }

    @Test("a user theme replaces a bundled one of the same name; bad themes say what is wrong")
    func userThemes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-themes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{"roles": {"normal": {"fg": "bright-green"}}}"#.write(toFile: dir + "/dark.json", atomically: true, encoding: .utf8)
        let available = Theme.available(in: [Self.themesFolder, dir])
        #expect(available["dark"] == dir + "/dark.json")
        #expect(try Theme.load(path: dir + "/dark.json").style(.normal).foreground == .ansi(10))
        try #"{"roles": {"selcted": {}}}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        #expect { try Theme.load(path: dir + "/bad.json") } throws: { "\($0)".contains("roles.selcted: unknown role") }
        try #"{"roles": {"normal": {"fg": "octarine"}}}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        #expect { try Theme.load(path: dir + "/bad.json") } throws: { "\($0)".contains("roles.normal.fg") }
    }

    @Test("t cycles the themes")
    func cycle() {
        var s = UIFixtures.state(width: 80, height: 24)
        s.themes = ["dark", "light", "ios"]
        _ = s.update(.key(.char("t")))
        #expect(s.theme == "light")
        _ = s.update(.key(.char("t")))
        _ = s.update(.key(.char("t")))
        #expect(s.theme == "dark")
    }
}
