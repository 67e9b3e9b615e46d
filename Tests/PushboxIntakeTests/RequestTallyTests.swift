import Foundation
import PushboxInbox
import PushboxJSON
import Testing

@testable import PushboxIntake

/// What each answered request counts as for `pushbox exec`'s verdict, and the counts per
/// listener that `GET /requests/summary` gives.
@Suite("Requests counted by outcome, per listener")
struct RequestTallyTests {
    /// A request to `path` on `listener` and its answer.
    static func exchange(_ path: String, _ status: Int, method: String = "POST", body: String = "", acceptance: Acceptance? = nil, listener: String)
        -> (RequestHead, HTTPResponse)
    {
        let head = RequestHead(
            method: method, path: path, headers: [], connection: ConnectionInfo(listener: listener, protocolName: "h2", tls: true, requiresAuth: true)
        )
        var response = HTTPResponse(status: status, body: Array(body.utf8))
        response.acceptance = acceptance
        return (head, response)
    }

    func record(_ path: String, _ status: Int, method: String = "POST", body: String = "", acceptance: Acceptance? = nil) -> RequestRecord {
        let (head, response) = Self.exchange(path, status, method: method, body: body, acceptance: acceptance, listener: "unix /p (pid 7)")
        return RequestRecord(head: head, response: response)
    }

    @Test("a record keeps every header but the four secret ones, in order, beside names of the same lengths")
    func secretHeadersLeftOut() {
        let headers: [(name: String, value: String)] = [
            ("authorization", "bearer x"), ("apns-priority", "10"), ("cookie", "c"), ("apns-push-type", "alert"), ("x-goog-api-key", "k"),
            ("proxy-authorization", "basic y"), ("content-length", "2"), ("cookies", "n"), ("proxy-authorizatio", "n"), ("x-goog-api-kez", "n"),
        ]
        let head = RequestHead(
            method: "POST", path: "/3/device/ab", headers: headers,
            connection: ConnectionInfo(listener: "tcp", protocolName: "h2", tls: true, requiresAuth: true))
        let kept = RequestRecord(head: head, response: HTTPResponse(status: 200, body: [])).headers.map(\.name)
        #expect(kept == ["apns-priority", "apns-push-type", "content-length", "cookies", "proxy-authorizatio", "x-goog-api-kez"])
        #expect(RequestRecord.secretHeaders.allSatisfy(RequestRecord.isSecret))
    }

    @Test("credentials refused (APNs 403, FCM 401, OAuth's invalid_grant), pushes rejected by reason, accepted by what became of them")
    func outcomes() {
        #expect(record("/3/device/ab", 403, body: #"{"reason":"InvalidProviderToken"}"#).outcome == .refused("InvalidProviderToken"))
        #expect(
            record("/v1/projects/p/messages:send", 401, body: #"{"error":{"code":401,"status":"UNAUTHENTICATED"}}"#).outcome
                == .refused("UNAUTHENTICATED"))
        #expect(record("/token", 400, body: #"{"error":"invalid_grant","error_description":"x"}"#).outcome == .refused("invalid_grant"))
        #expect(record("/3/device/ab", 400, body: #"{"reason":"BadDeviceToken"}"#).outcome == .rejected("BadDeviceToken"))
        #expect(record("/3/device/ab", 410, body: #"{"reason":"Unregistered"}"#).outcome == .rejected("Unregistered"))
        #expect(record("/v1/projects/p/messages:send", 200, acceptance: .notTargeted).outcome == .accepted(.notTargeted))
        #expect(record("/3/device/ab", 200, acceptance: .stored).outcome == .accepted(.stored))
        #expect(record("/3/device/ab", 200).outcome == .accepted(.delivered))
        #expect(record("/token", 200).outcome == .other)
        #expect(record("/inbox", 200, method: "GET").outcome == .other)
    }

