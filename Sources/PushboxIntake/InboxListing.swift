import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem

/// A stored notification as scripts read it (`GET /inbox`, `pushbox list --json`).
public enum InboxListing {
    /// Notifications per `GET /inbox` page unless `limit` says otherwise.
    static let page = 100

    /// `GET /inbox`: one page at a time, newest first: `limit` (default 100, at most 1000) and
    /// `before` (an id), so a huge inbox is never read whole under the store's lock.
    static func route(_ service: IntakeService) -> Route {
        Route(
            "inbox", methods: ["GET"], paths: .exact("/inbox"), maxBody: { _ in 0 },
            refusal: APNsEndpoint.refusalWithoutID,
            handle: { request in listing(request, service: service) })
    }

    /// `GET /pushbox/device`: the device this pushbox runs, so a command addressing it over the
    /// socket (`pushbox send`) uses the same app and languages: its bundle id, the inbox, its
    /// FCM topics now, and the registration as its file keeps it (app, languages, state).
    static func deviceRoute(_ service: IntakeService) -> Route {
        Route(
            "device", methods: ["GET"], paths: .exact("/pushbox/device"), maxBody: { _ in 0 }, refusal: APNsEndpoint.refusalWithoutID,
            handle: { _ in
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(.object(deviceJSON(service))).utf8))
            })
    }

    /// The device as `GET /pushbox/device` gives it: its registration, app and topics.
    static func deviceJSON(_ service: IntakeService) -> JSONObject {
        let registration = service.phone.registration()
        var object = registration?.json.objectValue ?? JSONObject()
        object["bundleID"] = .optionalString(service.phone.context.bundleID)
        object["database"] = .string(service.store.path)
        object["topics"] = service.phone.context(for: registration).deviceTopics.map { .array($0.sorted().map { .string($0) }) } ?? .null
        return object
    }

    static func listing(_ request: HTTPRequest, service: IntakeService) -> HTTPResponse {
        let limit = min(max(Int(request.query["limit"] ?? "") ?? page, 1), 1000)
        let device = request.query["device"]
        let items: [StoredNotification]
        do {
            if let before = request.query["before"].flatMap({ Int64($0) }) {
                items = try service.store.inbox(limit: limit, before: before, device: device)
            } else {
                items = try service.store.inbox(limit: limit, device: device)
            }
        } catch {
            return APNsEndpoint.reasonResponse(.internalServerError)
        }
        let dates = dateFormatter()
        // A rendering still waiting behind a burst is made now, as the TUI and `list` do.
        let json = JSONValue.array(items.map { n in self.json(n, rendered: service.renderings?.shown(n), dates: dates) })
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(json).utf8))
    }

    /// The formatter for `receivedAt`: make one per listing and pass it to every `json` call.
    public static func dateFormatter() -> ISO8601DateFormatter {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return iso
    }

    /// When `n` arrived on the device's clock, with the offset of the zone the device was in:
    /// `2026-12-07T06:09:52.120+09:00` (`receivedAt` is the real time, in UTC).
    public static func deviceTimeText(_ n: StoredNotification) -> String {
        let zone = n.deviceTimeZone
        return zoneFormatters.withLock { formatters in
            let f =
                formatters[zone]
                ?? {
                    let f = dateFormatter()
                    f.timeZone = zone
                    return f
                }()
            formatters[zone] = f
            return f.string(from: n.deviceTime)
        }
    }
    private static let zoneFormatters = Locked<[TimeZone: ISO8601DateFormatter]>([:])

    /// One notification as the API for tests gives it (a page, an event, a webhook): its listing
    /// with `shown` (its rendering as the device has it), and its `cursor`.
    public static func item(_ row: StoredNotification, shown: RenderedNotification?, dates: ISO8601DateFormatter, now: Date = Date()) -> JSONValue {
        var o = json(row, rendered: shown, dates: dates, now: now).objectValue ?? JSONObject()
        o["cursor"] = .string(String(row.id))
        return .object(o)
    }

    /// Calls `listener` with every burst of stored notifications, each with its rendering as the
    /// device has it (made before it is handed on when the intake renders; nil when it does not).
    public static func onStored(
        _ service: IntakeService, _ listener: @escaping @Sendable ([(row: StoredNotification, shown: RenderedNotification?)]) -> Void
    ) {
        guard let renderings = service.renderings else {
            service.arrivals.subscribe { arrivals in listener(arrivals.map { ($0.stored, nil) }) }
            return
        }
        renderings.onArrived { arrivals in
            let now = Date()
            listener(
                arrivals.map { a in (a.stored, a.rendering?.delivering(a.stored.delivery, receivedAt: a.stored.receivedAt, now: now)) })
        }
    }

    /// The stored row's own fields that `json` writes beside the rendering's listed ones, with what
    /// each is (the reference page `docs/reference/render-json.md` is made from it; a test holds
    /// `list --json` to it). *Sometimes*: written only when there is something to say.
    public static let rowFields: [(key: String, meaning: String, sometimes: Bool)] = [
        ("id", "The row's number in the inbox.", false),
        ("apnsId", "The push's `apns-id` (the one sent, or the one pushbox gave); every delivery of one push shares it.", false),
        ("device", "The device of the fleet this delivery is for (`phone`, the default one).", false),
        ("receivedAt", "When it arrived, real time, ISO 8601 in UTC.", false),
        ("deviceTime", "When it arrived on the device's clock, with the zone's offset.", false),
        ("source", "How it arrived: `\(PayloadSource.allCases.map(\.rawValue).joined(separator: "`, `"))`.", false),
        ("file", "The file it was read from (a watched folder, a replay), else null.", false),
        ("status", "The HTTP status answered (200, or the refusal's), null for what no request answered.", false),
        ("reason", "Why it was refused or not shown: the answer's reason, else the rendering's (`NotTargeted`).", false),
        ("detail", "The reason in words, with the facts behind it.", false),
        ("collapseId", "Its `apns-collapse-id` (or FCM collapse key).", false),
        ("arrival", "How it reached the HTTP API: listener, protocol, user agent, authentication (never a token).", false),
        ("presentation", "How the device presented it when it arrived (Focus, the scheduled summary, the level).", true),
        ("chaos", "The chaos rule that made its answer, when one did.", true),
        ("delivery", "Where it stands, as the last entry of `deliveryLog` says it.", false),
        ("deliveryLog", "What happened to it, in the words of Apple's delivery log, each with its time.", false),
        ("cursor", "The row's id as the API pages and waits go on from (the API's items, events and webhooks only).", true),
    ]

    /// One notification as `GET /inbox` and `list --json` show it: the stored row's fields, then
    /// its rendering's listed fields as the rendering's one field list writes them (a row refused
    /// at intake has no rendering and is listed as rejected).
    public static func json(_ n: StoredNotification, rendered r: RenderedNotification?, dates: ISO8601DateFormatter, now: Date = Date()) -> JSONValue
    {
        var object = JSONObject([
            ("id", .number(String(n.id))),
            ("apnsId", .string(n.apnsID)),
            ("device", .string(n.device ?? FleetDevice.defaultName)),
            ("receivedAt", .string(dates.string(from: n.receivedAt))),
            ("deviceTime", .string(deviceTimeText(n))),
            ("source", .string(n.source.rawValue)),
            ("file", .optionalString(n.file)),
            ("status", .optionalInt(n.status)),
            ("reason", .optionalString(n.reason)),
            ("collapseId", .optionalString(n.collapseID)),
            ("arrival", n.arrival?.json ?? .null),
        ])
        // How the device presented it when it arrived (Focus, the scheduled summary, the level).
        if let presentation = n.verdict?.presentation { object["presentation"] = presentation.json }
        // Never mistaken for the service's answer: the chaos rule that made it, when one did.
        if let chaos = n.arrival?.chaos { object["chaos"] = .string(chaos) }
        var unrendered = RenderedNotification(delivered: .rejected)
        unrendered.intended = n.reason == nil ? nil : AlertContent.literal(of: n.raw)
        for field in RenderedNotification.fields where field.listed {
            if let r {
                if let value = field.written(r) { object[field.key] = value }
            } else if field.omittedWhenNull {
                continue
            } else {
                object[field.key] = field.key == "delivered" && n.reason == nil ? JSONValue.null : field.write(unrendered)
            }
        }
        // Why: the answer's reason when the intake refused it, else the rendering's (NotTargeted).
        object["reason"] = .optionalString(n.reason ?? r?.reason)
        object["detail"] = .optionalString(n.detail ?? r?.detail)
        let log = deliveryLog(n, rendered: r, now: now)
        object["delivery"] = .string(log.last?.event ?? "")
        object["deliveryLog"] = .array(log.map { .object(JSONObject([("event", .string($0.event)), ("at", .string(dates.string(from: $0.at)))])) })
        return .object(object)
    }

    /// What happened to a stored notification in the words of Apple's delivery log, each with
    /// its time: received, then delivered; stored — device offline, then delivered from storage
    /// or discarded — expired / replaced; discarded — token unregistered; or refused / not for
    /// this device, where the push service never delivers it.
    public static func deliveryLog(_ n: StoredNotification, rendered r: RenderedNotification?, now: Date) -> [(event: String, at: Date)] {
        var log: [(event: String, at: Date)] = [("received", n.receivedAt)]
        if let reason = n.reason {
            log.append((DeviceRegistration.reasons.contains(reason) ? "discarded — token unregistered" : "refused", n.receivedAt))
        } else if r?.delivered == .rejected {
            log.append(("not for this device", n.receivedAt))
        } else if let record = n.delivery {
            if record.expiresAt != nil { log.append((DeliveryState.stored.phrase, n.receivedAt)) }
            let state = record.state(at: now)
            if state != .stored { log.append((state.phrase, state == record.state ? record.at : record.expiresAt ?? now)) }
        } else {
            log.append((DeliveryState.delivered.phrase, n.receivedAt))
        }
        return log
    }
}
