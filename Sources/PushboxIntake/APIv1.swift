import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem

/// The API for tests, under `/api/v1/` on the socket and the port: find, wait for and clear
/// notifications with the query language, and say when pushbox is ready. JSON in and out; a
/// request from the port whose `Host` is no loopback name is refused (DNS rebinding), as is a
/// state-changing one whose `Origin` is another site.
public enum APIv1 {
    static let prefix = "/api/v1/"
    /// The longest `wait`, in seconds.
    static let maxWait = 120.0

    static func routes(_ service: IntakeService, requests: RequestLog, web: WebAddress, chaos: ChaosBook) -> [Route] {
        let refusal = APNsEndpoint.refusalWithoutID
        let guarded: @Sendable (RequestHead) -> Result<Arrival.Authentication, Refusal> = { head in
            if let why = crossSite(head) { return .failure(Refusal(failure(403, "Forbidden", why))) }
            return .success(.none)
        }
        func route(
            _ name: String, _ paths: PathPattern, maxBody: Int = 0, doc: RouteDoc, _ handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse
        ) -> Route {
            var route = Route(
                name, methods: Set(doc.operations.map(\.method)), paths: paths, maxBody: { _ in maxBody }, check: guarded, refusal: refusal,
                handle: handle)
            route.doc = doc
            return route
        }
        var table = [
            route("api-notifications", .exact("/api/v1/notifications"), doc: APIDocs.notifications) { request in
                request.method == "DELETE" ? delete(request, service) : list(request, service)
            },
            route("api-attachment", .matching(APIOnePush.matches), doc: APIDocs.attachment) { request in
                APIOnePush.attachment(request, service)
            },
            route("api-response", .matching(APIOnePush.isResponse), doc: APIDocs.response) { request in
                APIOnePush.response(request, service)
            },
            route("api-notification", .matching { $0.hasPrefix("/api/v1/notifications/") && $0.count > 22 }, doc: APIDocs.notification) { request in
                request.method == "DELETE" ? APIOnePush.delete(request, service) : one(request, service)
            },
            route("api-wait", .exact("/api/v1/wait"), doc: APIDocs.wait) { request in wait(request, service, requests: requests) },
            route("api-events", .exact("/api/v1/events"), doc: APIDocs.events) { request in APIEvents.stream(request, service, requests: requests) },
            route("api-device", .exact("/api/v1/device"), maxBody: APIDevice.maxBody, doc: APIDocs.device) { request in
                request.method == "PUT" ? APIDevice.change(request, service) : APIDevice.get(request, service)
            },
            route("api-requests", .exact("/api/v1/requests"), doc: APIDocs.requests) { request in APIDevice.requests(request, requests) },
            route("api-activities", .exact("/api/v1/activities"), doc: APIDocs.activities) { request in APIDevice.activities(request, service) },
            route("api-chaos", .exact("/api/v1/chaos"), maxBody: APIChaos.maxBody, doc: APIDocs.chaos) { request in APIChaos.handle(request, chaos) },
            route("api-health", .exact("/api/v1/health"), doc: APIDocs.health) { _ in
                json(
                    200,
                    JSONObject([
                        ("status", .string("ready")), ("notifications", .number(String(service.store.count))),
                        ("web", web.address.map { .string("http://\($0)/") } ?? .null),
                    ]))
            },
        ]
        // Made from the table itself, once: every documented route, this one included.
        let docs = table.compactMap(\.doc) + [APIDocs.openAPI]
        let document = Array(JSONWriter.compact(OpenAPI.document(docs, version: PushboxVersion.current)).utf8)
        table.append(
            route("api-openapi", .exact("/api/v1/openapi.json"), doc: APIDocs.openAPI) { _ in
                HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: document)
            })
        table.append(
            Route(
                "api-unknown", methods: nil, paths: .prefix(prefix), maxBody: { _ in 0 },
                check: { head in .failure(Refusal(failure(404, "NotFound", "no API route \(head.method) \(head.path)"))) }, refusal: refusal,
                handle: { _ in failure(404, "NotFound", "no such API route") }))
        return table
    }

    /// Why a request from a browser page must not be served: a `Host` that is no loopback name
    /// (a rebound DNS name reaches 127.0.0.1), or a changing request from another site's page.
    static func crossSite(_ head: RequestHead) -> String? {
        // Only the TCP port is reachable from a browser; a Unix socket is not.
        guard !head.connection.listener.hasPrefix("unix") else { return nil }
        let host = head.headers.last { $0.name == "host" }?.value ?? head.headers.last { $0.name == ":authority" }?.value ?? ""
        guard isLoopback(host) else { return "Host \(host) is no loopback name: pushbox's API answers localhost, 127.0.0.1 and ::1 only" }
        // A changing request, or a stream another site's page would read for as long as it likes.
        if head.method != "GET" || head.path == "/api/v1/events", let origin = head.headers.last(where: { $0.name == "origin" })?.value,
            origin != "null",
            !isLoopback(URL(string: origin)?.host ?? "")
        {
            return "Origin \(origin) is another site: a web page may not change pushbox's inbox"
        }
        return nil
    }

    /// Whether `host` (with or without a port) names this machine's loopback.
    public static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            name = String(name.dropFirst().prefix { $0 != "]" })
        } else if name.filter({ $0 == ":" }).count == 1 {
            name = String(name.prefix { $0 != ":" })
        }
        return name == "localhost" || name == "::1" || name.hasPrefix("127.") || name.hasSuffix(".localhost")
    }

    /// The query of `?query=`, or the 400 that says where it cannot be read.
    static func query(_ request: HTTPRequest) -> Parsed {
        do throws(NotificationQuery.ParseError) { return .query(try NotificationQuery(request.query["query"] ?? "")) } catch {
            return .refused(
                json(
                    400,
                    JSONObject([
                        ("error", .string("BadQuery")), ("code", .string(error.code.rawValue)), ("offset", .number(String(error.offset))),
                        ("detail", .string(error.message)),
                    ])))
        }
    }

    /// A request's query, or the answer refusing it.
    enum Parsed {
        case query(NotificationQuery)
        case refused(HTTPResponse)
    }

    /// One notification as the API gives it: the inbox's listing, and its rendering in `languages`.
    static func item(_ row: StoredNotification, _ service: IntakeService, languages: [String]?, dates: ISO8601DateFormatter) -> JSONValue {
        InboxListing.item(row, shown: service.renderings?.shown(row, languages: languages), dates: dates)
    }

    static func languages(_ request: HTTPRequest) -> [String]? {
        request.query["lang"].map { $0.split(separator: ",").map(String.init).filter { !$0.isEmpty } }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `GET /api/v1/notifications?query=&lang=&limit=&cursor=`: newest first, a page at a time.
    static func list(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        let q: NotificationQuery
        switch query(request) {
        case .refused(let refused): return refused
        case .query(let read): q = read
        }
        let limit = min(max(Int(request.query["limit"] ?? "") ?? 50, 1), 1000)
        let (rows, next) = service.search(q, limit: limit, before: request.query["cursor"].flatMap { Int64($0) })
        let dates = InboxListing.dateFormatter()
        let languages = languages(request)
        return json(
            200,
            JSONObject([
                ("notifications", .array(rows.map { item($0, service, languages: languages, dates: dates) })),
                ("next", next.map { .string(String($0)) } ?? .null),
            ]))
    }

    /// `GET /api/v1/notifications/{apns-id | latest}`: every delivery of that push (one per device
    /// it reached), each with its rendering (`?lang=` renders on demand) and its trace.
    static func one(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        let key = String(request.path.dropFirst("/api/v1/notifications/".count)).removingPercentEncoding ?? ""
        let rows: [StoredNotification]
        if key == "latest" {
            let q: NotificationQuery
            switch query(request) {
            case .refused(let refused): return refused
            case .query(let read): q = read
            }
            rows = service.search(q, limit: 1).rows
        } else {
            rows = ((try? service.store.rows(apnsID: key, limit: 1000)) ?? []).reversed()
        }
        guard let first = rows.first else { return failure(404, "NotFound", "no notification \(key)") }
        let dates = InboxListing.dateFormatter()
        let languages = languages(request)
        let deliveries = key == "latest" ? ((try? service.store.rows(apnsID: first.apnsID, limit: 1000)) ?? []).reversed() : rows
        return json(
            200,
            JSONObject([
                ("apnsId", .string(first.apnsID)),
                (
                    "deliveries",
                    .array(
                        deliveries.map { row in
                            var o = item(row, service, languages: languages, dates: dates).objectValue ?? JSONObject()
                            o["rendering"] = service.renderings?.shown(row, languages: languages)?.json ?? .null
                            // What was sent, as it was sent (escaped as JSON text, never interpreted).
                            o["payload"] = .string(String(decoding: row.raw, as: UTF8.self))
                            o["headers"] = .array(row.headers.fields.map { .array([.string($0.name), .string($0.value)]) })
                            return .object(o)
                        })
                ),
            ]))
    }

    /// `DELETE /api/v1/notifications?query=`: what the query matches (every notification when
    /// there is none) is deleted.
    static func delete(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        let q: NotificationQuery
        switch query(request) {
        case .refused(let refused): return refused
        case .query(let read): q = read
        }
        if q.isEmpty {
            let count = service.store.count
            do { try service.store.clear() } catch { return failure(500, "InternalServerError", "\(error)") }
            return json(200, JSONObject([("deleted", .number(String(count)))]))
        }
        let (rows, _) = service.search(q, limit: IntakeService.searchLimit)
        try? service.store.delete(ids: rows.map(\.id))
        return json(200, JSONObject([("deleted", .number(String(rows.count)))]))
    }

    /// `GET /api/v1/wait?query=&timeout=&after=CURSOR`: the first notification stored after the
    /// cursor (now, without one) that the query matches, as soon as it is stored; 408 with what
    /// did arrive when the timeout (seconds, 30 by default, at most 120) passes first. No thread
    /// waits: the connection is parked, and answered from the arrivals.
    static func wait(_ request: HTTPRequest, _ service: IntakeService, requests: RequestLog) -> HTTPResponse {
        let q: NotificationQuery
        switch query(request) {
        case .refused(let refused): return refused
        case .query(let read): q = read
        }
        APIEvents.wire(service, requests: requests)
        let timeout = min(max(Double(request.query["timeout"] ?? "") ?? 30, 0), maxWait)
        let start = request.query["after"].flatMap { Int64($0) } ?? service.store.latestID
        let languages = languages(request)
        let matcher = QueryMatcher(q, renderings: service.renderings, registration: service.phone.registration())
        let later = LaterAnswer()
        let seen = Locked<(last: Int64, arrived: [StoredNotification])>((start, []))
        // What arrived after the cursor and did not match, once each (the watch and the catch-up overlap).
        @Sendable func saw(_ row: StoredNotification) -> Bool {
            seen.withLock { seen in
                guard row.id > seen.last else { return false }
                seen.last = row.id
                seen.arrived.append(row)
                if seen.arrived.count > 200 { seen.arrived.removeFirst(100) }
                return true
            }
        }
        @Sendable func found(_ row: StoredNotification) {
            // Answered off the arrivals' thread: a rendering in other languages may be made for it.
            DispatchQueue.global().async {
                let item = item(row, service, languages: languages, dates: InboxListing.dateFormatter())
                later.resolve(json(200, JSONObject([("notification", item)])))
            }
        }
        // Watched first, then caught up from the store: nothing stored in between is missed.
        // Arrivals come unrendered, on the intake's feed: a query of the row's own fields is
        // judged there; one that reads renderings is judged off it (its renderings made on demand).
        let judging = DispatchQueue(label: "pushbox.wait")
        let key = service.events.watchArrivals { burst in
            guard !later.isResolved else { return false }
            let rows = burst.map(\.row).filter(saw)
            guard q.needsRendering else {
                guard let hit = rows.first(where: { matcher.matches($0) }) else { return true }
                found(hit)
                return false
            }
            judging.async {
                guard !later.isResolved, let hit = rows.first(where: { matcher.matches($0) }) else { return }
                found(hit)
            }
            return true
        }
        for row in (try? service.store.rows(after: start, limit: 1000)) ?? [] where saw(row) && matcher.matches(row) {
            service.events.unwatch(key)
            found(row)
            break
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            service.events.unwatch(key)
            guard !later.isResolved else { return }
            let (last, arrived) = seen.withLock { ($0.last, $0.arrived) }
            let dates = InboxListing.dateFormatter()
            later.resolve(
                json(
                    408,
                    JSONObject([
                        ("error", .string("Timeout")), ("detail", .string("nothing the query matches arrived in \(timeout) s")),
                        ("arrived", .array(arrived.suffix(100).map { item($0, service, languages: languages, dates: dates) })),
                        ("cursor", .string(String(last))),
                    ])))
        }
        var response = HTTPResponse(status: 200)
        response.later = later
        return response
    }

    static func json(_ status: Int, _ object: JSONObject) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(.object(object)).utf8))
    }

    static func failure(_ status: Int, _ code: String, _ detail: String) -> HTTPResponse {
        var response = json(status, JSONObject([("error", .string(code)), ("detail", .string(detail))]))
        response.cause = code
        return response
    }
}
