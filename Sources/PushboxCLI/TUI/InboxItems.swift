import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxUI

/// A stored notification as the UI lists it.
enum InboxItems {
    /// The payload pretty-printed (or as text when it is not JSON), for the raw view.
    static func prettyRaw(_ n: StoredNotification) -> String {
        var head: [String] = []
        // The request as it came: its path and its apns-* headers, and how it arrived.
        switch n.source {
        case .socket, .tls, .replay: head.append("POST /3/device/\(n.deviceToken ?? "")")
        case .fcm: head.append("POST /v1/projects/\(n.arrival?.fcmProject ?? "…")/messages:send")
        default: if let file = n.file { head.append("file \(file)") }
        }
        head += n.headers.fields.map { "\($0.name): \($0.value)" }
        if let arrival = n.arrival { head.append("(\(arrival.summary))") }
        let body = (try? JSONParser.parse(n.raw))?.objectValue.map { JSONWriter.pretty(.object($0)) } ?? String(decoding: n.raw, as: UTF8.self)
        return (head + ["", body]).joined(separator: "\n")
    }

    /// The item for a stored notification, from what the intake listed of it when it arrived
    /// (`PayloadListing`): nothing is parsed or validated again. A row stored before pushbox kept
    /// its listing is read from its bytes (parsed, not validated). The pretty-printed payload is
    /// loaded when it is first looked at; `keepPayload` keeps the bytes as text for search.
    static func make(_ n: StoredNotification, keepPayload: Bool = true) -> InboxItem {
        let listing = n.listing ?? Self.listing(readFrom: n)
        var kind = InboxItem.Kind.push
        if n.source == .local { kind = .local } else if listing?.background == true { kind = .background }
        // Listed at the device clock's time (a fired local notification's when it fired), not the
        // real time it was stored; a local row stored before the device time was kept has its firedAt.
        var shownAt = n.deviceTime
        if n.deviceAt == nil, n.source == .local, let fired = listing?.firedAt, let date = ISO8601DateFormatter().date(from: fired) {
            shownAt = date
        }
        var verdict = n.verdict ?? Verdict(status: 0)
        verdict.listing = listing
        var item = InboxItem(
            id: n.id, apnsID: n.apnsID, receivedAt: shownAt, source: n.source.rawValue, verdict: verdict)
        item.kind = kind
        item.delivery = n.delivery
        item.deviceToken = n.deviceToken
        if keepPayload { item.payloadText = String(decoding: n.raw, as: UTF8.self) }
        return item
    }

    /// The listing of a row stored before listings were kept: its bytes read as the APNs payload
    /// they are (an FCM message's notification is not mapped; its title shows once rendered).
    private static func listing(readFrom n: StoredNotification) -> PayloadListing? {
        (try? JSONParser.parse(n.raw))?.objectValue.map {
            PayloadListing(payload: $0, pushType: PushType(rawValue: n.headers[PushHeaders.pushType] ?? ""))
        }
    }
}
