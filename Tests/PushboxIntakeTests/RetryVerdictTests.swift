import Foundation
import Testing

@testable import PushboxIntake

/// The verdict on a backend's retries, from the request log's records of one message's attempts.
@Suite("The retry verdict")
struct RetryVerdictTests {
    static let t0 = Date(timeIntervalSince1970: 2_000_000_000)

    /// A record of one attempt at message `key`, `at` seconds after t0.
    func attempt(_ key: String, _ at: Double, _ status: Int, retryAfter: String? = nil, reason: String? = nil, delivered: Bool = false)
        -> RequestRecord
    {
        let head = RequestHead(
            method: "POST", path: "/v1/projects/shop/messages:send", headers: [],
            connection: ConnectionInfo(listener: "test", protocolName: "h2", tls: true, requiresAuth: false))
        var response = HTTPResponse(status: status, headers: retryAfter.map { [("Retry-After", $0)] } ?? [])
        response.messageKey = key
        if delivered { response.acceptance = .delivered }
        var record = RequestRecord(head: head, response: response, time: Self.t0.addingTimeInterval(at))
        if let reason { record.reason = reason }
        return record
    }

    func findings(_ records: [RequestRecord]) -> [[RetryVerdict.Finding]] {
        RetryVerdict.judge(records).messages.map { $0.findings.map(\.finding) }
    }

    @Test("a retry after Retry-After that succeeds: no finding; one sooner: ignored-retry-after")
    func retryAfter() {
        #expect(findings([attempt("a", 0, 503, retryAfter: "2"), attempt("a", 2.1, 200)]) == [[]])
        #expect(findings([attempt("a", 0, 503, retryAfter: "2"), attempt("a", 0.6, 200)]) == [[.ignoredRetryAfter]])
        // An HTTP date counts from the answer.
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.timeZone = TimeZone(identifier: "GMT")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let at = date.string(from: Self.t0.addingTimeInterval(10))
        #expect(findings([attempt("a", 0, 429, retryAfter: at), attempt("a", 3, 200)]) == [[.ignoredRetryAfter]])
    }

    @Test("an immediate retry of a 500 without Retry-After: no-backoff; a permanent refusal sent again: retried-permanent")
    func backoffAndPermanent() {
        #expect(findings([attempt("a", 0, 500), attempt("a", 0.01, 500), attempt("a", 1.0, 200)]) == [[.noBackoff]])
        #expect(findings([attempt("a", 0, 400), attempt("a", 0.5, 400)]) == [[.retriedPermanent]])
        // An expired provider token is worth another try, with a new token.
        #expect(findings([attempt("a", 0, 403, reason: "ExpiredProviderToken"), attempt("a", 0.5, 200)]) == [[]])
    }

    @Test("a failure worth retrying that is last: gave-up; delivered twice: duplicate; a message that never failed is left out")
    func gaveUpAndDuplicate() {
        let verdict = RetryVerdict.judge([
            attempt("ok", 0, 200), attempt("once", 0, 503), attempt("dup", 0, 503, delivered: true), attempt("dup", 1, 200),
            attempt("goaway", 0, 0, reason: "GOAWAY"),
        ])
        #expect(verdict.total == 4)
        #expect(verdict.messages.map(\.key) == ["once", "dup", "goaway"])
        #expect(verdict.messages.map { $0.findings.map(\.finding) } == [[.gaveUp], [.duplicate], [.gaveUp]])
        #expect(verdict.count(.gaveUp) == 2 && verdict.count(.duplicate) == 1)
        // Its JSON reads back the same.
        #expect(RetryVerdict(json: verdict.json)?.messages.map { $0.findings.map(\.finding) } == verdict.messages.map { $0.findings.map(\.finding) })
    }

    @Test("a message's key: the same body is the same message; a body that differs in any byte, first word or last odd bytes, is another")
    func messageIdentity() {
        let body = Array(#"{"aps":{"alert":"Dinner at 7?"},"n":1}"#.utf8)  // 38 bytes: four words and six more
        #expect(ChaosAnswers.fnv(body) == ChaosAnswers.fnv(Array(body)))
        var first = body
        first[0] = UInt8(ascii: "[")
        var last = body
        last[body.count - 2] = UInt8(ascii: "2")
        let keys = Set([body, first, last, []].map(ChaosAnswers.fnv))
        #expect(keys.count == 4)
    }

    @Test("a key made in one go reads as the prefix, the middle, a colon and the hash in hex, as concatenated")
    func keyInOneGo() {
        for hash: UInt64 in [0, 1, 0xF, 0x10, 0xabc, 0x0123_4567_89ab_cdef, .max, 1 << 63] {
            for middle in ["", "aa", "5e1ec7ed", "projects/shop/messages:send", "ünïcode"] {
                #expect(ChaosAnswers.joined("apns:", Substring(middle), hash: hash) == "apns:" + middle + ":" + String(hash, radix: 16))
            }
        }
    }
}
