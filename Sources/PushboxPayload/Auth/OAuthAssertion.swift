import Foundation
import PushboxJSON

/// The JWT a Google service account signs to get an access token (the OAuth 2 JWT-bearer
/// grant): header `{"alg": "RS256", "kid": <private_key_id>}`, claims `iss` (the account's
/// email), `scope`, `aud` (the token URI), `iat` and `exp` (at most an hour after `iat`).
public struct OAuthAssertion: Sendable, Equatable {
    /// `kid`, when the header names the key.
    public var keyID: String?
    /// `iss`: the service account's email.
    public var issuer: String
    /// `scope`, split on spaces.
    public var scopes: [String]
    /// `aud`: the token endpoint.
    public var audience: String
    /// `iat`, in seconds since 1970.
    public var issuedAt: Double
    /// `exp`, in seconds since 1970.
    public var expiresAt: Double
    /// `<header>.<claims>` as sent: what the signature covers.
    public var signingInput: [UInt8]
    /// The RS256 signature's bytes.
    public var signature: [UInt8]

    /// The `grant_type` a JWT-bearer token request carries (RFC 7523).
    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    static let maxLength = 16 * 1024

    /// Google's answer to an assertion it refuses: the OAuth error code and its description.
    public struct Problem: Error, Sendable, Equatable {
        /// The OAuth error code (`invalid_grant`).
        public var error: String
        /// Why, in words.
        public var description: String
        init(_ error: String, _ description: String) {
            self.error = error
            self.description = description
        }
        init(_ description: String) { self.init("invalid_grant", description) }
    }

    /// The assertion's header, claims and signature, or Google's error for it.
    public static func parse(_ text: String) -> Result<OAuthAssertion, Problem> {
        guard text.utf8.count <= maxLength else { return .failure(Problem("Invalid JWT: the assertion is \(text.utf8.count) bytes")) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONParser.parse(headerBytes).objectValue,
            let claimsBytes = Base64URL.decode(parts[1]), let claims = try? JSONParser.parse(claimsBytes).objectValue,
            let signature = Base64URL.decode(parts[2])
        else {
            return .failure(Problem("Invalid JWT: the assertion is not three base64url parts of JSON"))
        }
        guard header["alg"]?.stringValue == "RS256" else {
            return .failure(Problem("Invalid JWT: alg must be RS256, not \(header["alg"]?.stringValue ?? "missing")"))
        }
        guard let iss = claims["iss"]?.stringValue, !iss.isEmpty else {
            return .failure(Problem("Invalid JWT: no iss (the service account's email)"))
        }
        guard let aud = claims["aud"]?.stringValue else { return .failure(Problem("Invalid JWT: no aud (the token URI)")) }
        guard let iat = claims["iat"]?.doubleValue, let exp = claims["exp"]?.doubleValue else {
            return .failure(Problem("Invalid JWT: iat and exp must be numbers of seconds"))
        }
        let scopes = (claims["scope"]?.stringValue ?? "").split(separator: " ").map(String.init)
        return .success(
            OAuthAssertion(
                keyID: header["kid"]?.stringValue, issuer: iss, scopes: scopes, audience: aud, issuedAt: iat, expiresAt: exp,
                signingInput: Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count)), signature: signature))
    }

    /// Google's checks of the claims at `now`: a short-lived token in a reasonable timeframe,
    /// an audience that is a token URI, and a scope.
    public func checkClaims(now: Double, acceptedAudience: (String) -> Bool) -> Problem? {
        let timeframe =
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."
        if expiresAt - issuedAt > 3600 || expiresAt <= issuedAt || expiresAt < now || issuedAt > now + 300 { return Problem(timeframe) }
        if !acceptedAudience(audience) { return Problem("Invalid JWT: audience \(audience) is not a token URI") }
        if scopes.isEmpty { return Problem("invalid_scope", "Invalid OAuth scope or ID token audience provided.") }
        return nil
    }
}

/// A form-urlencoded body (`a=b&c=d`), as the token endpoint receives it.
public enum FormBody {
    /// The fields of an `application/x-www-form-urlencoded` body.
    public static func parse(_ bytes: [UInt8]) -> [String: String] {
        var out: [String: String] = [:]
        for pair in String(decoding: bytes, as: UTF8.self).split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s) }
            out[decode(kv[0])] = kv.count > 1 ? decode(kv[1]) : ""
        }
        return out
    }
}
