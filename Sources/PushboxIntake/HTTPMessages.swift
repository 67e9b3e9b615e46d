import Foundation
import PushboxInbox
import PushboxPayload
import PushboxTLS

/// One HTTP request as the intake sees it.
public struct HTTPRequest: Sendable {
    /// The request method (`POST`, `GET`).
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The query string's arguments, decoded.
    public var query: [String: String] = [:]
    /// Header names lowercased, in order, duplicates kept.
    public var headers: [(name: String, value: String)]
    /// The body's bytes.
    public var body: [UInt8]
    /// How it arrived (listener, protocol, client, authentication).
    public var arrival: Arrival?
    /// The body's length as sent when only its first `body.count` bytes were kept (a route that
    /// takes bodies over its limit, `EarlyAnswer.handsOverOversize`); nil when every byte was kept.
    public var bodyLength: Int? = nil

    /// A request with its body.
    public init(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8], arrival: Arrival? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.arrival = arrival
    }

    /// The last value of a header (names are lowercase).
    public func header(_ name: String) -> String? { headers.last { $0.name == name }?.value }
}

/// The connection a request came on: where, how, and what it proved about its sender.
public struct ConnectionInfo: Sendable {
    /// `unix /path` or `tcp 127.0.0.1:2197`.
    public var listener: String {
        get { fields.listener }
        _modify {
            unique()
            yield &fields.listener
        }
    }
    /// `http/1.1` or `h2`.
    public var protocolName: String {
        get { fields.protocolName }
        _modify {
            unique()
            yield &fields.protocolName
        }
    }
    /// Whether the connection is TLS.
    public var tls: Bool {
        get { fields.tls }
        _modify {
            unique()
            yield &fields.tls
        }
    }
    /// The TCP port asks providers for a token or a client certificate; the Unix socket does not.
    public var requiresAuth: Bool {
        get { fields.requiresAuth }
        _modify {
            unique()
            yield &fields.requiresAuth
        }
    }
    /// The client's certificate, when it showed one.
    public var certificate: ClientCertificate? {
        get { fields.certificate }
        _modify {
            unique()
            yield &fields.certificate
        }
    }
    /// The connection's token history (one per HTTP/2 connection; a fresh one per HTTP/1.1 request).
    public var auth: ConnectionAuthState {
        get { fields.auth }
        _modify {
            unique()
            yield &fields.auth
        }
    }
    /// The `host:port` a proxy client asked for with CONNECT, when the connection is its tunnel.
    public var connectTarget: String? {
        get { fields.connectTarget }
        _modify {
            unique()
            yield &fields.connectTarget
        }
    }

    /// The fields behind one reference, copied before a change when shared: every request head
    /// of a connection carries them, and one retain is cheaper than the six their strings and
    /// certificate cost (callgrind).
    private var fields: Fields

    /// The stored fields of a connection's description; changed only through `unique()`'s own copy, so
    /// no access needs the run-time exclusivity check (which cost more than the retains saved).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var listener: String
        @exclusivity(unchecked) var protocolName: String
        @exclusivity(unchecked) var tls: Bool
        @exclusivity(unchecked) var requiresAuth: Bool
        @exclusivity(unchecked) var certificate: ClientCertificate?
        @exclusivity(unchecked) var auth: ConnectionAuthState
        @exclusivity(unchecked) var connectTarget: String?

        init(
            listener: String, protocolName: String, tls: Bool, requiresAuth: Bool, certificate: ClientCertificate?, auth: ConnectionAuthState,
            connectTarget: String?
        ) {
            self.listener = listener
            self.protocolName = protocolName
            self.tls = tls
            self.requiresAuth = requiresAuth
            self.certificate = certificate
            self.auth = auth
            self.connectTarget = connectTarget
        }

        /// A copy of every field.
        func copy() -> Fields {
            let c = Fields(
                listener: listener, protocolName: protocolName, tls: tls, requiresAuth: requiresAuth, certificate: certificate, auth: auth,
                connectTarget: connectTarget)
            return c
        }
    }

    /// Makes `fields` a connection's description's own before it changes.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
    }

    /// Where a connection came in and how.
    public init(
        listener: String, protocolName: String, tls: Bool, requiresAuth: Bool, certificate: ClientCertificate? = nil,
        auth: ConnectionAuthState = ConnectionAuthState(), connectTarget: String? = nil
    ) {
        fields = Fields(
            listener: listener, protocolName: protocolName, tls: tls, requiresAuth: requiresAuth, certificate: certificate, auth: auth,
            connectTarget: connectTarget)
    }
}

/// A request's line and headers, before any body byte is read.
public struct RequestHead: Sendable {
    /// The request method.
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The query string's arguments (`?limit=50&before=120`), decoded.
    public var query: [String: String] = [:]
    /// Request headers, in order, names lowercased.
    public var headers: [(name: String, value: String)]
    /// The connection it came over.
    public var connection: ConnectionInfo
    /// The body's size in bytes as far as it was read when the answer went out.
    public var bodyBytes = 0

    /// A request's line and headers, before its body.
    public init(method: String, path: String, headers: [(name: String, value: String)], connection: ConnectionInfo) {
        self.method = method
        self.path = path
        self.headers = headers
        self.connection = connection
    }

