import Foundation
import PushboxJSON
import PushboxPayload
import Testing

/// Arrivals, envelopes and reports keep their fields behind one reference (copied on the first
/// change of a shared one): a copy must still be a value of its own.
@Suite("Fields behind one reference stay values: a change to a copy leaves the original as it was")
struct SharedFieldsTests {
    @Test("an arrival changed field by field, its authentication too, after a copy")
    func arrival() {
        var a = Arrival(listener: "unix /s.sock", protocolName: "http/1.1", tls: false, userAgent: nil)
        let b = a
        a.listener = "tcp 127.0.0.1:2197"
        a.protocolName = "h2"
        a.tls = true
        a.userAgent = "curl/8"
        a.authentication = .accessToken(account: "sa@example", verified: true)
        a.fcmProject = "p"
        a.host = "api.push.apple.com"
        a.chaos = "#1"
        #expect(b == Arrival(listener: "unix /s.sock", protocolName: "http/1.1", tls: false, userAgent: nil))
        #expect(a != b)
        #expect(
            [a.listener, a.protocolName, a.userAgent, a.fcmProject, a.host, a.chaos] == [
                "tcp 127.0.0.1:2197", "h2", "curl/8", "p", "api.push.apple.com", "#1",
            ])
        var c = a
        #expect(c == a)
        c.host = nil
        #expect(c != a && a.host == "api.push.apple.com")
    }

    @Test("an envelope's headers changed in place, and its arrival inside it, after a copy")
    func envelope() {
        var a = Envelope(source: .socket, receivedAt: Date(timeIntervalSince1970: 1), headers: PushHeaders([("apns-topic", "t")]))
        a.arrival = Arrival(listener: "unix /s.sock", protocolName: "http/1.1", tls: false, userAgent: nil)
        let b = a
        a.headers.add("apns-id", "x")
        a.arrival?.host = "h"
        a.deviceZone = "Asia/Seoul"
        a.deviceAt = Date(timeIntervalSince1970: 2)
        a.bodyLength = 9
        a.deviceToken = "aa"
        a.fileName = "f.json"
        a.source = .tls
        a.receivedAt = Date(timeIntervalSince1970: 3)
        #expect(b.headers.fields.count == 1 && b.arrival?.host == nil && b.deviceZone == nil && b.source == .socket)
        #expect(a.headers.fields.map(\.name) == ["apns-topic", "apns-id"] && a.arrival?.host == "h" && a.bodyLength == 9)
        #expect(a != b)
        #expect(RawPayload(bytes: [1], envelope: b) == RawPayload(bytes: [1], envelope: b))
    }

    @Test("a report's warnings and listing changed after a copy")
    func report() {
        var a = ValidationReport(rejection: nil, warnings: [], validated: nil, targeting: .device)
        let b = a
        a.warnings.append(Diagnostic(.unknownHeader, "x"))
        a.listing = PayloadListing(title: "t", body: nil, threadID: nil, background: false, encrypted: false, firedAt: nil)
        a.targeting = .notTargeted("n")
        a.addressee = "topic news"
        #expect(b.warnings.isEmpty && b.listing == nil && b.targeting == .device && b.addressee == nil)
        #expect(a.warnings.count == 1 && a.listing?.title == "t" && a.addressee == "topic news")
    }
}

@Suite("Header names told apart by their bytes")
struct HeaderNameBytesTests {
    @Test(
        "an apns- name is one that starts with those five bytes, nothing else",
        arguments: [
            ("apns-id", true), ("apns-", true), ("apns-push-type", true), ("apns", false), ("apns_id", false), ("Apns-id", false),
            ("xapns-id", false), ("", false), ("apnś-id", false), ("apns-\u{301}", true),
        ])
    func apnsName(name: String, expected: Bool) {
        #expect(PushHeaders.isAPNsName(name) == expected)
        #expect(PushHeaders.isAPNsName(name) == name.utf8.starts(with: "apns-".utf8))
    }
}

@Suite("A validated payload stays a value")
struct ValidatedPayloadValueTests {
    @Test("its payload, aps, headers and push type changed after a copy")
    func copyThenChange() {
        var a = ValidatedPayload(
            form: .apns, payload: JSONObject([("aps", .object(JSONObject()))]), aps: JSONObject(), headers: PushHeaders(), pushType: .alert,
            fcm: nil)
        let b = a
        a.payload["custom"] = .bool(true)
        a.aps["badge"] = .number("1")
        a.headers.add("apns-id", "x")
        a.pushType = .background
        #expect(b.payload.keys == ["aps"] && b.aps.isEmpty && b.headers.fields.isEmpty && b.pushType == .alert)
        #expect(a.payload.keys == ["aps", "custom"] && a.aps["badge"] == .number("1") && a.pushType == .background)
        #expect(a != b)
    }
}
