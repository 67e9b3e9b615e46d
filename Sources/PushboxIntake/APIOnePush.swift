import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore

/// What the API does to one push, by its apns-id: its attachments' bytes
/// (`GET …/{apns-id}/attachments/{index | android}`, as the rendering recorded them, served with the
/// type read from their bytes and only for images, audio and video), what the app receives when it
/// is tapped (`GET …/{apns-id}/response`), and its deletion (`DELETE …/{apns-id}`).
enum APIOnePush {
    /// The largest attachment served (the fetcher's own caps are lower).
    static let maxBytes = 50 * 1024 * 1024

    /// Whether `path` names one attachment of one push.
    static func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 7 && path.hasPrefix("/api/v1/notifications/") && parts[5] == "attachments"
            && (Int(parts[6]) != nil || parts[6] == "android" || parts[6] == "avatar")
    }

    static func attachment(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        let key = String(parts[4]).removingPercentEncoding ?? ""
        // A push that reached several devices: the Android phone's delivery holds its big picture.
        let rows = (try? service.store.rows(apnsID: key, limit: 1000)) ?? []
        guard !rows.isEmpty else { return APIv1.failure(404, "NotFound", "no notification \(key)") }
        let attachment: RenderedAttachment
        if parts[6] == "android" {
            guard let picture = rows.lazy.compactMap({ service.renderings?.shown($0)?.android?.imageAttachment }).first else {
                return APIv1.failure(404, "NotFound", "no Android picture of \(key)")
            }
            attachment = picture
        } else if parts[6] == "avatar" {
            // A communication notification's sender's avatar, as the extension downloaded it.
            guard let avatar = rows.lazy.compactMap({ service.renderings?.shown($0)?.communication?.avatar }).first else {
                return APIv1.failure(404, "NotFound", "no avatar for \(key)")
            }
            attachment = avatar
        } else {
            let index = Int(parts[6]) ?? -1
            let attachments = service.renderings?.shown(rows[rows.count - 1])?.attachments ?? []
            guard attachments.indices.contains(index) else { return APIv1.failure(404, "NotFound", "no attachment \(index) of \(key)") }
            attachment = attachments[index]
        }
        // Named as the path names it (a number, android, avatar): the route lets nothing else through.
        let name = parts[6]
        guard ["image/", "audio/", "video/"].contains(where: attachment.type.hasPrefix), attachment.type != "image/svg+xml" else {
            return APIv1.failure(415, "UnsupportedMediaType", "attachment \(name) is \(attachment.type), which is not served")
        }
        guard let data = FileManager.default.contents(atPath: attachment.path), data.count <= maxBytes else {
            return APIv1.failure(410, "Gone", "attachment \(name)'s file is no longer there")
        }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", attachment.type), ("X-Content-Type-Options", "nosniff"), ("Content-Security-Policy", "default-src 'none'"),
                ("Cache-Control", "no-cache"),
            ], body: [UInt8](data))
    }

    /// Deletes every delivery of the push `key` (one per device it reached).
    static func delete(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        let key = String(request.path.dropFirst("/api/v1/notifications/".count)).removingPercentEncoding ?? ""
        let rows = (try? service.store.rows(apnsID: key, limit: 1000)) ?? []
        guard !rows.isEmpty else { return APIv1.failure(404, "NotFound", "no notification \(key)") }
        do { try service.store.delete(ids: rows.map(\.id)) } catch { return APIv1.failure(500, "InternalServerError", "\(error)") }
        return APIv1.json(200, JSONObject([("deleted", .number(String(rows.count)))]))
    }

    /// Whether `path` asks what the app receives (`…/{apns-id}/response`).
    static func isResponse(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 6 && path.hasPrefix("/api/v1/notifications/") && parts[5] == "response"
    }

    /// `GET /api/v1/notifications/{apns-id}/response?action=tap|IDENTIFIER[&device=NAME]`: what the
    /// app receives when the user taps the delivered notification or chooses one of its actions —
    /// the same `AppResponse` the terminal inbox shows. 409 when there is nothing to tap (refused,
    /// not delivered, a background push), 404 for an action the card does not show.
    static func response(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        let key = String(parts[4]).removingPercentEncoding ?? ""
        let rows = (try? service.store.rows(apnsID: key, limit: 1000)) ?? []
        let device = request.query["device"] ?? FleetDevice.defaultName
        guard let row = rows.first(where: { ($0.device ?? FleetDevice.defaultName) == device }) ?? rows.last else {
            return APIv1.failure(404, "NotFound", "no notification \(key)")
        }
        let shown = service.renderings?.shown(row)
        guard row.status == 200, shown?.delivered != .rejected, row.delivery?.state != .stored else {
            return APIv1.failure(409, "NotDelivered", "the device did not show this notification: there is nothing to tap")
        }
        guard row.listing?.background != true else {
            return APIv1.failure(409, "NothingToTap", "a background push shows nothing to tap")
        }
        let action = request.query["action"] ?? "tap"
        let payload = String(decoding: row.raw, as: UTF8.self)
        if action == "tap" {
            let tap = AppResponse(
                payload: payload, title: "Tap", identifier: AppResponse.defaultActionIdentifier, options: [.foreground], apnsID: key)
            return APIv1.json(200, tap.json.objectValue ?? JSONObject())
        }
        guard let chosen = shown?.actions.first(where: { $0.identifier == action }) else {
            return APIv1.failure(404, "NoSuchAction", "the card shows no action \(action)")
        }
        let response = AppResponse(payload: payload, title: chosen.title, identifier: chosen.identifier, options: chosen.options, apnsID: key)
        return APIv1.json(200, response.json.objectValue ?? JSONObject())
    }
}
