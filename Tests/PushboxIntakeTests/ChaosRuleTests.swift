import Foundation
import PushboxJSON
import Testing

@testable import PushboxIntake

/// Chaos rules as written: every fault read, written back the same, and every mistake named
/// with its code and the offset of the word at fault.
@Suite("Chaos rules: the rule language")
struct ChaosRuleTests {
    @Test(
        "each fault is read and written back as a rule that reads the same",
        arguments: [
            ("apns 503", "apns 503 ServiceUnavailable"),
            ("apns 429 TooManyRequests retry-after=30 next=2", "apns 429 TooManyRequests retry-after=30 next=2"),
            ("fcm 503", "fcm 503 UNAVAILABLE"),
            ("fcm 429 QUOTA_EXCEEDED retry-after=date:+3600", "fcm 429 QUOTA_EXCEEDED retry-after=date:+3600"),
            ("fcm 429 RESOURCE_EXHAUSTED", "fcm 429 QUOTA_EXCEEDED"),
            ("fcm 503 UNAVAILABLE accepted next=1", "fcm 503 UNAVAILABLE accepted next=1"),
            ("html 502", "html 502"), ("html", "html 502"),
            ("oauth 500", "oauth 500 internal_failure"), ("oauth 400 invalid_grant every=3", "oauth 400 invalid_grant every=3"),
            ("goaway Shutdown", #"goaway debug={"reason":"Shutdown"}"#),
            ("goaway server_shutting_down error=ENHANCE_YOUR_CALM processed", "goaway error=ENHANCE_YOUR_CALM debug=server_shutting_down processed"),
            ("refuse-stream service=fcm", "refuse-stream service=fcm"), ("max-streams 1", "max-streams 1"), ("reset", "reset"),
            ("delay 2s", "delay 2000ms"), ("hang next=1", "hang next=1"), ("idle-close 10s reset", "idle-close 10000ms reset"),
            ("token-expiry 1m", "token-expiry 60s"), ("quota device", "quota device 240/min"),
            ("quota topic 5/s topic=news", "quota topic 5/s topic=news"),
            (
                "apns 500 probability=0.25 seed=42 topic=com.example push-type=alert",
                "apns 500 InternalServerError probability=0.25 seed=42 topic=com.example push-type=alert"
            ),
            ("fcm 500 project=shop token=abc* device=pixel", "fcm 500 INTERNAL token=abc* project=shop device=pixel"),
        ])
    func roundTrip(written: String, canonical: String) throws {
        let rule = try ChaosRule.parse(written)
        #expect(rule.text == canonical)
        #expect(try ChaosRule.parse(rule.text) == rule)
    }

    @Test(
        "a rule that cannot be read says why with a code, at the word at fault",
        arguments: [
            ("", "empty", 0), ("teapot 418", "unknown-fault", 0), ("apns", "bad-status", 0), ("apns 200", "bad-status", 5),
            ("fcm 503 next=0", "bad-value", 13), ("apns 503 colour=red", "unknown-option", 9), ("reset accepted", "option-not-for-fault", 6),
            ("delay soon", "bad-value", 6), ("quota galaxy", "bad-value", 6), ("fcm 503 service=apns", "option-not-for-fault", 0),
            ("apns 503 probability=2", "bad-value", 21), ("max-streams many", "bad-value", 12),
        ] as [(String, String, Int)])
    func errors(text: String, code: String, offset: Int) {
        #expect(throws: ChaosRuleError.self) { try ChaosRule.parse(text) }
        do {
            _ = try ChaosRule.parse(text)
        } catch {
            #expect(error.code == code && error.offset == offset, "\(error)")
        }
    }

    @Test("a combining mark after = stays the value's (found by the fuzz target): the rule written back reads the same")
    func combiningMarkAfterEquals() throws {
        let rule = try ChaosRule.parse("goaway debug=\u{0367}x error=ENHANCE_YOUR_CALM")
        #expect(rule.fault == .goAway(errorCode: 11, debug: "\u{0367}x", processed: false))
        #expect(try ChaosRule.parse(rule.text) == rule)
    }

    @Test("a probability without a seed gets one, shown in the rule, so a run is replayed")
    func seedIsShown() throws {
        let rule = try ChaosRule.parse("apns 500 probability=0.5", randomSeed: { 777 })
        #expect(rule.text == "apns 500 InternalServerError probability=0.5 seed=777")
    }
}

/// The rules kept by a running pushbox: which request each concerns, when each fires, quotas as
/// token buckets, and nothing judged while no rule is on.
@Suite("Chaos rules: which fire")
struct ChaosBookTests {
    func request(_ service: String = "fcm", token: String? = "t1", topic: String? = nil, project: String? = "shop") -> ChaosRequest {
        var r = ChaosRequest(service: service)
        r.token = token
        r.topic = topic
        r.project = project
        return r
    }

