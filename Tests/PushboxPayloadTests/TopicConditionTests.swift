import PushboxDevice
import Testing

@testable import PushboxPayload

@Suite("FCM topic conditions")
struct TopicConditionTests {
    @Test("FCM's order: parentheses first, then && and || from left to right; ! on the operand after it")
    func precedence() throws {
        let c = try TopicCondition.parse("'A' in topics || 'B' in topics && 'C' in topics")
        #expect(c == .and(.or(.topic("A"), .topic("B")), .topic("C")))
        #expect(!c.matches(["A"]))  // C's precedence would deliver this one
        #expect(c.matches(["A", "C"]))
        let n = try TopicCondition.parse("!'A' in topics && 'B' in topics")
        #expect(n == .and(.not(.topic("A")), .topic("B")))
        // The example: an en-US device subscribed to NewsApp does not get it.
        let korean = try TopicCondition.parse("'NewsApp' in topics || 'Sports' in topics && 'LangKoKR' in topics")
        #expect(!korean.matches(["NewsApp", "LangEnUS"]))
        #expect(
            korean.explain(["NewsApp", "LangEnUS"])
                == "'NewsApp' in topics = true, 'Sports' in topics = false, 'LangKoKR' in topics = false → ((true || false) && false) = false")
        // FCM's documented example: "'TopicA' in topics && ('TopicB' in topics || 'TopicC' in topics)".
        let documented = try TopicCondition.parse("'TopicA' in topics && ('TopicB' in topics || 'TopicC' in topics)")
        #expect(documented.matches(["TopicA", "TopicC"]) && !documented.matches(["TopicB", "TopicC"]))
        let chain = try TopicCondition.parse("'A' in topics && 'B' in topics || 'C' in topics")
        #expect(chain == .or(.and(.topic("A"), .topic("B")), .topic("C")) && chain.matches(["C"]))
    }

    @Test("parentheses override precedence")
    func parentheses() throws {
        let c = try TopicCondition.parse("('A' in topics || 'B' in topics) && 'C' in topics")
        #expect(c == .and(.or(.topic("A"), .topic("B")), .topic("C")))
        #expect(!c.matches(["A"]))
        #expect(c.matches(["A", "C"]))
    }

    @Test("! negates, and nests")
    func negation() throws {
        let c = try TopicCondition.parse("!('A' in topics) && !!'B' in topics")
        #expect(c.matches(["B"]))
        #expect(!c.matches(["A", "B"]))
    }

    @Test("the seed's language-topic conditions pick the device's language")
    func languageTopics() throws {
        let en = try TopicCondition.parse("'NewsApp' in topics && 'LangEnUS' in topics")
        let fr = try TopicCondition.parse("\"NewsApp\" in topics && \"LangFrFR\" in topics")
        let device = DeviceTopics.topics(preferredLanguages: ["en-US", "fr"], profileTopics: ["NewsApp"])
        #expect(en.matches(device))
        #expect(!fr.matches(device))
    }

    @Test("five topics are allowed, six are not")
    func topicLimit() throws {
        let five = (1...5).map { "'T\($0)' in topics" }.joined(separator: " || ")
        #expect(try TopicCondition.parse(five).topics.count == 5)
        let six = (1...6).map { "'T\($0)' in topics" }.joined(separator: " || ")
        #expect { try TopicCondition.parse(six) } throws: { ($0 as! TopicCondition.ParseError).message.contains("at most 5") }
    }

    @Test(
        "bad quoting and bad syntax are refused with a column",
        arguments: [
            ("'A in topics", "unterminated", 1),
            ("'A\" in topics", "mismatched quotes", 3),
            ("A in topics", "expected a quoted topic name", 1),
            ("'A' in topics &&", "unexpected end", 17),
            ("('A' in topics", "expected ')'", 15),
            ("'A' in topics 'B' in topics", "expected && or ||", 15),
            ("'A' in", "expected 'topics'", 7),
            ("'A B' in topics", "not a valid topic name", 1),
            ("'' in topics", "not a valid topic name", 1),
            ("'A' in topics & 'B' in topics", "expected && or ||", 15),
        ])
    func badSyntax(text: String, message: String, column: Int) {
        #expect {
            try TopicCondition.parse(text)
        } throws: { error in
            let e = error as! TopicCondition.ParseError
            return e.message.contains(message) && e.column == column
        }
    }

    @Test("topic names follow FCM's alphabet, with an optional /topics/ prefix")
    func topicNames() throws {
        #expect(TopicCondition.isValidTopicName("Lang-en_US.~%20"))
        #expect(TopicCondition.isValidTopicName("/topics/News"))
        #expect(!TopicCondition.isValidTopicName("News!"))
        #expect(!TopicCondition.isValidTopicName("뉴스"))
        #expect(try TopicCondition.parse("'/topics/News' in topics") == .topic("News"))
    }

    @Test(
        "language topics are built from BCP 47 tags",
        arguments: [
            ("en-US", "LangEnUS"), ("fr-FR", "LangFrFR"), ("ko", "LangKo"), ("zh-Hans-CN", "LangZhHansCN"),
            ("pt_BR", "LangPtBR"), ("es-419", "LangEs419"),
        ])
    func languageTopic(tag: String, topic: String) {
        #expect(DeviceTopics.languageTopic(for: tag) == topic)
    }
}
