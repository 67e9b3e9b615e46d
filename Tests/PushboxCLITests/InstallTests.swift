import Foundation
import PushboxTestSupport
import Testing

/// `make install` into a temporary prefix, the installed binary run from another folder, and
/// `make uninstall` leaving nothing behind.
@Suite("make install")
struct InstallTests {
    static let make = Tools.find("make")

    @Test(
        "installed: the binary finds its samples and themes in share/pushbox, says its commit, has its man pages and completions; uninstalled: nothing is left",
        .enabled(if: make != nil, "needs make"))
    func installAndUninstall() throws {
        let binary = try #require(EndToEndTests.binary)
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("pbinstall-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let make = try #require(Self.make)
        let install = try Subprocess.run(
            make, ["--no-print-directory", "install-files", "PREFIX=\(prefix)", "BIN=\((binary as NSString).deletingLastPathComponent)"],
            directory: ProjectPaths.projectRoot, timeout: 120)
        try #require(install.status == 0, "\(install.out) \(install.err)")
        for file in [
            "bin/pushbox", "share/man/man1/pushbox.1", "share/man/man1/pushbox-render.1", "share/bash-completion/completions/pushbox",
            "share/zsh/site-functions/_pushbox", "share/fish/vendor_completions.d/pushbox.fish", "share/pushbox/themes/dark.json",
            "share/pushbox/sample-payloads/SampleApp/pushbox.json",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file)")
        }
        // From another folder, with nothing pointing at the project.
        var env = ProcessInfo.processInfo.environment
        env["PUSHBOX_SAMPLES"] = nil
        env["XDG_CACHE_HOME"] = prefix + "/cache"
        // Its own inbox and device, not the one of whoever runs the tests.
        env["XDG_DATA_HOME"] = prefix + "/data"
        let version = try Subprocess.run(prefix + "/bin/pushbox", ["--version"], environment: env, directory: "/")
        #expect(version.status == 0 && version.out.hasPrefix("pushbox "), "\(version.err)")
        #expect(version.out.contains("SQLite ") && version.out.contains("ICU "))
        let render = try Subprocess.run(
            prefix + "/bin/pushbox", ["render", "--json", prefix + "/share/pushbox/sample-payloads/01-game-invite.json"], environment: env,
            directory: "/")
        #expect(render.status == 0 && render.out.contains("Shelly and Rick"), "\(render.err)")
        let uninstall = try Subprocess.run(make, ["--no-print-directory", "uninstall", "PREFIX=\(prefix)"], directory: ProjectPaths.projectRoot)
        #expect(uninstall.status == 0, "\(uninstall.err)")
        let left = FileManager.default.enumerator(atPath: prefix)?.allObjects.compactMap { $0 as? String }.filter { path in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix + "/" + path, isDirectory: &isDir) && !isDir.boolValue && !path.hasPrefix("cache")
        }
        #expect(left == [], "\(left ?? [])")
    }

    @Test("--version names the library versions, each from the library itself")
    func version() {
        let run = CLIRun(["--version"])
        #expect(run.status == 0)
        let lines = run.lines
        #expect(lines.first?.hasPrefix("pushbox 0.") == true)
        for prefix in ["ICU ", "OpenSSL ", "nghttp2 ", "libcurl/", "SQLite ", "ncurses "] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "\(prefix)")
        }
    }
}