    @Test("next=N fires on the next N and is spent; every=N on each Nth; none on, nothing is judged")
    func triggers() throws {
        let book = ChaosBook()
        #expect(!book.isArmed && book.decide(request()) == nil)
        let next = book.add(try ChaosRule.parse("fcm 503 next=2"))
        #expect(book.isArmed)
        #expect((0..<4).map { _ in book.decide(request())?.id } == [next, next, nil, nil])
        #expect(!book.isArmed && book.entries[0].spent)
        book.clear()
        let every = book.add(try ChaosRule.parse("fcm 500 every=3"))
        #expect((0..<6).map { _ in book.decide(request())?.id } == [nil, nil, every, nil, nil, every])
        book.setActive(every, false)
        #expect(!book.isArmed && book.decide(request()) == nil)
    }

    @Test("the same seed fires on the same requests; another seed on others")
    func seededProbability() throws {
        func run(_ seed: Int) throws -> [Bool] {
            let book = ChaosBook()
            book.add(try ChaosRule.parse("fcm 503 probability=0.5 seed=\(seed)"))
            return (0..<64).map { _ in book.decide(request()) != nil }
        }
        let a = try run(42)
        #expect(a == (try run(42)))
        #expect(a != (try run(43)))
        #expect((16...48).contains(a.filter { $0 }.count))
    }

    @Test("a rule concerns its service and its matches only; OAuth only oauth faults")
    func matching() throws {
        let book = ChaosBook()
        book.add(try ChaosRule.parse("fcm 503 topic=news"))
        book.add(try ChaosRule.parse("apns 500 token=abc*"))
        book.add(try ChaosRule.parse("oauth 500"))
        book.add(try ChaosRule.parse("refuse-stream device=pixel"))
        #expect(book.decide(request(topic: "news"))?.rule.fault.kind == "fcm")
        #expect(book.decide(request(topic: "sports")) == nil)
        #expect(book.decide(request("apns", token: "abcdef"))?.rule.fault.kind == "apns")
        #expect(book.decide(request("apns", token: "xyz")) == nil)
        #expect(book.decide(request("oauth", token: nil))?.rule.fault.kind == "oauth")
        var pixel = request(token: "p-token")
        pixel.device = { $0 == "p-token" ? "pixel" : "phone" }
        #expect(book.decide(pixel)?.rule.fault == .refuseStream)
    }

    @Test("a quota is a token bucket per key: the limit passes, then 429 with the seconds until a token is back")
    func quota() throws {
        let book = ChaosBook()
        book.add(try ChaosRule.parse("quota device 2/min"))
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        #expect(book.decide(request(token: "a"), now: t0) == nil)
        #expect(book.decide(request(token: "a"), now: t0) == nil)
        #expect(book.decide(request(token: "a"), now: t0)?.quotaRetryAfter == 30)
        #expect(book.decide(request(token: "b"), now: t0) == nil)
        #expect(book.decide(request(token: "a"), now: t0.addingTimeInterval(31)) == nil)
    }

    @Test("connection settings: the lowest max-streams and shortest idle-close of the rules on")
    func settings() throws {
        let book = ChaosBook()
        #expect(book.maxStreams == nil)
        let before = book.version
        book.add(try ChaosRule.parse("max-streams 8"))
        let one = book.add(try ChaosRule.parse("max-streams 1"))
        book.add(try ChaosRule.parse("idle-close 2s reset"))
        #expect(book.maxStreams == 1 && book.idleClose?.milliseconds == 2000 && book.idleClose?.reset == true && book.version > before)
        book.remove(one)
        #expect(book.maxStreams == 8)
        // A setting is no answer: requests pass.
        #expect(book.decide(request()) == nil)
    }
}

extension ChaosHit: Equatable {
    public static func == (a: ChaosHit, b: ChaosHit) -> Bool { a.id == b.id && a.rule == b.rule }
}
