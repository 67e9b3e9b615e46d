import Foundation

/// One query language for notifications, used by the API, `pushbox list --query` and the
/// inbox's search: free words and `"exact phrases"` (title, subtitle and body as the device shows
/// them), `field:value` terms, `-` before a term to negate it, every term required.
///
///     order shipped lang:ko -status:200 after:10m has:attachment "주문이 발송"
public struct NotificationQuery: Sendable, Equatable {
    /// The fields a term can name.
    public enum Field: String, Sendable, CaseIterable {
        case title, subtitle, body, topic, token, device, platform, lang, category, thread, collapse, status, reason, delivery, source, type,
            has, before, after

        /// What the field matches and an example: the query reference is generated from it.
        public var meaning: String {
            switch self {
            case .title: "the title as the device shows it contains the value (`title:order`)"
            case .subtitle: "the subtitle as shown contains the value"
            case .body: "the body as shown contains the value (`body:\"on its way\"`)"
            case .topic: "the `apns-topic` (or FCM target) contains the value (`topic:dev.pushbox.sample`)"
            case .token: "the device token contains the value"
            case .device: "the fleet's device, by name (`device:phone`, the default one)"
            case .platform: "`ios` or `android`"
            case .lang: "the rendering's language, the tag or a parent of it (`lang:ko` matches ko-KR)"
            case .category: "the category identifier contains the value"
            case .thread: "the thread identifier contains the value"
            case .collapse: "the collapse identifier contains the value"
            case .status: "the HTTP status answered, exactly or by class (`status:410`, `-status:200`, `status:4xx`)"
            case .reason: "the refusal's reason contains the value (`reason:BadDeviceToken`)"
            case .delivery: "what became of it: `\(NotificationQuery.deliveries.joined(separator: "`, `"))`"
            case .source: "how it arrived: `\(PayloadSource.allCases.map(\.rawValue).joined(separator: "`, `"))`"
            case .type: "the push type: `\(PushType.allCases.map(\.rawValue).joined(separator: "`, `"))`"
            case .has: "`\(NotificationQuery.hasValues.joined(separator: "`, `"))`"
            case .before: "received before a time (`2026-12-04`, `2026-12-04T09:30`, `…Z`) or an age (`30s`, `10m`, `2h`, `3d`)"
            case .after: "received after a time or an age (`after:10m`: in the last ten minutes)"
            }
        }
    }

    /// One term: what it matches, and whether it is negated.
    public struct Term: Sendable, Equatable {
        /// The test.
        public var test: Test
        /// `-term`: the notification must not match.
        public var negated: Bool
    }

    /// What one term tests.
    public enum Test: Sendable, Equatable {
        /// A word or phrase in the title, subtitle or body.
        case text(String)
        /// A text field containing the value (case-insensitively).
        case contains(Field, String)
        /// A field equal to the value (case-insensitively): device, platform, source, type, delivery.
        case equals(Field, String)
        /// The language of the rendering: the tag or one of its parents (`lang:ko` is `ko-KR`'s).
        case language(String)
        /// The status, exactly (`404`) or its class (`4xx`).
        case status(Int, wholeClass: Bool)
        /// `has:attachment`, `has:warning`.
        case has(String)
        /// Received before or after a time (a relative one is resolved when matched).
        case time(before: Bool, TimePoint)
    }

    /// A point in time as a query gives it.
    public enum TimePoint: Sendable, Equatable {
        /// An absolute time.
        case absolute(Date)
        /// So long before now (`10m`: 600 seconds).
        case ago(TimeInterval)
    }

