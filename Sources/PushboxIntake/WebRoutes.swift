import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxSystem

/// Where the browser inbox is served (`host:port` of the TCP port), once the port is bound; nil
/// while pushbox listens on no TCP port. `GET /api/v1/health` and `pushbox web` say it.
public final class WebAddress: Sendable {
    private let value = Locked<String?>(nil)
    /// Not known yet.
    public init() {}
    /// `host:port`, when there is one.
    public var address: String? { value.withLock { $0 } }
    /// Sets it from the port's bound address: a port on every address is reached on 127.0.0.1.
    func set(host: String, port: Int) {
        let reachable = ["0.0.0.0", "::", "[::]", ""].contains(host) ? "127.0.0.1" : host
        value.withLock { $0 = "\(reachable.contains(":") && !reachable.hasPrefix("[") ? "[\(reachable)]" : reachable):\(port)" }
    }
}

/// The inbox in a browser: `GET /` and `GET /web/NAME` serve the page and its files, embedded in
/// the binary (`WebAssets`); everything it shows comes from `/api/v1/`. On the port only a
/// loopback `Host` is answered, and every answer forbids anything from elsewhere (scripts, styles,
/// fonts, images, frames) with its Content-Security-Policy.
enum WebRoutes {
    /// The policy of every page answer: this origin only, nothing inline, never framed.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// `/web/profiles.json`: the preview profiles the page clamps a card by (`PreviewProfile`'s,
    /// so the browser and the goldens' judgement never disagree on a number).
    static var profilesJSON: JSONValue { .array(PreviewProfile.all.map(\.json)) }

    static func routes() -> [Route] {
        [
            Route(
                "web", methods: ["GET", "HEAD"], paths: .matching { $0 == "/" || $0 == "/index.html" || $0.hasPrefix("/web/") }, maxBody: { _ in 0 },
                check: { head in
                    if let why = APIv1.crossSite(head) { return .failure(Refusal(APIv1.failure(403, "Forbidden", why))) }
                    return .success(.none)
                }, refusal: APNsEndpoint.refusalWithoutID,
                handle: { request in
                    let name = request.path.hasPrefix("/web/") ? String(request.path.dropFirst("/web/".count)) : "index.html"
                    let profiles = ("application/json", JSONWriter.compact(profilesJSON))
                    guard let file = name == "profiles.json" ? profiles : WebAssets.files[name] else {
                        return APIv1.failure(404, "NotFound", "no file \(name) in the browser inbox")
                    }
                    return HTTPResponse(
                        status: 200,
                        headers: [
                            ("Content-Type", file.type), ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
                            ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-cache"),
                        ], body: request.method == "HEAD" ? [] : Array(file.text.utf8))
                })
        ]
    }
}
