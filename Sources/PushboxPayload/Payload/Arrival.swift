import PushboxJSON

/// How a request reached pushbox's HTTP API: which listener, which protocol, which client, and
/// how the provider authenticated. Kept with the notification for its trace and `list --json`;
/// never holds the token itself.
public struct Arrival: Sendable, Equatable {
    /// `unix /path/pushbox.sock` or `tcp 127.0.0.1:2197`.
    public var listener: String {
        get { fields.listener }
        _modify {
            unique()
            yield &fields.listener
        }
    }
    /// `h2` (HTTP/2 over TLS), `h2c` (cleartext HTTP/2), `http/1.1`.
    public var protocolName: String {
        get { fields.protocolName }
        _modify {
            unique()
            yield &fields.protocolName
        }
    }
    /// Whether the connection was TLS (HTTP/1.1 may be either).
    public var tls: Bool {
        get { fields.tls }
        _modify {
            unique()
            yield &fields.tls
        }
    }
    /// The client's `user-agent`, when it sent one.
    public var userAgent: String? {
        get { fields.userAgent }
        _modify {
            unique()
            yield &fields.userAgent
        }
    }
    /// How the request proved who sent it.
    public var authentication: Authentication {
        get { fields.authentication }
        _modify {
            unique()
            yield &fields.authentication
        }
    }
    /// The FCM project of `/v1/projects/{id}/messages:send`.
    public var fcmProject: String? {
        get { fields.fcmProject }
        _modify {
            unique()
            yield &fields.fcmProject
        }
    }
    /// The host the request was addressed to: a tunnel's CONNECT target, else `:authority` or
    /// `Host` (`api.push.apple.com`), without the port; nil when it named none (the socket).
    public var host: String? {
        get { fields.host }
        _modify {
            unique()
            yield &fields.host
        }
    }
    /// The chaos rule that answered this push instead of the service (`#3 fcm 503 UNAVAILABLE`):
    /// the answer the sender heard was injected, not APNs' or FCM's.
    public var chaos: String? {
        get { fields.chaos }
        _modify {
            unique()
            yield &fields.chaos
        }
    }

    /// The fields behind one reference, copied before a change when shared: an arrival travels
    /// with every request, payload and row of a push, copied several times on the way, and one
    /// retain is cheaper than the eight its strings and authentication cost (callgrind).
    private var fields: Fields

    /// The stored fields of an arrival; changed only through `unique()`'s own copy, so
    /// no access needs the run-time exclusivity check (which cost more than the retains saved).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var listener: String
        @exclusivity(unchecked) var protocolName: String
        @exclusivity(unchecked) var tls: Bool
        @exclusivity(unchecked) var userAgent: String?
        @exclusivity(unchecked) var authentication: Authentication
        @exclusivity(unchecked) var fcmProject: String?
        @exclusivity(unchecked) var host: String?
        @exclusivity(unchecked) var chaos: String?

        init(listener: String, protocolName: String, tls: Bool, userAgent: String?, authentication: Authentication) {
            self.listener = listener
            self.protocolName = protocolName
            self.tls = tls
            self.userAgent = userAgent
            self.authentication = authentication
        }

