import PushboxInbox
import PushboxPayload

/// Which request paths a route takes.
public struct PathPattern: Sendable {
    private let test: @Sendable (String) -> Bool

    /// Exactly these paths.
    public static func exact(_ paths: String...) -> PathPattern {
        let set = Set(paths)
        return PathPattern { set.contains($0) }
    }

    /// Every path beginning with `prefix`.
    public static func prefix(_ prefix: String) -> PathPattern { PathPattern { $0.hasPrefix(prefix) } }

    /// The paths `test` says yes to (`/v1/projects/{id}/messages:send`).
    public static func matching(_ test: @escaping @Sendable (String) -> Bool) -> PathPattern { PathPattern(test: test) }

    /// Whether the route takes `path`.
    public func matches(_ path: String) -> Bool { test(path) }
}

/// A refusal made before any body byte is read, in the route's own shape.
public struct Refusal: Error, Sendable {
    /// The answer sent instead.
    public var response: HTTPResponse
    /// A refusal answered with `response`.
    public init(_ response: HTTPResponse) { self.response = response }
}

/// One route of the HTTP API: the methods and paths it takes, the largest body it reads, the
/// check made on the request's head before the body is read (authentication and the like), its
/// handler, and how it shapes the router's refusals (APNs' `reason`, Google's error object).
public struct Route: Sendable {
    /// What the route serves, for people (`apns-push`, `fcm-send`).
    public var name: String
    /// The methods it takes; nil takes every method (its check decides).
    public var methods: Set<String>?
    /// The paths it takes.
    public var paths: PathPattern
    /// The largest body it reads, from the request's head.
    public var maxBody: @Sendable (RequestHead) -> Int
    /// The check of the head before any body byte is read: refused, or how the request authenticated.
    public var check: @Sendable (RequestHead) -> Result<Arrival.Authentication, Refusal>
    /// Answers the whole request.
    public var handle: @Sendable (HTTPRequest) -> HTTPResponse
    /// Answers several of its requests that arrived together, in order (one transaction for
    /// pushes); nil answers them one by one.
    public var handleBatch: (@Sendable ([HTTPRequest]) -> [HTTPResponse])?
    /// The route's answer for `MethodNotAllowed` and `PayloadTooLarge`, in its API's shape.
    public var refusal: @Sendable (APNsReason, RequestHead) -> HTTPResponse
    /// A body over `maxBody` is handled anyway, with its first `maxBody` bytes and its length
    /// (the handler refuses it where the inbox keeps refusals); false answers `refusal` 413.
    public var handsOverOversize: Bool
    /// What the route says of itself in `GET /api/v1/openapi.json`; nil: not in it.
    public var doc: RouteDoc? = nil

    /// A route; without a check every head passes unauthenticated.
    public init(
        _ name: String, methods: Set<String>?, paths: PathPattern, maxBody: @escaping @Sendable (RequestHead) -> Int,
        handsOverOversize: Bool = false,
        check: @escaping @Sendable (RequestHead) -> Result<Arrival.Authentication, Refusal> = { _ in .success(.none) },
        refusal: @escaping @Sendable (APNsReason, RequestHead) -> HTTPResponse,
        handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        handleBatch: (@Sendable ([HTTPRequest]) -> [HTTPResponse])? = nil
    ) {
        self.handleBatch = handleBatch
        self.name = name
        self.methods = methods
        self.paths = paths
        self.maxBody = maxBody
        self.handsOverOversize = handsOverOversize
        self.check = check
        self.refusal = refusal
        self.handle = handle
    }
}

/// The HTTP API as one table of routes, which every listener serves (the Unix socket, the TCP
/// port, the tunnel): the first route whose paths match takes the request; its method, its
/// check and its body limit are judged from the head before any body byte is read.
public final class APIRouter: HTTPRequestHandler, Sendable {
    /// The routes, in the order they are tried.
    public let routes: [Route]
    /// The intake the push routes hand payloads to.
    public let service: IntakeService
    /// Local notifications of the running instance (`/pushbox/…` routes), when it keeps them.
    public let scheduler: LocalScheduler?
    /// Told of every answer, as its record (`serve`'s access log); set before any server starts.
    public let accessLog: (@Sendable (RequestRecord) -> Void)?
    /// Every answer, kept for `GET /requests`.
    public let requests = RequestLog()
    /// Where the browser inbox is served, once the TCP port is bound.
    public let web = WebAddress()
    /// The chaos rules: faults injected into push requests while any is on.
    public let chaos = ChaosBook()
    public var chaosRules: ChaosBook? { chaos }