    /// Why a query cannot be read, with where: what the API answers 400 for and `list` exits 2 for.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// A stable code.
        public enum Code: String, Sendable, CaseIterable {
            case unknownField = "unknown-query-field"
            case badValue = "bad-query-value"
            case unterminatedQuote = "unterminated-quote"
            case emptyTerm = "empty-query-term"
        }
        /// Which.
        public var code: Code
        /// The character offset of the term, from 0.
        public var offset: Int
        /// What is wrong, and what would be right.
        public var message: String
        /// `query at 7: …`.
        public var description: String { "query at \(offset + 1): \(message)" }
    }

    /// The terms, every one required.
    public var terms: [Term]

    /// The values `delivery:` takes.
    public static let deliveries = ["delivered", "stored", "discarded", "refused", "not-targeted"]
    /// The values `has:` takes.
    public static let hasValues = ["attachment", "warning"]
    /// The longest query read (an API query string is bounded).
    public static let maxLength = 2048

    /// Reads a query; an empty one matches everything.
    public init(_ text: String) throws(ParseError) {
        guard text.count <= Self.maxLength else {
            throw ParseError(code: .badValue, offset: Self.maxLength, message: "a query is at most \(Self.maxLength) characters")
        }
        terms = []
        for (offset, raw) in try Self.split(text) { terms.append(try Self.term(raw, offset: offset)) }
    }

    /// The terms' texts with their offsets: split at spaces outside double quotes.
    static func split(_ text: String) throws(ParseError) -> [(Int, String)] {
        var out: [(Int, String)] = []
        var current = ""
        var start = 0
        var quoted = false
        var quoteAt = 0
        for (i, c) in text.enumerated() {
            if c == "\"" {
                quoted.toggle()
                if quoted { quoteAt = i }
            }
            if !quoted && c.isWhitespace {
                if !current.isEmpty { out.append((start, current)) }
                current = ""
                continue
            }
            if current.isEmpty { start = i }
            current.append(c)
        }
        if quoted { throw ParseError(code: .unterminatedQuote, offset: quoteAt, message: "the quote opened here is never closed") }
        if !current.isEmpty { out.append((start, current)) }
        return out
    }

    /// One term's text read.
    static func term(_ raw: String, offset: Int) throws(ParseError) -> Term {
        var text = Substring(raw)
        let negated = text.hasPrefix("-") && text.count > 1
        if negated { text = text.dropFirst() }
        func unquote(_ s: Substring) -> String {
            s.count >= 2 && s.hasPrefix("\"") && s.hasSuffix("\"") ? String(s.dropFirst().dropLast()) : String(s)
        }
        guard let colon = text.firstIndex(of: ":"), !text.hasPrefix("\""), text[..<colon].allSatisfy({ $0.isLetter }), colon != text.startIndex
        else {
            let word = unquote(text)
            guard !word.isEmpty else { throw ParseError(code: .emptyTerm, offset: offset, message: "an empty phrase matches nothing useful") }
            return Term(test: .text(word), negated: negated)
        }
        let name = text[..<colon].lowercased()
        guard let field = Field(rawValue: name) else {
            throw ParseError(
                code: .unknownField, offset: offset,
                message: "no field \(name): (the fields are \(Field.allCases.map { $0.rawValue + ":" }.joined(separator: " ")))")
        }
        let value = unquote(text[text.index(after: colon)...])
        func bad(_ why: String) -> ParseError { ParseError(code: .badValue, offset: offset, message: "\(name):\(value): \(why)") }
        guard !value.isEmpty else { throw bad("give a value") }
        let test: Test
        switch field {
        case .title, .subtitle, .body, .topic, .token, .category, .thread, .collapse, .reason: test = .contains(field, value)
        case .device, .source: test = .equals(field, value)
        case .type: test = .equals(field, value.lowercased())
        case .platform:
            guard ["ios", "android"].contains(value.lowercased()) else { throw bad("ios or android") }
            test = .equals(field, value.lowercased())
        case .delivery:
            guard deliveries.contains(value.lowercased()) else { throw bad("one of \(deliveries.joined(separator: ", "))") }
            test = .equals(field, value.lowercased())
        case .lang: test = .language(value)
        case .status:
            if value.count == 3, let first = value.first?.wholeNumberValue, value.lowercased().hasSuffix("xx") {
                test = .status(first * 100, wholeClass: true)
            } else if let code = Int(value), (100...599).contains(code) {
                test = .status(code, wholeClass: false)
            } else {
                throw bad("a status such as 200, 410 or 4xx")
            }
        case .has:
            guard hasValues.contains(value.lowercased()) else { throw bad("has:attachment or has:warning") }
            test = .has(value.lowercased())
        case .before, .after:
            guard let point = timePoint(value) else {
                throw bad("a time (2026-12-04, 2026-12-04T09:30, 2026-12-04T09:30:00Z) or an age (30s, 10m, 2h, 3d)")
            }
            test = .time(before: field == .before, point)
        }
        return Term(test: test, negated: negated)
    }

    /// `10m`, `2h`: an age; an ISO 8601 date or time (in UTC unless it says otherwise).
    static func timePoint(_ text: String) -> TimePoint? {
        if let unit = text.last, let n = Double(text.dropLast()), n >= 0 {
            let seconds: Double? = ["s": 1, "m": 60, "h": 3600, "d": 86400][String(unit)]
            if let seconds { return .ago(n * seconds) }
        }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd"] {
            f.dateFormat = format
            if let d = f.date(from: text) { return .absolute(d) }
        }
        return nil
    }
}

