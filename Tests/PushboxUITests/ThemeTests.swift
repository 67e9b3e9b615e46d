import Foundation
import Testing

@testable import PushboxUI

@Suite("Themes")
struct ThemeTests {
    static let themesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes").path

    func load(_ path: String) throws -> Theme {
        try Theme.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
    }

    @Test("the four bundled themes load and style every role")
    func bundled() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.themesFolder).filter { $0.hasSuffix(".json") }
        #expect(Set(names) == ["dark.json", "light.json", "high-contrast.json", "ios.json"])
        for name in names {
            let theme = try load(Self.themesFolder + "/" + name)
            #expect(Set(theme.styles.keys) == Set(Role.allCases), "\(theme.name) misses \(Set(Role.allCases).subtracting(theme.styles.keys))")
        }
    }

    @Test("bad themes say what is wrong")
    func badThemes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-themes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{"roles": {"normal": {"fg": "bright-green"}}}"#.write(toFile: dir + "/dark.json", atomically: true, encoding: .utf8)
        #expect(try load(dir + "/dark.json").style(.normal).foreground == .ansi(10))
        try #"{"roles": {"selcted": {}}}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        #expect { try load(dir + "/bad.json") } throws: { "\($0)".contains("roles.selcted: unknown role") }
        try #"{"roles": {"normal": {"fg": "octarine"}}}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        #expect { try load(dir + "/bad.json") } throws: { "\($0)".contains("roles.normal.fg") }
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
