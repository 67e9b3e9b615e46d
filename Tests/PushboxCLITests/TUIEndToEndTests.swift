import Foundation
import PushboxTestSupport
import Testing

/// The real binary in a real terminal: tmux at 120×40, driven with send-keys, read with capture-pane.
@Suite("The inbox in tmux", .serialized)
struct TUIEndToEndTests {
    final class Session {
        let name = "pbx\(UUID().uuidString.prefix(6))"
        let dir = "/tmp/pbx-\(UUID().uuidString.prefix(8))"
        var socket: String { dir + "/s.sock" }

        /// The TUI with `arguments`, started in `directory`, on `database` (default: one of its own).
        /// `config`: the user's `config.json`, written before the TUI starts.
        /// `environment`: more `NAME=value` settings for the TUI (`TZ=UTC`).
        init(arguments: [String], directory: String? = nil, database: String? = nil, config: String? = nil, environment: [String] = []) throws {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
                throw TestFailure("tmux is missing: `make test` installs it (apt-get install tmux)")
            }
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            if let config {
                try FileManager.default.createDirectory(atPath: dir + "/config/pushbox", withIntermediateDirectories: true)
                try config.write(toFile: dir + "/config/pushbox/config.json", atomically: true, encoding: .utf8)
            }
            let binary = try #require(EndToEndTests.binary)
            let command =
                [
                    "env", "XDG_CONFIG_HOME=\(dir)/config", "XDG_CACHE_HOME=\(dir)/cache", "XDG_DATA_HOME=\(dir)/data", "TERM=xterm-256color",
                ] + environment + [
                    binary,
                    "--socket", socket, "--db", database ?? dir + "/inbox.sqlite", "--listen", "off",
                ] + arguments
            // The first tmux command may start the tmux server, which would keep an output pipe
            // open for ever: this one gets no pipe (and Subprocess lets it inherit nothing else).
            try tmux(
                ["new-session", "-d", "-s", name, "-x", "120", "-y", "40"] + (directory.map { ["-c", $0] } ?? []) + [command.joined(separator: " ")],
                capture: false)
            try tmux(["set-option", "-t", name, "set-titles", "on"], capture: false)
            try tmux(["rename-window", "-t", name, "pushbox-test-title"], capture: false)
        }

        @discardableResult
        func tmux(_ args: [String], capture: Bool = true) throws -> String {
            try Subprocess.run("/usr/bin/tmux", args, captureOutput: capture, timeout: 20).out
        }

        var screen: String { (try? tmux(["capture-pane", "-t", name, "-p"])) ?? "" }

