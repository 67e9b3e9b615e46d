import Foundation
import PushboxTestSupport
import PushboxUI
import Testing

@testable import PushboxCLI

@Suite("Theme files")
struct ThemeFilesTests {
    static var themesFolder: String { ProjectPaths.projectRoot + "/themes" }

    @Test("a user theme replaces a bundled one of the same name; a broken one is reported and the rest load")
    func userThemes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-themes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{"roles": {"normal": {"fg": "bright-green"}}}"#.write(toFile: dir + "/dark.json", atomically: true, encoding: .utf8)
        try #"{"roles": {"selcted": {}}}"#.write(toFile: dir + "/broken.json", atomically: true, encoding: .utf8)
        let available = ThemeFiles.available(in: [Self.themesFolder, dir])
        #expect(available["dark"] == dir + "/dark.json")
        #expect(available["light"] == Self.themesFolder + "/light.json")
        let (themes, problems) = ThemeFiles.loadAll(in: [Self.themesFolder, dir])
        #expect(Set(themes.keys) == ["dark", "light", "high-contrast", "ios"])
        #expect(themes["dark"]?.style(.normal).foreground == .ansi(10))
        #expect(problems.count == 1 && problems[0].hasPrefix("theme broken not loaded:") && problems[0].contains("roles.selcted: unknown role"))
    }
}
