import Foundation
import PushboxDevice
import PushboxFetch
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering
import PushboxStore

/// One entry point per parser, for libFuzzer (`make fuzz`) and for the normal suite, which
/// replays every kept input. A target never throws or traps on any input: it calls the parser,
/// uses what comes back, and ignores refusals, which are what bad input is supposed to get.
public enum FuzzTargets {
    /// Every parser's fuzz target by name, as `pushbox-fuzz` and the tests run them.
    public static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("json", json), ("payload", payload), ("fcm-condition", condition), ("strings", strings), ("stringsdict", stringsdict),
        ("xcstrings", xcstrings), ("format", format), ("schedule", schedule), ("profile", profile), ("http", http),
        ("provider-token", providerToken), ("oauth", oauth), ("port-sniff", portSniff), ("strings-xml", stringsXML),
        ("java-format", javaFormat), ("live-activity", liveActivity), ("query", query), ("image", image),
        ("chaos-rule", chaosRule),
    ]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> (@Sendable ([UInt8]) -> Void)? { all.first { $0.name == name }?.run }

    /// The first line and the rest, for targets that take two inputs.
    static func split(_ data: [UInt8]) -> (String, [UInt8]) {
        guard let newline = data.firstIndex(of: 0x0A) else { return (String(decoding: data, as: UTF8.self), []) }
        return (String(decoding: data[..<newline], as: UTF8.self), Array(data[(newline + 1)...]))
    }

    /// A Live Activity: the first line a schema (the ContentState's type as a profile declares
    /// it), the rest a payload's `aps`; the push is applied to a book with a start before it, and
    /// its content decoded with the schema under every date strategy.
    static func liveActivity(_ data: [UInt8]) {
        let (line, body) = split(data)
        guard let aps = (try? JSONParser.parse(body))?.objectValue else { return }
        var profile = LiveActivityProfile()
        var schema = ActivityTypeSchema(name: "Fuzz")
        if let declared = try? JSONParser.parse(Array(line.utf8)), case .success(let type) = SchemaType.parse(declared) {
            schema.contentState = type
            for dates in DateDecoding.allCases { _ = ContentDecoder.decode(.object(aps), as: type, root: "state", dates: dates) }
        }
        profile.types["Fuzz"] = schema
        var book = ActivityBook()
        let started = book.startLocally(
            type: "Fuzz", attributes: .object(JSONObject()), state: .object(JSONObject()), now: 1_800_000_000, profile: profile)
        let push = LiveActivityPush(aps: aps)
        let token = push.event == .start ? ActivityBook.pushToStartToken : started.pushToken ?? ""
        _ = book.apply(ActivityDelivery(push: push, token: token, now: 1_800_000_100), profile: profile).json
        _ = ActivityBook(json: book.json)
        _ = book.activities.first?.line("{attributes.a} {state.b.c}")
    }

    static func json(_ data: [UInt8]) {
        if let value = try? JSONParser.parse(data) { _ = JSONWriter.compact(value) }
    }

    /// The body as an APNs payload, a Simulator file or an FCM message, with headers from the
    /// first line (`name: value` pairs separated by `;`), validated and rendered.
    static func payload(_ data: [UInt8]) {
        let (line, body) = split(data)
        var headers = PushHeaders()
        for field in line.split(separator: ";") { if let (n, v) = PushHeaders.parseField(String(field)) { headers.add(n, v) } }
        let raw = RawPayload(bytes: body, envelope: Envelope(source: .socket, headers: headers, deviceToken: String(repeating: "ab", count: 32)))
        let context = ValidationContext(bundleID: "dev.pushbox.sample", deviceTopics: ["NewsApp", "LangEnUS"])
        let report = Validator.validate(raw, context: context)
        _ = Renderer(context: context, preferredLanguages: ["en"]).render(raw, validated: report).json
    }

    static func condition(_ data: [UInt8]) {
        if let c = try? TopicCondition.parse(String(decoding: data, as: UTF8.self)) { _ = c.explain(["A", "NewsApp"]) }
    }

    static func strings(_ data: [UInt8]) {
        _ = try? StringsFileReader.readStrings(data, file: "fuzz.strings")
    }

    /// A `.stringsdict` read and every rule expanded with the first line's arguments.
    static func stringsdict(_ data: [UInt8]) {
        let (line, body) = split(data)
        guard let (rules, _) = try? StringsFileReader.readStringsDict(body, file: "fuzz.stringsdict") else { return }
        let args = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let expander = RuleExpander(plural: PluralRules.forLanguage("ru"))
        for rule in rules.values {
            var warnings: [Diagnostic] = []
            let format = expander.expand(rule, args: args, warnings: &warnings)
            _ = FormatRenderer().render(format, args, warnings: &warnings)
        }
    }

    static func xcstrings(_ data: [UInt8]) {
        guard let catalog = try? XCStringsCatalog(data, file: "fuzz.xcstrings") else { return }
        for language in catalog.languages.prefix(4) { _ = catalog.table(for: language) }
    }

    /// A format (first line) filled with arguments (the rest, one per line), in a locale with
    /// its own digits.
    static func format(_ data: [UInt8]) {
        let (format, rest) = split(data)
        let args = String(decoding: rest, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var warnings: [Diagnostic] = []
        _ = FormatRenderer(numbers: NumberFormatterICU.forLanguage("ar-EG")).render(format, args, warnings: &warnings)
    }

    /// A `strings.xml` as AAPT2 reads it, each string pseudo-localized both ways.
    static func stringsXML(_ data: [UInt8]) {
        let file = AndroidStringsReader.read(data, path: "fuzz/values/strings.xml")
        for s in file.strings {
            guard let text = s.text else { continue }
            _ = AndroidPseudolocalizer.localize(text, .accent, untranslatable: s.untranslatable)
            _ = AndroidPseudolocalizer.localize(text, .bidi, untranslatable: s.untranslatable)
            _ = JavaFormat.arguments(text)
        }
    }

    /// A Java format (first line) with string arguments (the rest, one per line), as an app
    /// formats an FCM message's loc args.
    static func javaFormat(_ data: [UInt8]) {
        let (format, rest) = split(data)
        let args = String(decoding: rest, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        _ = JavaFormat.format(format, args, locale: Locale(identifier: "tr"))
        _ = JavaFormat.verifiesNonPositional(format)
    }

    /// The notification query language: read, then matched against a notification.
    static func query(_ data: [UInt8]) {
        guard let q = try? NotificationQuery(String(decoding: data, as: UTF8.self)) else { return }
        var subject = QuerySubject(
            device: "phone", platform: "ios", delivery: "delivered", source: "socket", time: Date(timeIntervalSince1970: 1_800_000_000))
        subject.title = "주문이 발송되었습니다"
        subject.body = "Your order has shipped"
        subject.language = "ko"
        subject.status = 200
        _ = q.matches(subject, now: Date(timeIntervalSince1970: 1_800_000_600))
    }

    /// A chaos rule as `pushbox chaos add`, `--chaos` and `PUT /api/v1/chaos` take it: read,
    /// written back and read again to the same rule, and judged against a request.
    static func chaosRule(_ data: [UInt8]) {
        guard let rule = try? ChaosRule.parse(String(decoding: data, as: UTF8.self), randomSeed: { 1 }) else { return }
        guard let again = try? ChaosRule.parse(rule.text), again == rule else {
            fatalError("a chaos rule written back does not read the same: \(rule.text)")
        }
        let book = ChaosBook()
        book.add(rule)
        var request = ChaosRequest(service: "fcm")
        request.token = "t"
        request.topic = "news"
        _ = book.decide(request)
        request.service = "apns"
        _ = book.decide(request)
    }

    /// An attachment's or a screenshot's bytes: the header read, decoded within the pixel cap,
    /// cut, written back as PNG and compared with itself.
    static func image(_ data: [UInt8]) {
        // What the header says is checked first, as the attachment path does; decoding is kept
        // to 4 megapixels here, under libFuzzer's 256 MB for one allocation.
        guard let size = ImageInfo.size(of: data), size.width * size.height <= 4_000_000, let picture = Picture(png: data) else { return }
        guard let cut = picture.cropped(x: 1, y: 1, width: picture.width / 2 + 1, height: picture.height / 2 + 1) else { return }
        guard let again = Picture(png: cut.png), again.difference(from: cut).differingPixels == 0 else {
            fatalError("a PNG written by Picture does not decode to its pixels")
        }
    }

    static func schedule(_ data: [UInt8]) {
        _ = try? ScheduleFile.parse(data)
    }

    static func profile(_ data: [UInt8]) {
        _ = try? AppProfile.parse(data, directory: "/nonexistent/pushbox-fuzz-app")
    }

    /// The folder of the http target's store: one per process, removed when the process exits.
    static let storeDirectory = NSTemporaryDirectory() + "pushbox-fuzz-\(getpid())"

    /// A store in a folder of its own, made once per process (a file, so SQLite's cache bounds
    /// its memory however many inputs are accepted).
    static let endpoint: APIRouter? = {
        let dir = storeDirectory
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FuzzTargets.storeDirectory) }
        guard let store = try? InboxStore(path: dir + "/inbox.sqlite") else { return nil }
        let service = IntakeService(
            store: store, context: ValidationContext(bundleID: "dev.pushbox.sample", deviceTopics: ["NewsApp"]), renderings: nil)
        // The device's registration, so FCM's topic API and the Instance ID calls reach their parsers.
        service.phone.registrationFile = DeviceRegistrationFile(databasePath: store.path)
        return APIRouter(service: service)
    }()

    /// A request as the servers hand it over: `METHOD PATH`, header lines, a blank line, the body.
    static func http(_ data: [UInt8]) {
        guard let endpoint else { return }
        let text = String(decoding: data.prefix(8192), as: UTF8.self)
        let parts = text.components(separatedBy: "\n\n")
        var lines = parts[0].split(separator: "\n").map(String.init)
        guard !lines.isEmpty else { return }
        let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let headers = lines.compactMap { PushHeaders.parseField($0) }.map { (name: $0.0.lowercased(), value: $0.1) }
        let head = RequestHead(
            method: requestLine.first ?? "POST", path: requestLine.count > 1 ? requestLine[1] : "/",
            headers: headers,
            connection: ConnectionInfo(listener: "fuzz", protocolName: "h2", tls: true, requiresAuth: data.first.map { $0 & 1 == 1 } ?? false))
        let early = endpoint.early(head)
        guard early.response == nil else { return }
        let body = Array(data.dropFirst(min(data.count, parts[0].utf8.count + 2)).prefix(early.maxBody))
        _ = endpoint.handle(HTTPRequest(method: head.method, path: head.path, headers: head.headers, body: body))
    }

    static func providerToken(_ data: [UInt8]) {
        _ = ProviderToken.fromAuthorization(String(decoding: data, as: UTF8.self))
    }

    static func oauth(_ data: [UInt8]) {
        let form = FormBody.parse(data)
        if let assertion = form["assertion"], case .success(let a) = OAuthAssertion.parse(assertion) {
            _ = a.checkClaims(now: 1_800_000_000) { _ in true }
        }
        _ = OAuthAssertion.parse(String(decoding: data, as: UTF8.self))
    }

    static func portSniff(_ data: [UInt8]) {
        _ = PortListener.classify(Array(data.prefix(24)))
        _ = PortListener.hostAndPort(String(decoding: data, as: UTF8.self))
    }
}