        /// A copy of every field.
        func copy() -> Fields {
            let c = Fields(listener: listener, protocolName: protocolName, tls: tls, userAgent: userAgent, authentication: authentication)
            c.fcmProject = fcmProject
            c.host = host
            c.chaos = chaos
            return c
        }
    }

    /// Makes `fields` this arrival's own before it changes.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
    }

    /// How a request came in.
    public init(listener: String, protocolName: String, tls: Bool, userAgent: String?, authentication: Authentication = .none) {
        fields = Fields(listener: listener, protocolName: protocolName, tls: tls, userAgent: userAgent, authentication: authentication)
    }

    /// Equal when every field is.
    public static func == (a: Arrival, b: Arrival) -> Bool {
        a.fields === b.fields
            || (a.listener == b.listener && a.protocolName == b.protocolName && a.tls == b.tls && a.userAgent == b.userAgent
                && a.authentication == b.authentication && a.fcmProject == b.fcmProject && a.host == b.host && a.chaos == b.chaos)
    }

    /// How the sender proved who it is.
    public enum Authentication: Sendable, Equatable {
        /// The Unix socket: the user's own, open without auth.
        case none
        /// A provider token (JWT); `verified` is false when no key was registered for it;
        /// `iatIsString` when its `iat` was a numeric string (`"1733040000"`), which APNs accepts.
        case providerToken(teamID: String, keyID: String, ageSeconds: Int, verified: Bool, iatIsString: Bool = false)
        /// A TLS client certificate.
        case certificate(subject: String, topic: String?)
        /// An OAuth 2 access token pushbox issued to a service account (FCM); `verified` is false
        /// when the account's assertion could not be checked (a key pushbox did not make).
        case accessToken(account: String, verified: Bool)
    }

    /// The one-line account the trace shows.
    public var summary: String {
        var text = "\(protocolName)\(tls && protocolName != "h2" ? " over TLS" : "") on \(listener)"
        if let userAgent { text += ", user-agent \(userAgent)" }
        switch authentication {
        case .none: text += "; no authentication (the socket is the user's own)"
        case .providerToken(let team, let key, let age, let verified, let iatIsString):
            text +=
                "; provider token of team \(team), key \(key), \(age) s old, "
                + (verified ? "signature verified" : "signature NOT checked (no key registered for \(key))")
                + (iatIsString ? "; iat is a string, which APNs accepts" : "")
        case .certificate(let subject, let topic):
            text += "; client certificate \(subject)\(topic.map { " for \($0)" } ?? "")"
        case .accessToken(let account, let verified):
            text +=
                "; OAuth access token of \(account)"
                + (verified ? "" : " (its assertion's signature NOT checked: a service account pushbox did not make)")
        }
        if let fcmProject { text += "; FCM project \(fcmProject)" }
        if let host { text += "; addressed to \(host)" }
        if let chaos { text += "; answered by chaos rule \(chaos), not by the service" }
        return text
    }

    /// The arrival as `list --json` and the store write it.
    public var json: JSONValue {
        var auth: [(key: String, value: JSONValue)]
        switch authentication {
        case .none: auth = [("method", .string("none"))]
        case .providerToken(let team, let key, let age, let verified, let iatIsString):
            auth = [
                ("method", .string("token")), ("teamId", .string(team)), ("keyId", .string(key)),
                ("tokenAgeSeconds", .number(String(age))), ("signatureVerified", .bool(verified)),
            ]
            if iatIsString { auth.append(("iatIsString", .bool(true))) }
        case .certificate(let subject, let topic):
            auth = [("method", .string("certificate")), ("subject", .string(subject)), ("topic", topic.map(JSONValue.string) ?? .null)]
        case .accessToken(let account, let verified):
            auth = [("method", .string("oauth")), ("account", .string(account)), ("signatureVerified", .bool(verified))]
        }
        return .object(
            JSONObject(
                [
                    ("listener", .string(listener)), ("protocol", .string(protocolName)), ("tls", .bool(tls)),
                    ("userAgent", userAgent.map(JSONValue.string) ?? .null), ("authentication", .object(JSONObject(auth))),
                    ("fcmProject", fcmProject.map(JSONValue.string) ?? .null),
                ] + (host.map { [("host", JSONValue.string($0))] } ?? []) + (chaos.map { [("chaos", JSONValue.string($0))] } ?? [])))
    }

    /// An arrival read back from the store.
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let listener = o["listener"]?.stringValue, let proto = o["protocol"]?.stringValue else { return nil }
        let auth = o["authentication"]?.objectValue
        var authentication = Authentication.none
        switch auth?["method"]?.stringValue {
        case "token":
            authentication = .providerToken(
                teamID: auth?["teamId"]?.stringValue ?? "", keyID: auth?["keyId"]?.stringValue ?? "",
                ageSeconds: auth?["tokenAgeSeconds"]?.intValue ?? 0, verified: auth?["signatureVerified"] == .bool(true),
                iatIsString: auth?["iatIsString"] == .bool(true))
        case "certificate":
            authentication = .certificate(subject: auth?["subject"]?.stringValue ?? "", topic: auth?["topic"]?.stringValue)
        case "oauth":
            authentication = .accessToken(account: auth?["account"]?.stringValue ?? "", verified: auth?["signatureVerified"] == .bool(true))
        default: break
        }
        self.init(
            listener: listener, protocolName: proto, tls: o["tls"] == .bool(true), userAgent: o["userAgent"]?.stringValue,
            authentication: authentication)
        fcmProject = o["fcmProject"]?.stringValue
        host = o["host"]?.stringValue
        chaos = o["chaos"]?.stringValue
    }
}