        func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys, capture: false) }

        /// Waits (up to 10 s) until the screen shows `text`.
        func waitFor(_ text: String) -> Bool { waitUntil { $0.contains(text) } }

        /// Waits (up to `seconds`) until `holds` is true of the screen.
        func waitUntil(seconds: Double = 10, _ holds: (String) -> Bool) -> Bool {
            for _ in 0..<Int(seconds * 20) {
                if holds(screen) { return true }
                usleep(50_000)
            }
            return false
        }

        func waitForExit() -> Bool {
            for _ in 0..<100 {
                if !screen.contains("pushbox ·") { return true }
                usleep(50_000)
            }
            return false
        }

        deinit {
            _ = try? tmux(["kill-session", "-t", name], capture: false)
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    func send(_ socket: String, _ file: String? = nil, stdin: String? = nil) throws {
        let run = CLIRun(["send", "--socket", socket, file ?? "-"], stdin: stdin ?? "")
        #expect(run.status == 0, "\(run.out) \(run.err)")
    }

    @Test("ko-KR, a payload appears in Korean, ] until English, an escape-laden title cannot retitle the terminal, q quits")
    func inbox() throws {
        let s = try Session(arguments: ["--lang", "ko-KR"])
        #expect(s.waitFor("한국어 (ko-KR)"), "\(s.screen)")
        // The bundled samples arrive on a first run; now one more through the socket.
        try send(s.socket, ProjectPaths.samples + "/06-alarm.json")
        #expect(s.waitFor("일어날 시간이에요"), "\(s.screen)")
        var switches = 0
        // The picker offers the app's localizations as device languages with their regions.
        while !s.screen.contains("English (en-US)") && switches < 12 {
            // Each ] is pressed only once the previous one has redrawn the header.
            let header = s.screen.split(separator: "\n").first.map(String.init) ?? ""
            try s.keys("]")
            switches += 1
            for _ in 0..<100 where (s.screen.split(separator: "\n").first.map(String.init) ?? "") == header { usleep(50_000) }
        }
        #expect(s.waitFor("English (en-US)"))
        #expect(s.waitFor("Wake up"), "\(s.screen)")
        try send(s.socket, stdin: #"{"aps":{"alert":{"title":"Evil \u001b]2;HACKED\u0007\u001b[2J title","body":"x"}}}"#)
        #expect(s.waitFor("Evil ␛]2;HACKED␇␛[2J title"), "\(s.screen)")
        let title = try s.tmux(["display-message", "-t", s.name, "-p", "#{window_name}|#{pane_title}"])
        #expect(!title.contains("HACKED"), "\(title)")
        #expect(title.hasPrefix("pushbox-test-title"))
        try s.keys("?")
        #expect(s.waitFor("choose the device language"))
        try s.keys("Escape")
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
    }

    @Test(
        "a fleet: v switches from the Korean phone to the Japanese iPhone and the Spanish Android phone, each with its own push; F shows the push on all three"
    )
    func fleetSwitchesDevices() throws {
        let dir = "/tmp/pbx-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/inbox.sqlite"
        for args in [["add", "ja", "--lang", "ja-JP"], ["add", "es", "--platform", "android", "--lang", "es-ES"]] {
            #expect(CLIRun(["device"] + args + ["--db", db]).status == 0)
        }
        let s = try Session(arguments: ["--lang", "ko-KR"], database: db)
        #expect(s.waitFor("device phone 1/3"), "\(s.screen)")
        for (topic, title) in [
            ("LangKoKR", "주문이 발송되었습니다"), ("LangJaJP", "ご注文を発送しました"), ("LangEsES", "Tu pedido ha sido enviado"), ("NewsApp", "Breaking news"),
        ] {
            let message = #"{"message":{"topic":"\#(topic)","notification":{"title":"\#(title)","body":"…"}}}"#
            let r = try Subprocess.run(
                "/usr/bin/curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", s.socket, "-H", "content-type: application/json", "--data-binary",
                    message, "http://localhost/v1/projects/shop/messages:send",
                ])
            #expect(r.out == "200", "\(r.out) \(r.err)")
        }
        #expect(s.waitFor("주문이 발송되었습니다"), "\(s.screen)")
        #expect(!s.screen.contains("ご注文を発送しました"))
        try s.keys("v")
        #expect(s.waitFor("device ja (iPhone) 2/3"), "\(s.screen)")
        #expect(s.waitFor("ご注文を発送しました") && !s.screen.contains("주문이 발송되었습니다"), "\(s.screen)")
        try s.keys("v")
        #expect(s.waitFor("device es (Android) 3/3") && s.waitFor("Tu pedido ha sido enviado"), "\(s.screen)")
        // The push all three got, on all three.
        try s.keys("g")
        #expect(s.waitFor("Breaking news"))
        try s.keys("F")
        #expect(s.waitFor("3 of 3 devices got it"), "\(s.screen)")
        #expect(s.screen.contains("ja · ja-JP · iPhone") && s.screen.contains("es · es-ES · Android"), "\(s.screen)")
        try s.keys("Escape")
        try s.keys("v")
        #expect(s.waitFor("device phone 1/3"), "\(s.screen)")
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
    }

    @Test(
        "emoji sequences and Devanagari reach the terminal whole (tmux pipe-pane), with the cursor placed after each emoji so the border keeps its column"
    )
    func clustersReachTheTerminal() throws {
        let s = try Session(arguments: [])
        #expect(s.waitFor("English"), "\(s.screen)")
        let raw = s.dir + "/raw.bin"
        try s.tmux(["pipe-pane", "-t", s.name, "-o", "cat >> \(raw)"], capture: false)
        let title = "Dinner 🍽️ 👍🏽 👨‍👩‍👧"
        let body = "नमस्ते दुनिया 🇰🇷 1️⃣ ok"
        try send(s.socket, stdin: #"{"aps":{"alert":{"title":"\#(title)","body":"\#(body)"}}}"#)
        #expect(s.waitFor("Dinner"), "\(s.screen)")
        usleep(300_000)
        let bytes = String(decoding: (FileManager.default.contents(atPath: raw) ?? Data()), as: UTF8.self)
        for cluster in ["🍽️", "👍🏽", "👨‍👩‍👧", "नमस्ते", "दुनिया", "🇰🇷", "1️⃣"] {
            #expect(bytes.contains(cluster), "\(cluster) did not reach the terminal whole")
        }
        // After each emoji sequence the cursor is placed explicitly, so however the terminal
        // measures it, the border after it lands in its column (TerminalOutputTests checks the
        // columns against a terminal that measures every emoji of a ZWJ sequence).
        for cluster in ["🍽️", "👍🏽", "👨‍👩‍👧", "🇰🇷", "1️⃣"] {
            #expect(bytes.contains(cluster + "\u{1B}["), "no cursor placement after \(cluster)")
        }
        // tmux's screen: every row of the card has its two side borders.
        let lines = s.screen.split(separator: "\n").map(String.init).filter { $0.contains("Dinner") || $0.contains("दुनिया") }
        #expect(lines.count >= 2)
        try s.keys("q")
        #expect(s.waitForExit())
    }

    @Test("--no-socket --watch DIR: the folder is watched, no socket is bound, the header says so")
    func noSocket() throws {
        let folder = "/tmp/pbx-watch-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let s = try Session(arguments: ["--no-socket", "--watch", folder])
        #expect(s.waitFor("no socket"), "\(s.screen)")
        #expect(!FileManager.default.fileExists(atPath: s.socket))
        try Data(#"{"aps":{"alert":{"title":"Dropped in","body":"watched"}}}"#.utf8).write(to: URL(fileURLWithPath: folder + "/dropped.json"))
        #expect(s.waitFor("Dropped in"), "\(s.screen)")
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
    }

    @Test("an FCM message for both phones: P shows the Android card from the app's strings.xml")
    func androidCard() throws {
        let s = try Session(arguments: ["--lang", "ko-KR"])
        #expect(s.waitFor("한국어 (ko-KR)"), "\(s.screen)")
        try send(s.socket, ProjectPaths.samples + "/12-fcm-invite-both.json")
        // The seeded samples hold a 게임 초대 of their own: the one sent is in once there are 17.
        #expect(s.waitFor("17 notifications"), "\(s.screen)")
        try s.keys("g")
        try s.keys("P")
        #expect(s.waitFor("◉ Pushbox Sample"), "\(s.screen)")
        #expect(s.waitFor("values-ko · channel invites"), "\(s.screen)")
        #expect(s.screen.contains("Game invite"))
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
    }

    @Test("A shows the samples' Live Activity: the Dynamic Island's line, the update dropped as older, the one that does not decode")
    func liveActivities() throws {
        let s = try Session(arguments: ["--lang", "en-US"])
        #expect(s.waitFor("English"), "\(s.screen)")
        try s.keys("A")
        #expect(s.waitFor("Dynamic Island: Seoul 1–0 Busan · first-half"), "\(s.screen)")
        #expect(s.screen.contains("MatchAttributes — active · island #1 · relevance 75"))
        // Further down: the late update and the undecodable one, each with its reason.
        try s.keys("J")
        try s.keys("J")
        #expect(s.waitFor("dropped: content-state-does-not-decode"), "\(s.screen)")
        try s.keys("Escape")
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
    }

    @Test("a command that fails says so in the footer: an export whose file cannot be written")
    func exportFails() throws {
        // Folders where the export files would go: writing fails even as root.
        let folder = "/tmp/pbx-ro-\(UUID().uuidString.prefix(8))"
        for id in 1...80 { try FileManager.default.createDirectory(atPath: folder + "/pushbox-\(id).apns", withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let s = try Session(arguments: [], directory: folder)
        #expect(s.waitFor("notifications"), "\(s.screen)")
        try s.keys("e")
        #expect(s.waitFor("export failed: cannot write \(folder)/pushbox-"), "\(s.screen)")
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
    }

    @Test("the alarm: scheduled just before Monday 06:10, fast-forwarded, it arrives; tapping Stop shows the deep link")
    func alarm() throws {
        // A stopped clock (speed 0): only the keys move it, however slow the machine.
        let s = try Session(arguments: ["--lang", "en-US", "--clock", "2026-12-07T06:09:50", "--tz", "UTC", "--speed", "0"])
        #expect(s.waitFor("clock Mon 2026-12-07 06:09:50 ×0"), "\(s.screen)")
        let scheduled = CLIRun(["schedule", "--socket", s.socket, ProjectPaths.samples + "/schedules/alarm.json"])
        #expect(scheduled.status == 0, "\(scheduled.err)")
        #expect(s.waitFor("12/64 scheduled"), "\(s.screen)")
        try s.keys("s")
        #expect(s.waitFor("alarm-2-0 "), "\(s.screen)")
        #expect(s.screen.contains("every Monday 06:10:00"))
        try s.keys("+")  // one minute on: 06:10:00 … 06:10:50 fire
        #expect(s.waitFor("device clock Mon 2026-12-07 06:10:50 ×0 · 12/64 pending · 11 delivered"), "\(s.screen)")
        try s.keys("Escape")
        #expect(s.waitFor("L  Wake up — Your 06:10 alarm is ring"), "\(s.screen)")
        // The alarms arrive as one thread; all 11 must be in the list before moving to the newest.
        #expect(s.waitFor("▾ alarm (11)"), "\(s.screen)")
        try s.keys("j")  // from the thread's header to its newest alarm
        try s.keys("o")
        #expect(s.waitFor("local notification request alarm-2-50"), "\(s.screen)")
        try s.keys("Escape")
        try s.keys("a")  // the first of the ALARM category's actions: Stop
        #expect(s.waitFor("actionIdentifier: STOP (destructive)"), "\(s.screen)")
        #expect(s.screen.contains("deep link: pushboxsample://alarm/2/0610"))
        try s.keys("Escape")
        try s.keys("Tab")  // the trace logs what the app received
        #expect(s.waitFor("actionIdentifier STOP"), "\(s.screen)")
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
    }

    @Test(
        "times on the device's clock: on a UTC host, a push and a fired alarm are listed at the Seoul device clock's 06:09 and 06:10, in the inbox and by list"
    )
    func deviceClockTimes() throws {
        let s = try Session(
            arguments: ["--lang", "en-US", "--clock", "2026-12-07T06:09:50", "--tz", "Asia/Seoul", "--speed", "0"], environment: ["TZ=UTC"])
        #expect(s.waitFor("clock Mon 2026-12-07 06:09:50 ×0"), "\(s.screen)")
        try send(s.socket, stdin: #"{"aps":{"alert":{"title":"Clock check","body":"now"}}}"#)
        #expect(s.waitFor("Clock check"), "\(s.screen)")
        #expect(s.screen.split(separator: "\n").contains { $0.contains("06:09") && $0.contains("Clock check") }, "\(s.screen)")
        let scheduled = CLIRun(["schedule", "--socket", s.socket, ProjectPaths.samples + "/schedules/alarm.json"])
        #expect(scheduled.status == 0, "\(scheduled.err)")
        try s.keys("+")  // one minute on: the Monday 06:10 alarms fire
        #expect(s.waitFor("▾ alarm ("), "\(s.screen)")
        try s.keys("Enter")  // open the thread
        #expect(s.waitUntil { $0.split(separator: "\n").contains { $0.contains("06:10") && $0.contains("Wake up") } }, "\(s.screen)")
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
        // list: each row at the device's time, in the zone the device was in.
        let list = CLIRun(["list", "--db", s.dir + "/inbox.sqlite", "--history"])
        let lines = list.out.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("2026-12-07 06:09:50") && $0.contains("Clock check") }, "\(list.out)")
        #expect(lines.contains { $0.hasPrefix("2026-12-07 06:10:00") && $0.contains("Wake up") }, "\(list.out)")
        let json = CLIRun(["list", "--db", s.dir + "/inbox.sqlite", "--json", "--limit", "200"])
        #expect(json.out.contains(#""deviceTime":"2026-12-07T06:09:50.000+09:00""#), "\(json.out.prefix(400))")
    }

    @Test("in tmux 3.3: after a Hindi card, an emoji card keeps its skin tones and nothing of the Hindi text beside its emoji (capture-pane)")
    func emojiAfterHindiInTmux() throws {
        let s = try Session(arguments: ["--lang", "en-US"])
        #expect(s.waitFor("English"), "\(s.screen)")
        try send(s.socket, stdin: #"{"aps":{"alert":{"title":"Hindi नमस्ते","body":"नमस्ते दुनिया देखो हिन्दी पाठ नमस्ते दुनिया देखो हिन्दी पाठ"}}}"#)
        #expect(s.waitFor("Hindi नमस्ते"), "\(s.screen)")
        try send(s.socket, stdin: #"{"aps":{"alert":{"title":"Emoji 👋🏽","body":"👋🏽 🏳️‍🌈 1️⃣ 🇰🇷 ok 👋🏽👋🏽 🏳️‍🌈🏳️‍🌈 1️⃣1️⃣ done"}}}"#)
        #expect(s.waitFor("Emoji"), "\(s.screen)")
        try s.keys("g")  // the newest, the emoji card; the Hindi one is below it
        try s.keys("j")
        #expect(s.waitUntil { $0.contains("│ Hindi नमस्ते") }, "\(s.screen)")
        try s.keys("k")
        #expect(s.waitUntil { $0.contains("│ Emoji 👋🏽") }, "\(s.screen)")
        let devanagari = { (line: Substring) in line.unicodeScalars.contains { (0x0900...0x097F).contains($0.value) } }
        let lines = s.screen.split(separator: "\n")
        #expect(lines.contains { $0.contains("👋🏽 🏳️‍🌈 1️⃣ 🇰🇷 ok 👋🏽👋🏽") }, "\(s.screen)")
        for line in lines where line.contains("🏳️‍🌈") || line.contains("1️⃣") { #expect(!devanagari(line), "\(line)") }
        try s.keys("q")
        #expect(s.waitForExit(), "\(s.screen)")
    }
}