    @Test("FCM's 404 is UNREGISTERED, as the Admin SDKs and the inbox name it, not the HTTP status NOT_FOUND")
    func fcmErrorCode() {
        let body =
            #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#
        #expect(record("/v1/projects/p/messages:send", 404, body: body).outcome == .rejected("UNREGISTERED"))
        // Without FCM's details, Google's status is the name.
        #expect(record("/v1/projects/p/messages:send", 404, body: #"{"error":{"code":404,"status":"NOT_FOUND"}}"#).outcome == .rejected("NOT_FOUND"))
    }

    @Test("the log's own reads (pushbox requests, exec's summary) are left out of its listing and its counts unless asked for")
    func ownReadsLeftOut() {
        let log = RequestLog()
        for (path, method) in [("/3/device/ab", "POST"), ("/requests", "GET"), ("/requests/summary", "GET"), ("/inbox", "GET")] {
            let (head, response) = Self.exchange(
                path, 200, method: method, acceptance: method == "POST" ? .delivered : nil, listener: "unix /p (pid 7)")
            log.record(head, response)
        }
        #expect(log.recent().map(\.path) == ["/inbox", "/3/device/ab"])
        #expect(log.recent(ownReads: true).map(\.path) == ["/inbox", "/requests/summary", "/requests", "/3/device/ab"])
        #expect(log.tally(listenerPrefix: "unix /p").requests == 2)
    }

    @Test("the log counts every request under its listener; a prefix sums a process's connections; the JSON reads back the same")
    func tallies() throws {
        let log = RequestLog()
        func answer(_ path: String, _ status: Int, body: String = "", acceptance: Acceptance? = nil, listener: String) {
            let (head, response) = Self.exchange(path, status, body: body, acceptance: acceptance, listener: listener)
            log.record(head, response)
        }
        answer("/3/device/ab", 200, acceptance: .delivered, listener: "unix /p (pid 7)")
        answer("/3/device/ab", 400, body: #"{"reason":"BadDeviceToken"}"#, listener: "unix /p (pid 7) via CONNECT api.push.apple.com:443")
        answer("/3/device/ab", 200, acceptance: .delivered, listener: "unix /p (pid 8)")
        answer("/token", 200, listener: "unix /p (pid 7)")
        let mine = log.tally(listenerPrefix: "unix /p (pid 7)")
        #expect(mine.requests == 3)
        #expect(mine.pushes == 2)
        #expect(mine.count(.delivered) == 1)
        #expect(mine.rejected == ["BadDeviceToken": 1])
        #expect(log.tally(listenerPrefix: "unix /p").requests == 4)
        #expect(RequestTally(json: try JSONParser.parse(Array(JSONWriter.compact(mine.json).utf8))) == mine)
        // Past the limit of listeners counted apart, the counts start again rather than grow.
        for i in 0..<RequestLog.tallyLimit + 1 { answer("/3/device/ab", 200, listener: "tcp \(i)") }
        #expect(log.tally(listenerPrefix: "").requests <= RequestLog.tallyLimit + 1)
    }

    @Test("past its limit the log keeps the newest records, newest first, each one once; the counts keep them all")
    func newestKept() {
        let log = RequestLog()
        let total = RequestLog.limit * 2 + RequestLog.limit / 3
        for i in 0..<total {
            let (head, response) = Self.exchange("/3/device/\(i)", 200, acceptance: .delivered, listener: "unix /p")
            log.record(head, response)
            if i == RequestLog.limit - 1 { #expect(log.recent().first?.path == "/3/device/\(i)" && log.recent().count == RequestLog.limit) }
        }
        #expect(log.recent().map(\.path) == (total - RequestLog.limit..<total).reversed().map { "/3/device/\($0)" })
        #expect(log.recent(limit: 3).map(\.path) == (total - 3..<total).reversed().map { "/3/device/\($0)" })
        #expect(log.tally(listenerPrefix: "unix /p").requests == total)
    }
}