/// A notification as a query sees it: the texts the device shows and what was recorded of it.
public struct QuerySubject: Sendable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var topic: String?
    public var token: String?
    /// The device of the fleet (`phone` for the default one).
    public var device: String
    /// `ios` or `android` (the default device: `ios`).
    public var platform: String
    /// The language of the rendering (`ko`), when localized.
    public var language: String?
    public var category: String?
    public var thread: String?
    public var collapse: String?
    public var status: Int?
    public var reason: String?
    /// delivered, stored, discarded, refused or not-targeted.
    public var delivery: String
    public var source: String
    /// The push type (`alert`, `background`, `liveactivity`, …; `local` for a local notification).
    public var pushType: String?
    public var hasAttachment = false
    public var hasWarning = false
    /// When it arrived.
    public var time: Date

    /// A subject with what every notification has.
    public init(device: String, platform: String, delivery: String, source: String, time: Date) {
        self.device = device
        self.platform = platform
        self.delivery = delivery
        self.source = source
        self.time = time
    }
}

extension QuerySubject {
    /// Where a notification stands, in `delivery:`'s words: refused (not answered 200),
    /// not-targeted (not meant for its device), stored, discarded, else delivered.
    public static func delivery(status: Int?, notTargeted: Bool, state: DeliveryState?) -> String {
        if (status ?? 200) != 200 { return "refused" }
        if notTargeted { return "not-targeted" }
        switch state {
        case .stored?: return "stored"
        case .discardedExpired?, .discardedReplaced?: return "discarded"
        default: return "delivered"
        }
    }
}

extension NotificationQuery {
    /// Whether `subject` passes every term at `now` (relative times are counted from it).
    public func matches(_ subject: QuerySubject, now: Date = Date()) -> Bool {
        terms.allSatisfy { $0.negated != Self.passes($0.test, subject, now: now) }
    }

    /// Whether `subject` passes every term, its free words tested by `word` instead of against the
    /// title, subtitle and body (the inbox's search finds words anywhere in a notification).
    public func matches(_ subject: QuerySubject, now: Date = Date(), word: (String) -> Bool) -> Bool {
        terms.allSatisfy { term in
            if case .text(let text) = term.test { return term.negated != word(text) }
            return term.negated != Self.passes(term.test, subject, now: now)
        }
    }

    /// Whether a term reads what only a rendering says (the texts as shown, their language, the
    /// category, attachments and warnings); a query that does not is matched on the stored row alone.
    public var needsRendering: Bool {
        terms.contains { term in
            switch term.test {
            case .text, .language, .has: return true
            case .contains(let field, _): return [.title, .subtitle, .body, .category].contains(field)
            case .equals(let field, _): return field == .delivery
            case .status, .time: return false
            }
        }
    }

    /// Whether the query has no terms (it matches everything).
    public var isEmpty: Bool { terms.isEmpty }

    static func passes(_ test: Test, _ s: QuerySubject, now: Date) -> Bool {
        func has(_ value: String?, _ part: String) -> Bool { value?.localizedCaseInsensitiveContains(part) ?? false }
        switch test {
        case .text(let word): return has(s.title, word) || has(s.subtitle, word) || has(s.body, word)
        case .contains(let field, let value):
            switch field {
            case .title: return has(s.title, value)
            case .subtitle: return has(s.subtitle, value)
            case .body: return has(s.body, value)
            case .topic: return has(s.topic, value)
            case .token: return has(s.token, value)
            case .category: return has(s.category, value)
            case .thread: return has(s.thread, value)
            case .collapse: return has(s.collapse, value)
            default: return has(s.reason, value)
            }
        case .equals(let field, let value):
            let actual: String? =
                switch field {
                case .device: s.device
                case .platform: s.platform
                case .source: s.source
                case .type: s.pushType
                default: s.delivery
                }
            return actual?.caseInsensitiveCompare(value) == .orderedSame
        case .language(let tag):
            guard let language = s.language?.lowercased() else { return false }
            let wanted = tag.lowercased().replacingOccurrences(of: "_", with: "-")
            return language == wanted || language.hasPrefix(wanted + "-") || wanted.hasPrefix(language + "-")
        case .status(let code, let wholeClass):
            guard let status = s.status else { return false }
            return wholeClass ? status / 100 == code / 100 : status == code
        case .has(let what): return what == "attachment" ? s.hasAttachment : s.hasWarning
        case .time(let before, let point):
            let at: Date =
                switch point {
                case .absolute(let d): d
                case .ago(let seconds): now.addingTimeInterval(-seconds)
                }
            return before ? s.time < at : s.time >= at
        }
    }
}
