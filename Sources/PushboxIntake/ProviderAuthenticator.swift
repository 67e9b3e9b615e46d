import Foundation
import PushboxJSON
import PushboxPayload
import PushboxSystem
import PushboxTLS

/// A provider key pushbox verifies tokens with.
public struct RegisteredProviderKey: Sendable {
    /// The key's id (`kid`).
    public var keyID: String
    /// The team the key belongs to; nil accepts any `iss` signed by the key.
    public var teamID: String?
    /// The public key tokens are checked with.
    public var key: ES256Key

    /// A provider key, with the team it belongs to when known.
    public init(keyID: String, teamID: String?, key: ES256Key) {
        self.keyID = keyID
        self.teamID = teamID
        self.key = key
    }
}

/// What the TCP port decided about a request's credentials.
public enum AuthVerdict: Sendable, Equatable {
    case accepted(Arrival.Authentication)
    case refused(APNsReason, String)
}

/// One connection's provider-token history: the team it speaks for, the token in use and when
/// that token was first used, and how long the connection stays refused after a too-early change.
public final class ConnectionAuthState: Sendable {
    struct History {
        var teamID: String?
        var token: String?
        var tokenFirstUsed: Double = 0
        var refusedUntil: Double = 0
        /// The last authorization header that passed `checkedToken`, as sent, with what it gave:
        /// a connection sends one token for many requests, so most are judged without trimming
        /// or looking it up again.
        var lastChecked: (header: String, text: String, token: ProviderToken, verified: Bool)?
    }

    /// Requests of one HTTP/2 connection are judged on several threads at once.
    let history = Locked(History())

    /// A connection that has not spoken yet.
    public init() {}
}

/// Judges provider authentication exactly as APNs does (Apple's "Establishing a token-based
/// connection to APNs"; the reasons of "Handling notification responses from APNs"): a bearer
/// ES256 token whose key is registered (or, with none registered, whose form and times are
/// right), or a TLS client certificate.
public final class ProviderAuthenticator: Sendable {
    /// Registered keys by id.
    public let keys: [String: RegisteredProviderKey]
    /// Tokens whose form, key and signature passed, by their text: providers reuse one token for
    /// 20–60 minutes, so each is parsed and verified once, not once per notification.
    private let checked = Locked<[String: (token: ProviderToken, verified: Bool)]>([:])
    static let checkedLimit = 1024
    /// Wall-clock seconds since 1970; tokens are stamped with real time, not the device's clock.
    let now: @Sendable () -> Double
    /// How old a token may be (APNs: one hour).
    public static let maxTokenAge: Double = 3600
    /// How far ahead of this clock an `iat` may be (clock skew); beyond it the token is refused.
    public static let maxClockSkew: Double = 300
    /// How long a connection keeps one token before it may change it (APNs: 20 minutes).
    public static let minTokenLifetime: Double = 1200

    /// Judges with these keys (none: form and times only) on the wall clock `now`.
    public init(keys: [RegisteredProviderKey], now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        var byID: [String: RegisteredProviderKey] = [:]
        for k in keys { byID[k.keyID] = k }
        self.keys = byID
        self.now = now
    }

    /// The verdict for one request on `connection`. `certificate` is the TLS client certificate.
    public func judge(authorization: String?, certificate: ClientCertificate?, connection: ConnectionAuthState) -> AuthVerdict {
        let now = now()
        return connection.history.withLock { connection in
            judge(authorization: authorization, certificate: certificate, connection: &connection, now: now)
        }
    }

    private func judge(authorization: String?, certificate: ClientCertificate?, connection: inout ConnectionAuthState.History, now: Double)
        -> AuthVerdict
    {
        if now < connection.refusedUntil {
            return .refused(
                .tooManyProviderTokenUpdates,
                "this connection changed its token less than 20 minutes after the previous one was first used; it is refused for \(Int(connection.refusedUntil - now)) s more"
            )
        }
        guard let authorization else {
            if let certificate { return .accepted(.certificate(subject: certificate.subject, topic: certificate.uid)) }
            return .refused(.missingProviderToken, "the request has no authorization header and the connection no client certificate")
        }
        let text: String
        let token: ProviderToken
        let verified: Bool
        if let last = connection.lastChecked, last.header == authorization {
            (text, token, verified) = (last.text, last.token, last.verified)
        } else {
            text = ByteText.trimmingSpaces(authorization)
            switch checkedToken(text) {
            case .failure(let refusal): return .refused(refusal.reason, refusal.detail)
            case .success(let (t, v)): (token, verified) = (t, v)
            }
            connection.lastChecked = (authorization, text, token, verified)
        }
        if let team = connection.teamID, team != token.teamID {
            return .refused(
                .invalidProviderToken, "this connection speaks for team \(team); a token of team \(token.teamID) needs a connection of its own")
        }
        if now - token.issuedAt > Self.maxTokenAge {
            return .refused(.expiredProviderToken, "the token was issued \(Int(now - token.issuedAt)) s ago; APNs accepts tokens up to one hour old")
        }
        if token.issuedAt - now > Self.maxClockSkew {
            return .refused(.invalidProviderToken, "the token's iat is \(Int(token.issuedAt - now)) s in the future")
        }
        if let current = connection.token, current != text {
            if now - connection.tokenFirstUsed < Self.minTokenLifetime {
                connection.refusedUntil = connection.tokenFirstUsed + Self.minTokenLifetime
                return .refused(
                    .tooManyProviderTokenUpdates,
                    "the connection's token changed \(Int(now - connection.tokenFirstUsed)) s after the previous one was first used; APNs allows one change per 20 minutes"
                )
            }
        }
        if connection.token != text {
            connection.token = text
            connection.tokenFirstUsed = now
        }
        connection.teamID = token.teamID
        return .accepted(
            .providerToken(
                teamID: token.teamID, keyID: token.keyID, ageSeconds: max(0, Int(now - token.issuedAt)), verified: verified,
                iatIsString: token.issuedAtIsString))
    }

    /// The token's form, key and signature, from the cache or checked now (and cached when they pass).
    private func checkedToken(_ text: String) -> Result<(ProviderToken, Bool), RefusalVerdict> {
        if let hit = checked.withLock({ $0[text] }) {
            return .success((hit.token, hit.verified))
        }
        let token: ProviderToken
        switch ProviderToken.fromAuthorization(text) {
        case .failure(let problem): return .failure(RefusalVerdict(.invalidProviderToken, problem.description))
        case .success(let t): token = t
        }
        var verified = false
        if !keys.isEmpty {
            guard let registered = keys[token.keyID] else {
                return .failure(
                    RefusalVerdict(
                        .invalidProviderToken, "no provider key \(token.keyID) is registered (known: \(keys.keys.sorted().joined(separator: ", ")))"))
            }
            if let team = registered.teamID, team != token.teamID {
                return .failure(RefusalVerdict(.invalidProviderToken, "key \(token.keyID) belongs to team \(team), not \(token.teamID)"))
            }
            guard registered.key.verify(token.signingInput, signature: token.signature) else {
                return .failure(RefusalVerdict(.invalidProviderToken, "the signature does not verify with key \(token.keyID)"))
            }
            verified = true
        }
        checked.withLock { table in
            if table.count >= Self.checkedLimit { table.removeAll() }
            table[text] = (token, verified)
        }
        return .success((token, verified))
    }
}

/// A refusal carried through a `Result`.
struct RefusalVerdict: Error {
    let reason: APNsReason
    let detail: String
    init(_ reason: APNsReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}