    /// pushbox's API in front of `service`: APNs' `POST /3/device/<token>`, FCM's and OAuth's
    /// routes, `GET /inbox` and the scheduler's `/pushbox/…` routes.
    public init(
        service: IntakeService, scheduler: LocalScheduler? = nil, authenticator: ProviderAuthenticator = ProviderAuthenticator(keys: []),
        fcm: FCMEndpoint? = nil, accessLog: (@Sendable (RequestRecord) -> Void)? = nil
    ) {
        self.service = service
        self.scheduler = scheduler
        self.accessLog = accessLog
        let apns = APNsEndpoint(service: service, authenticator: authenticator)
        // Pushes first: they are nearly every request, and no other route's paths begin with /3/device/.
        routes =
            apns.routes + BroadcastEndpoint(service: service, authenticator: authenticator).routes + (fcm ?? FCMEndpoint(service: service)).routes + [
                InboxListing.route(service), InboxListing.deviceRoute(service), FleetRoute.route(service), RequestLog.route(requests),
                RequestLog.summaryRoute(requests), RequestLog.retriesRoute(requests),
            ]
            + ScheduleEndpoint.routes(scheduler) + APIv1.routes(service, requests: requests, web: web, chaos: chaos) + WebRoutes.routes()
    }

    /// The route that takes `path`, if any.
    public func route(for path: String) -> Route? { routeIndex(for: path).map { routes[$0] } }

    /// Where in `routes` the route that takes `path` is.
    func routeIndex(for path: String) -> Int? { routes.firstIndex { $0.paths.matches(path) } }

    /// The answer for a path no route takes, in the shape of the host asked: Google's 404 on a
    /// Google host (by `:authority`/`Host`, or the tunnel's), APNs' `BadPath` elsewhere.
    static func notFound(headers: [(name: String, value: String)], listener: String) -> HTTPResponse {
        let host = headers.last { $0.name == "host" }?.value.lowercased() ?? ""
        let name = host.split(separator: ":").first.map(String.init) ?? host
        let google = ["googleapis.com", "google.com"].contains {
            name == $0 || name.hasSuffix("." + $0) || listener.contains("CONNECT \($0)") || listener.contains(".\($0):")
        }
        guard google else { return APNsEndpoint.refusal(.badPath, headers: headers) }
        var response = FCMEndpoint.googleError(404, "NOT_FOUND", "Requested entity was not found.")
        response.cause = "no route of pushbox's takes this path"
        return response
    }

    /// Judges a request from its line and headers alone: route, method, check, declared size.
    public func early(_ head: RequestHead) -> EarlyAnswer {
        guard let route = route(for: head.path) else {
            return EarlyAnswer(response: Self.notFound(headers: head.headers, listener: head.connection.listener), maxBody: 0)
        }
        if let methods = route.methods, !methods.contains(head.method) {
            return EarlyAnswer(response: route.refusal(.methodNotAllowed, head), maxBody: 0)
        }
        let authentication: Arrival.Authentication
        switch route.check(head) {
        case .failure(let refusal): return EarlyAnswer(response: refusal.response, maxBody: 0)
        case .success(let how): authentication = how
        }
        let limit = route.maxBody(head)
        if !route.handsOverOversize,
            let length = head.headers.last(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }), length > limit
        {
            return EarlyAnswer(response: route.refusal(.payloadTooLarge, head), maxBody: limit)
        }
        return EarlyAnswer(
            response: nil, maxBody: limit, authentication: authentication, handsOverOversize: route.handsOverOversize,
            batches: route.handleBatch != nil)
    }

    /// Answers a whole request `early` let through.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard let route = route(for: request.path) else { return Self.notFound(headers: request.headers, listener: request.arrival?.listener ?? "") }
        guard let name = ChaosAnswers.service(ofRoute: route.name) else { return route.handle(request) }
        var response = chaos.isArmed ? handleWithChaos(request, route: route, service: name) : route.handle(request)
        response.messageKey = ChaosAnswers.messageKey(request, service: name)
        return response
    }

    /// Answers requests that arrived together, in order: a route's requests in one batch where
    /// it takes batches (pushes: one transaction), the others one by one.
    public func handle(batch requests: [HTTPRequest]) -> [HTTPResponse] {
        // While chaos is on, each push meets the rules on its own.
        if chaos.isArmed { return requests.map(handle) }
        var responses = [HTTPResponse?](repeating: nil, count: requests.count)
        // Request indexes by the route (its index in the table) that takes them as a batch.
        var byRoute: [Int: [Int]] = [:]
        for (i, request) in requests.enumerated() {
            if let r = routeIndex(for: request.path), routes[r].handleBatch != nil {
                byRoute[r, default: []].append(i)
            } else {
                responses[i] = handle(request)
            }
        }
        for (r, indexes) in byRoute {
            guard let batch = routes[r].handleBatch else { continue }
            for (i, response) in zip(indexes, batch(indexes.map { requests[$0] })) {
                var response = response
                if let name = ChaosAnswers.service(ofRoute: routes[r].name) {
                    response.messageKey = ChaosAnswers.messageKey(requests[i], service: name)
                }
                responses[i] = response
            }
        }
        return responses.enumerated().map { $0.element ?? handle(requests[$0.offset]) }
    }

    /// 413 for a body that outgrew the limit while it was read, in the route's shape.
    public func tooLarge(_ head: RequestHead) -> HTTPResponse {
        route(for: head.path)?.refusal(.payloadTooLarge, head) ?? APNsEndpoint.refusal(.payloadTooLarge, head)
    }

    /// Hears every answer given (the access log).
    public func answered(_ head: RequestHead, _ response: HTTPResponse) {
        // One record per answer: the request log keeps it, the access log prints it.
        let record = requests.record(head, response)
        accessLog?(record)
    }
}
