import Foundation
import PushboxCore
import PushboxStore
import PushboxText
import PushboxUI

/// A stored notification as the UI lists it.
enum InboxItems {
    /// The payload pretty-printed (or as text when it is not JSON), for the raw view.
    static func prettyRaw(_ n: StoredNotification) -> String {
        var head: [String] = []
        // The request as it came: its path and its apns-* headers, and how it arrived.
        switch n.source {
        case .socket, .replay: head.append("POST /3/device/\(n.deviceToken ?? "")")
        case .fcm: head.append("POST /v1/projects/\(n.arrival?.fcmProject ?? "…")/messages:send")
        default: if let file = n.file { head.append("file \(file)") }
        }
        head += n.headers.fields.map { "\($0.name): \($0.value)" }
        if let arrival = n.arrival { head.append("(\(arrival.summary))") }
        let body = (try? JSONParser.parse(n.raw))?.objectValue.map { JSONWriter.pretty(.object($0)) } ?? String(decoding: n.raw, as: UTF8.self)
        return (head + ["", body]).joined(separator: "\n")
    }

    /// The item for a stored notification. `validated` is the intake's validation when it has
    /// just arrived; a row read from the store is validated here (FCM messages are listed by the
    /// APNs payload they map to).
    static func make(_ n: StoredNotification, validated: ValidatedPayload? = nil, keepRaw: Bool = true) -> InboxItem {
        let document = (try? JSONParser.parse(n.raw))?.objectValue
        let payload = (validated ?? Validator.validate(n.rawPayload).validated)?.payload ?? document
        let aps = payload?["aps"]?.objectValue
        var sentTitle: String?
        var sentBody: String?
        switch aps?["alert"] {
        case .string(let body)?: sentBody = body
        case .object(let alert)?:
            sentTitle = alert["title-loc-key"]?.stringValue.map { "[\($0)]" } ?? alert["title"]?.stringValue
            sentBody = alert["loc-key"]?.stringValue.map { "[\($0)]" } ?? alert["body"]?.stringValue
        default: break
        }
        var kind = InboxItem.Kind.push
        // A Live Activity push without an alert changes the activity: it is no background event.
        let liveActivity = (validated?.pushType ?? PushType(rawValue: n.headers[PushHeaders.pushType] ?? "")) == .liveactivity
        if n.source == .local { kind = .local } else if aps != nil, aps?["alert"] == nil, !liveActivity { kind = .background }
        let raw = keepRaw ? (document.map { JSONWriter.pretty(.object($0)) } ?? String(decoding: n.raw, as: UTF8.self)) : ""
        // A fired local notification is listed at the device clock's time it fired, not the real time it was stored.
        var shownAt = n.receivedAt
        if n.source == .local, let fired = payload.flatMap(LocalDelivery.info)?["firedAt"]?.stringValue,
            let date = ISO8601DateFormatter().date(from: fired)
        {
            shownAt = date
        }
        var item = InboxItem(
            id: n.id, apnsID: n.apnsID, receivedAt: shownAt, source: n.source.rawValue, status: n.status ?? 0,
            reason: n.reason, detail: n.detail, threadID: aps?["thread-id"]?.stringValue,
            sentTitle: sentTitle, sentBody: sentBody, encrypted: payload?["encrypted_data"] != nil, rawText: raw,
            app: n.topic.map(PushType.bundleID(fromTopic:)))
        item.kind = kind
        item.delivery = n.delivery
        item.deviceToken = n.deviceToken
        return item
    }
}
