/// An FCM topic condition such as `'NewsApp' in topics && ('LangEnUS' in topics || !('Beta' in topics))`,
/// parsed into an expression that can be evaluated against a device's topics.
///
/// Evaluation order as FCM documents it: parentheses first, `!` on the operand that follows it,
/// then `&&` and `||` strictly **from left to right** with equal precedence, so
/// `'A' in topics || 'B' in topics && 'C' in topics` means `('A' || 'B') && 'C'` — not the
/// precedence of C-like languages.
public indirect enum TopicCondition: Sendable, Equatable, CustomStringConvertible {
    case topic(String)
    case not(TopicCondition)
    case and(TopicCondition, TopicCondition)
    case or(TopicCondition, TopicCondition)

    /// FCM allows at most five topics in one condition.
    public static let maxTopics = 5

    /// Whether a device subscribed to `topics` receives the message.
    public func matches(_ topics: Set<String>) -> Bool {
        switch self {
        case .topic(let name): return topics.contains(name)
        case .not(let inner): return !inner.matches(topics)
        case .and(let l, let r): return l.matches(topics) && r.matches(topics)
        case .or(let l, let r): return l.matches(topics) || r.matches(topics)
        }
    }

    /// How the condition came out for `topics`: each topic's truth, then the whole, e.g.
    /// `'NewsApp' in topics = true, 'LangKoKR' in topics = false → (true && false) = false`.
    public func explain(_ topics: Set<String>) -> String {
        var seen: [String] = []
        for t in self.topics where !seen.contains(t) { seen.append(t) }
        let facts = seen.map { "'\($0)' in topics = \(topics.contains($0))" }.joined(separator: ", ")
        return "\(facts) → \(evaluated(topics)) = \(matches(topics))"
    }

    /// The condition with each topic replaced by its truth, parenthesised as evaluated.
    func evaluated(_ topics: Set<String>) -> String {
        switch self {
        case .topic(let name): return String(topics.contains(name))
        case .not(let inner): return "!\(inner.evaluated(topics))"
        case .and(let l, let r): return "(\(l.evaluated(topics)) && \(r.evaluated(topics)))"
        case .or(let l, let r): return "(\(l.evaluated(topics)) || \(r.evaluated(topics)))"
        }
    }

    /// Whether the text quotes a topic with double quotes: FCM's reference writes conditions with
    /// single quotes only; pushbox accepts double quotes, as FCM's service does, with a warning.
    public static func usesDoubleQuotes(_ text: String) -> Bool { text.contains("\"") }

    /// Every topic the condition names, in order.
    public var topics: [String] {
        switch self {
        case .topic(let name): return [name]
        case .not(let inner): return inner.topics
        case .and(let l, let r), .or(let l, let r): return l.topics + r.topics
        }
    }

    /// The condition written back with full parentheses, so precedence is visible.
    public var description: String {
        switch self {
        case .topic(let name): return "'\(name)' in topics"
        case .not(let inner): return "!(\(inner))"
        case .and(let l, let r): return "(\(l) && \(r))"
        case .or(let l, let r): return "(\(l) || \(r))"
        }
    }

    /// A condition that cannot be parsed: message and 1-based column.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong with the condition.
        public var message: String
        /// Where (1-based).
        public var column: Int
        /// `column C: message`.
        public var description: String { "column \(column): \(message)" }
    }

    /// Parses a condition; every error names the column it was found at.
    public static func parse(_ text: String) throws(ParseError) -> TopicCondition {
        var parser = ConditionParser(Array(text.unicodeScalars))
        let condition = try parser.parseOr()
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.error("unexpected \(parser.currentDescription), expected && or || or the end") }
        let count = condition.topics.count
        if count > maxTopics {
            throw ParseError(message: "\(count) topics; FCM allows at most \(maxTopics) in one condition", column: 1)
        }
        return condition
    }

    /// A topic name without the `/topics/` prefix the SDKs and the legacy APIs send.
    public static func bareTopicName(_ name: String) -> String {
        name.hasPrefix("/topics/") ? String(name.dropFirst("/topics/".count)) : name
    }

    /// Whether a topic name is one FCM accepts: `[a-zA-Z0-9-_.~%]+`, optionally after `/topics/`.
    public static func isValidTopicName(_ name: String) -> Bool {
        let bare = bareTopicName(name)
        return !bare.isEmpty
            && bare.unicodeScalars.allSatisfy { s in
                s.isASCII && (("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "-_.~%".unicodeScalars.contains(s))
            }
    }
}

/// Recursive-descent parser for topic conditions.
private struct ConditionParser {
    let chars: [Unicode.Scalar]
    var index = 0

    init(_ chars: [Unicode.Scalar]) { self.chars = chars }

    var atEnd: Bool { index >= chars.count }
    var currentDescription: String { atEnd ? "end of condition" : "'\(Character(chars[index]))'" }

    func error(_ message: String, at column: Int? = nil) -> TopicCondition.ParseError {
        TopicCondition.ParseError(message: message, column: (column ?? index) + 1)
    }

    mutating func skipSpaces() {
        while !atEnd, chars[index].properties.isWhitespace { index += 1 }
    }

    mutating func consume(_ token: String) -> Bool {
        skipSpaces()
        let t = Array(token.unicodeScalars)
        guard index + t.count <= chars.count, Array(chars[index..<index + t.count]) == t else { return false }
        index += t.count
        return true
    }

    /// `&&` and `||` chained left to right with equal precedence (FCM's documented order).
    mutating func parseOr() throws(TopicCondition.ParseError) -> TopicCondition {
        var left = try parseNot()
        while true {
            if consume("&&") { left = .and(left, try parseNot()) } else if consume("||") { left = .or(left, try parseNot()) } else { return left }
        }
    }

    mutating func parseNot() throws(TopicCondition.ParseError) -> TopicCondition {
        if consume("!") { return .not(try parseNot()) }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws(TopicCondition.ParseError) -> TopicCondition {
        skipSpaces()
        if consume("(") {
            let inner = try parseOr()
            guard consume(")") else { throw error("unexpected \(currentDescription), expected ')'") }
            return inner
        }
        guard !atEnd else { throw error("unexpected end of condition, expected 'TopicName' in topics") }
        let quote = chars[index]
        guard quote == "'" || quote == "\"" else {
            throw error("unexpected \(currentDescription), expected a quoted topic name such as 'News' in topics")
        }
        let start = index
        index += 1
        var name = ""
        while !atEnd, chars[index] != quote {
            if chars[index] == "'" || chars[index] == "\"" {
                throw error("mismatched quotes: the topic name opened with \(quote) at column \(start + 1)")
            }
            name.unicodeScalars.append(chars[index])
            index += 1
        }
        guard !atEnd else { throw error("unterminated topic name opened at column \(start + 1)", at: start) }
        index += 1
        guard TopicCondition.isValidTopicName(name) else {
            throw error("'\(name)' is not a valid topic name (letters, digits and -_.~% only)", at: start)
        }
        guard consume("in") else { throw error("unexpected \(currentDescription), expected 'in topics' after '\(name)'") }
        // `in` must be a word of its own, followed by `topics`.
        guard consume("topics") else { throw error("unexpected \(currentDescription), expected 'topics' after 'in'") }
        if !atEnd, chars[index].properties.isAlphabetic { throw error("unexpected \(currentDescription) after 'topics'") }
        return .topic(TopicCondition.bareTopicName(name))
    }
}
