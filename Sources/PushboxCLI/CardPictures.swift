import Foundation
import PushboxFetch
import PushboxIntake
import PushboxJSON
import PushboxPayload

/// `pushbox snapshot --png`: each golden's card drawn by the browser inbox's own page (its
/// `app.js` and `app.css`, embedded in the binary) in headless Chromium, and cut out of one
/// screenshot as a PNG. Chromium runs twice for all cards together: once to lay them out and
/// say where each one is (`--dump-dom`), once to take the screenshot at that height.
enum CardPictures {
    /// Where Chromium is looked for: Debian's, Ubuntu's, Google's.
    static let browsers = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
    /// A recorded picture matches when at most this share (0.1%) of its pixels differ by more than a
    /// shade (anti-aliasing moves by one).
    static let tolerance = 0.001

    /// The browser to draw with: `PUSHBOX_CHROMIUM` when set (empty: none), else the first of
    /// `browsers` installed.
    static func browser(_ environment: [String: String]) -> String? {
        if let chosen = environment["PUSHBOX_CHROMIUM"] {
            return FileManager.default.isExecutableFile(atPath: chosen) ? chosen : nil
        }
        return browsers.first(where: FileManager.default.isExecutableFile)
    }

    /// One card to draw: the rendering JSON as `render --json` gives it, with its files' paths.
    struct Card {
        var phone: String
        var language: String
        var app: String
        var profile: PreviewProfile
        var rendering: JSONValue

        /// The image the card shows: the first image attachment on an iPhone, the big picture on Android.
        var image: String? {
            let object = rendering.objectValue
            if phone == "android" { return object?["imageAttachment"]?.objectValue?["path"]?.stringValue }
            let attachments = object?["attachments"]?.arrayValue ?? []
            return attachments.lazy.compactMap(\.objectValue).first { ($0["type"]?.stringValue ?? "").hasPrefix("image/") }?["path"]?.stringValue
        }

        /// A communication notification's avatar.
        var avatar: String? { rendering.objectValue?["communication"]?.objectValue?["avatar"]?.objectValue?["path"]?.stringValue }

        var json: JSONValue {
            func file(_ path: String?) -> JSONValue { path.map { .string(URL(fileURLWithPath: $0).absoluteString) } ?? .null }
            return .object(
                JSONObject([
                    ("phone", .string(phone)), ("language", .string(language)), ("app", .string(app)), ("profile", profile.json),
                    ("rendering", rendering), ("image", file(image)), ("avatar", file(avatar)),
                ]))
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Each card as PNG bytes, in order.
    static func draw(_ cards: [Card], with chromium: String) throws -> [[UInt8]] {
        guard !cards.isEmpty else { return [] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-pictures-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = folder + "/cards.html"
        try Data(html(cards).utf8).write(to: URL(fileURLWithPath: page))
        let width = max(520, cards.map { $0.profile.sizeClass.points - 16 }.max()! + 32)
        let url = URL(fileURLWithPath: page).absoluteString
        // A profile of its own: two Chromiums on one profile (two snapshot runs at once, a
        // browser the user has open) make the second exit at once.
        let profile = "--user-data-dir=" + folder + "/chromium"
        let laidOut = try run(chromium, [profile, "--window-size=\(width),900", "--dump-dom", url])
        guard let places = places(in: laidOut), places.cards.count == cards.count else {
            throw Failure(description: "Chromium drew the cards but did not say where they are (is \(chromium) Debian's chromium?)")
        }
        let shot = folder + "/cards.png"
        _ = try run(chromium, [profile, "--window-size=\(width),\(places.height)", "--screenshot=\(shot)", url])
        guard let data = FileManager.default.contents(atPath: shot), let whole = Picture(png: Array(data)) else {
            throw Failure(description: "Chromium wrote no screenshot of the cards")
        }
        return try places.cards.map { r in
            guard let card = whole.cropped(x: r[0], y: r[1], width: r[2], height: r[3]) else {
                throw Failure(description: "a card lies outside Chromium's screenshot")
            }
            return card.png
        }
    }

    /// The page: the browser inbox's style and script, the cards' renderings as JSON, and a
    /// policy that lets nothing run or load but these and the attachments' files.
    static func html(_ cards: [Card]) -> String {
        let data = JSONWriter.compact(.array(cards.map(\.json))).replacingOccurrences(of: "<", with: "\\u003c")
        let css = WebAssets.files["app.css"]?.text ?? ""
        let js = (WebAssets.files["app.js"]?.text ?? "").replacingOccurrences(of: "</script", with: "<\\/script")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src file:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>pushbox cards</title><style>\(css)</style></head>
            <body><script type="application/json" id="pictures">\(data)</script>
            <script>\(js)</script></body></html>
            """
    }

    /// Where the page says the cards are: `{"width","height","cards":[[x,y,w,h]…]}` in `#rects`.
    static func places(in dom: String) -> (height: Int, cards: [[Int]])? {
        guard let start = dom.range(of: "<pre id=\"rects\">"), let end = dom[start.upperBound...].range(of: "</pre>") else { return nil }
        let text = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&quot;", with: "\"")
        guard let object = try? JSONParser.parse(Array(text.utf8)).objectValue, let height = object["height"]?.intValue,
            let cards = object["cards"]?.arrayValue
        else { return nil }
        let rects = cards.compactMap { $0.arrayValue?.compactMap(\.intValue) }.filter { $0.count == 4 }
        return rects.count == cards.count ? (height, rects) : nil
    }

    /// Runs headless Chromium on the page (no GPU, no sandbox: the page is pushbox's own file and
    /// loads nothing from the network) and gives its standard output.
    static func run(_ chromium: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments =
            [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--no-first-run", "--disable-extensions", "--virtual-time-budget=10000", "--lang=en-US",
            ] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(chromium) exited with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
