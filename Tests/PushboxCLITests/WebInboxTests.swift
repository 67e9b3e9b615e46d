import Foundation
import PushboxFetch
import PushboxIntake
import PushboxJSON
import PushboxTestSupport
import Testing

/// The inbox in a browser: the page and its files served from the binary with a policy that
/// allows nothing from elsewhere; driven in Debian's Chromium by Selenium (pushes appear live,
/// hostile text stays text, the language switch, the search).
@Suite("The inbox in a browser", .serialized)
struct WebInboxTests {
    static var browserReady: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && ProviderLibraryTests.venvReady("web")
    }

    @Test("the embedded files are web/'s as they are now (make web writes them)")
    func embeddedFilesAreCurrent() throws {
        let folder = ProjectPaths.projectRoot + "/web"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == WebAssets.files.keys.sorted())
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            let expected = text.hasSuffix("\n") ? String(text.dropLast()) : text
            #expect(WebAssets.files[name]?.text == expected, "\(name) changed: run make web")
        }
    }

    @Test("GET / on the port: the page with a policy that allows nothing from elsewhere; a rebound Host is refused")
    func servedWithItsPolicy() throws {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let page = try Subprocess.run("/usr/bin/curl", ["-s", "-D", "-", "http://127.0.0.1:\(s.port)/"])
        #expect(page.out.lowercased().contains("content-security-policy: default-src 'none'; script-src 'self'"), "\(page.out.prefix(600))")
        #expect(page.out.contains("<script src=\"/web/app.js\" defer></script>"))
        let script = try Subprocess.run(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{content_type}", "http://127.0.0.1:\(s.port)/web/app.js"])
        #expect(script.out == "200 text/javascript; charset=utf-8")
        let rebound = try Subprocess.run(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: attacker.example", "http://127.0.0.1:\(s.port)/"])
        #expect(rebound.out == "403")
        let missing = try Subprocess.run(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(s.port)/web/nothing.js"])
        #expect(missing.out == "404")
        // What the app receives: nothing to tap on a refused push; no such action on a delivered one.
        let socket = s.dir + "/s.sock"
        for (id, topic) in [
            ("11111111-1111-1111-1111-111111111111", "com.example.other"), ("22222222-2222-2222-2222-222222222222", "dev.pushbox.sample"),
        ] {
            _ = try Subprocess.run(
                "/usr/bin/curl",
                [
                    "-s", "--unix-socket", socket, "-H", "apns-topic: \(topic)", "-H", "apns-id: \(id)", "--data-binary", #"{"aps":{"alert":"x"}}"#,
                    "http://localhost/3/device/5e1ec7ed" + String(repeating: "0", count: 56),
                ])
        }
        func response(_ path: String) throws -> (status: Int, body: JSONObject) {
            try APIv1Tests.curl(["--unix-socket", socket, "http://localhost/api/v1/notifications/" + path])
        }
        #expect(try response("11111111-1111-1111-1111-111111111111/response").body["error"] == "NotDelivered")
        #expect(try response("22222222-2222-2222-2222-222222222222/response?action=NOPE").status == 404)
        let tap = try response("22222222-2222-2222-2222-222222222222/response")
        #expect(
            tap.status == 200 && tap.body["actionIdentifier"] == "com.apple.UNNotificationDefaultActionIdentifier"
                && tap.body["opensApp"] == .bool(true))
        // pushbox web asks the running pushbox where its page is.
        let web = CLIRun(["web", "--socket", s.dir + "/s.sock", "--no-open"])
        #expect(web.status == 0 && web.out == "http://127.0.0.1:\(s.port)/\n", "\(web.out) \(web.err)")
        #expect(CLIRun(["web", "--socket", s.dir + "/nobody.sock", "--no-open"]).status == 2)
    }

    @Test(
        "in Chromium: no console error, pushes appear live, an image at its size, hostile text runs nothing, delete, Korean, the search, keyboard, labels, contrast",
        .enabled(if: browserReady, "needs Debian's chromium and chromium-driver and the selenium venv (make test installs them)"))
    func inChromium() throws {
        let s = try ProviderLibraryTests.PortServed()
        s.runsExtension = true
        #expect(CLIRun(["device", "add", "pixel", "--platform", "android", "--lang", "de-DE", "--db", s.db]).status == 0)
        try s.start()
        let r = try Subprocess.run(
            ProviderLibraryTests.venvPython("web"),
            [
                ProviderLibraryTests.clients + "/web_inbox_selenium.py", "http://127.0.0.1:\(s.port)", s.dir + "/s.sock",
                ProjectPaths.samples + "/media/lighthouse.png", s.dir,
            ], timeout: 120)
        #expect(
            r.out.split(separator: "\n").map(String.init) == [
                "appeared True", "image [320, 200]", "hostile True", "no stray image True", "deleted True", "korean True", "matrix True True",
                "card in German ko-KR", "profiles [['2', 2], ['none', 2], ['4', 2]]",
                "focus silenced by Focus · sound none",
                "summary ['Upcoming Summary · 00:00 (2)', 'Held high', 'Held low']",
                "accept ACCEPT True 12345678 pushboxsample://game/12345678",
                "tap com.apple.UNNotificationDefaultActionIdentifier",
                "payload True True", "android Breaking False rgb(255, 0, 0)",
                "fleet [['phone', 'ios'], ['pixel', 'android']]", "pixel 1 ko-KR", "activity True True", "search 1",
                "tab order ['query', 'device-name', 'language', 'online', 'clear', 'a list item']", "unlabelled 0", "contrast AA True",
                "console errors 0 []",
            ], "\(r.out) \(r.err)")
        // The card in German and the matrix, as pictures, against those recorded on this kind of machine.
        for name in ["card", "matrix"] {
            let drawn = try #require(FileManager.default.contents(atPath: s.dir + "/\(name).png").flatMap { Picture(png: Array($0)) })
            let reference = SnapshotCommandTests.recordedPictures + "/web-\(name).png"
            if ProcessInfo.processInfo.environment["PUSHBOX_RECORD_PICTURES"] == "1" {
                try Data(drawn.png).write(to: URL(fileURLWithPath: reference))
                Issue.record("recorded \(reference): run again without PUSHBOX_RECORD_PICTURES")
                continue
            }
            let expected = try #require(FileManager.default.contents(atPath: reference).flatMap { Picture(png: Array($0)) }, "\(reference)")
            let difference = drawn.difference(from: expected)
            if !difference.within(0.001) {
                // The picture drawn now, to look at beside the recorded one.
                let now = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-web-\(name).png").path
                try? Data(drawn.png).write(to: URL(fileURLWithPath: now))
                Issue.record("\(name): \(difference); drawn now: \(now), recorded: \(reference)")
            }
        }
    }
}
