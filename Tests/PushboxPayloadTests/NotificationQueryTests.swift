import Foundation
import Testing

@testable import PushboxPayload

/// The notification query language: terms read with their errors' codes and places, and each
/// field matched as documented.
@Suite("The notification query language")
struct NotificationQueryTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func subject() -> QuerySubject {
        var s = QuerySubject(device: "ja", platform: "ios", delivery: "delivered", source: "fcm", time: now.addingTimeInterval(-300))
        s.title = "ご注文を発送しました"
        s.subtitle = "Order #42"
        s.body = "Your order has shipped"
        s.topic = "dev.pushbox.sample"
        s.token = "5e1ec7ed00ab"
        s.language = "ja"
        s.category = "ORDER"
        s.thread = "orders"
        s.collapse = "order-42"
        s.status = 200
        s.pushType = "alert"
        s.hasAttachment = true
        return s
    }

    @Test(
        "each kind of term matches as documented, and its negation does not",
        arguments: [
            "order", "ORDER", "\"has shipped\"", "発送", "title:発送", "subtitle:#42", "body:shipped", "topic:pushbox", "token:5e1e", "device:ja",
            "device:JA", "platform:ios", "lang:ja", "lang:ja-JP", "category:order", "thread:orders", "collapse:order-42", "status:200",
            "status:2xx", "delivery:delivered", "source:fcm", "type:alert", "has:attachment", "after:10m", "before:1m",
            "after:2026-01-01", "before:2028-01-01T00:00:00Z", "title:\"を発送\"", "order shipped lang:ja -status:4xx",
        ])
    func matches(text: String) throws {
        let q = try NotificationQuery(text)
        #expect(q.matches(Self.subject(), now: Self.now), "\(text)")
        if q.terms.count == 1 {
            let negated = try NotificationQuery("-" + text)
            #expect(!negated.matches(Self.subject(), now: Self.now), "-\(text)")
        }
    }

    @Test(
        "terms that do not match",
        arguments: [
            "refund", "title:shipped", "device:phone", "platform:android", "lang:ko", "lang:j", "status:404", "status:4xx",
            "delivery:stored", "source:socket", "type:background", "has:warning", "after:1m", "before:10m", "\"shipped order\"",
        ])
    func misses(text: String) throws {
        #expect(try !NotificationQuery(text).matches(Self.subject(), now: Self.now), "\(text)")
    }

    @Test("an empty query matches everything; terms are split at spaces outside quotes")
    func reading() throws {
        #expect(try NotificationQuery("  ").isEmpty && NotificationQuery("").matches(Self.subject()))
        let q = try NotificationQuery(#"a  "b c" title:"d e" -f"#)
        #expect(q.terms.map(\.test) == [.text("a"), .text("b c"), .contains(.title, "d e"), .text("f")])
        #expect(q.terms.map(\.negated) == [false, false, false, true])
        // A colon after digits is a word (a time); a URL is quoted, or its scheme reads as an unknown field.
        #expect(try NotificationQuery(#""https://x" 09:30"#).terms.map(\.test) == [.text("https://x"), .text("09:30")])
        #expect(throws: NotificationQuery.ParseError.self) { try NotificationQuery("https://x") }
    }

    @Test(
        "what cannot be read is refused with a code and the term's place",
        arguments: [
            ("foo:bar", NotificationQuery.ParseError.Code.unknownField, 0), ("a nope:1", .unknownField, 2), ("status:abc", .badValue, 0),
            ("x status:1000", .badValue, 2), ("delivery:lost", .badValue, 0), ("has:everything", .badValue, 0), ("before:yesterday", .badValue, 0),
            ("platform:windows", .badValue, 0), ("title:", .badValue, 0), ("a \"b c", .unterminatedQuote, 2), ("\"\"", .emptyTerm, 0),
        ])
    func refused(text: String, code: NotificationQuery.ParseError.Code, offset: Int) {
        #expect {
            try NotificationQuery(text)
        } throws: { error in
            guard let e = error as? NotificationQuery.ParseError else { return false }
            return e.code == code && e.offset == offset
        }
    }

    @Test("a query longer than the limit is refused, not read")
    func bounded() {
        #expect(throws: NotificationQuery.ParseError.self) { try NotificationQuery(String(repeating: "a ", count: NotificationQuery.maxLength)) }
    }
}

/// Which queries read renderings: a query of the row's own fields is matched without one.
@Suite("Queries that need no rendering")
struct QueryRenderingNeedTests {
    @Test(
        "field terms of the stored row read no rendering; texts, languages, categories, has: and delivery do",
        arguments: [
            ("status:4xx device:ja", false), ("topic:x token:y thread:t collapse:c reason:r source:fcm type:alert platform:ios after:1m", false),
            ("order", true), ("title:x", true), ("lang:ko", true), ("has:warning", true), ("category:C", true), ("delivery:not-targeted", true),
        ])
    func needs(text: String, needs: Bool) throws {
        #expect(try NotificationQuery(text).needsRendering == needs, "\(text)")
    }
}