    /// How the request arrived, with the authentication `early` accepted.
    func arrival(_ authentication: Arrival.Authentication) -> Arrival {
        var arrival = Arrival(
            listener: connection.listener, protocolName: connection.protocolName, tls: connection.tls,
            userAgent: headers.last { $0.name == "user-agent" }?.value, authentication: authentication)
        arrival.host = addressedHost
        return arrival
    }

    /// The host the request was addressed to, without its port: a tunnel's CONNECT target (the
    /// client asked the proxy for it), else `:authority` or `Host`; nil when it named none.
    var addressedHost: String? {
        guard let named = connection.connectTarget ?? headers.last(where: { $0.name == "host" })?.value else { return nil }
        return Self.host(named)
    }

    /// The host of a `Host`/`:authority` value or CONNECT target, read from its bytes (every push
    /// asks): `[::1]:443` keeps its brackets, a name or IPv4 address loses its port and is lower
    /// case; the value itself when it is already that; nil when it is empty.
    static func host(_ named: String) -> String? {
        var named = named
        let whole = named.utf8.count
        guard whole > 0 else { return nil }
        let (end, bracketed, upper) = named.withUTF8 { b -> (Int, Bool, Bool) in
            if b[0] == UInt8(ascii: "[") { return (b.firstIndex(of: UInt8(ascii: "]")) ?? b.count, true, false) }
            let end = b.firstIndex(of: UInt8(ascii: ":")) ?? b.count
            return (end, false, b[..<end].contains { $0 &- UInt8(ascii: "A") < 26 })
        }
        let host = end == whole ? named : named.withUTF8 { String(decoding: $0[..<end], as: UTF8.self) }
        if bracketed { return host + "]" }
        return upper ? host.lowercased() : host
    }
}

/// What the application decides from a request's head.
public struct EarlyAnswer: Sendable {
    /// An answer to send at once (the body is then never read), or nil to read the body.
    public var response: HTTPResponse?
    /// The most body bytes to accept.
    public var maxBody: Int
    /// How the request authenticated (provider token, certificate, none).
    public var authentication: Arrival.Authentication
    /// A body over `maxBody` is handled anyway, its first `maxBody` bytes kept and its length
    /// counted (`HTTPRequest.bodyLength`), so the refusal reaches the inbox; false answers `tooLarge`.
    public var handsOverOversize: Bool
    /// The request's route takes requests in batches (pushes: one transaction for many), so a
    /// server may hold it to hand over with others (`RequestBatcher`).
    public var batches: Bool

    /// Answer now (`response`), or read a body of at most `maxBody` bytes.
    public init(
        response: HTTPResponse?, maxBody: Int, authentication: Arrival.Authentication = .none, handsOverOversize: Bool = false,
        batches: Bool = false
    ) {
        self.response = response
        self.maxBody = maxBody
        self.authentication = authentication
        self.handsOverOversize = handsOverOversize
        self.batches = batches
    }

    /// The most body bytes a server reads and throws away before answering a request it has
    /// already decided (a refusal, a body over its limit), so the client reads the answer instead
    /// of a reset; beyond it the answer goes at once and the connection closes (RFC 9112 §9.6).
    public static let drainLimit = 16 << 20
}

/// What the servers ask of the application.
public protocol HTTPRequestHandler: AnyObject, Sendable {
    /// Looks at the request line and headers before any body byte is read.
    func early(_ head: RequestHead) -> EarlyAnswer
    /// The whole request, after `early` let it through.
    func handle(_ request: HTTPRequest) -> HTTPResponse
    /// Requests that arrived together (an HTTP/2 connection's), answered in order.
    func handle(batch requests: [HTTPRequest]) -> [HTTPResponse]
    /// The answer a request got too big for its limit, with whatever ids it must carry.
    func tooLarge(_ head: RequestHead) -> HTTPResponse
    /// Told of every answer sent (the access log).
    func answered(_ head: RequestHead, _ response: HTTPResponse)
    /// The chaos rules whose connection settings (`max-streams`, `idle-close`) connections follow.
    var chaosRules: ChaosBook? { get }
}

extension HTTPRequestHandler {
    /// One by one, by default.
    public func handle(batch requests: [HTTPRequest]) -> [HTTPResponse] { requests.map(handle) }
    /// No chaos, by default.
    public var chaosRules: ChaosBook? { nil }
}

/// HTTP's dates (RFC 9110's IMF-fixdate, `Wed, 21 Oct 2026 07:28:00 GMT`), as `Retry-After` carries them.
enum HTTPDate {
    /// A formatter in GMT with the POSIX locale; made per use (DateFormatter is not to be shared across threads).
    private static func formatter(_ format: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = format
        return f
    }

    /// `date` as an IMF-fixdate.
    static func string(_ date: Date) -> String { formatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'").string(from: date) }

    /// The date `text` says (its zone read, GMT as HTTP writes it); nil when it is none.
    static func date(_ text: String) -> Date? { formatter("EEE, dd MMM yyyy HH:mm:ss zzz").date(from: text) }
}
