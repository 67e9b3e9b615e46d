import Foundation
import PushboxJSON

/// An APNs provider token as APNs reads it from `authorization: bearer <JWT>`: a header
/// `{"alg": "ES256", "kid": <10 characters>}`, claims `{"iss": <10-character team id>, "iat":
/// <seconds, integer or float, or a string of digits>}` and a raw r‖s signature, each part base64url without padding.
public struct ProviderToken: Sendable, Equatable {
    /// `kid`: the key's id in the developer account.
    public var keyID: String
    /// `iss`: the team id.
    public var teamID: String
    /// `iat`, in seconds since 1970.
    public var issuedAt: Double
    /// Whether `iat` came as a numeric JSON string (`"1733040000"`): some provider libraries
    /// sign it so, and APNs accepts it.
    public var issuedAtIsString = false
    /// `<header>.<claims>` as sent: the bytes the signature covers.
    public var signingInput: [UInt8]
    /// The ES256 signature's bytes (r‖s).
    public var signature: [UInt8]

    /// Longer than any real provider token by far; a longer one is refused before decoding.
    public static let maxLength = 4096

    /// Why a token is refused before its signature is looked at.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed(String)
        case wrongAlgorithm(String)

        /// The token's claims, without the signature.
        public var description: String {
            switch self {
            case .malformed(let why): return why
            case .wrongAlgorithm(let alg): return "the token's alg is \(alg); APNs accepts only ES256"
            }
        }
    }

    /// The key id in Apple's name for a provider key file, `AuthKey_<KEYID>.p8` (10 characters).
    public static func keyID(fromFileName path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8"), name.count == "AuthKey_".count + 10 + ".p8".count else { return nil }
        return String(name.dropFirst("AuthKey_".count).dropLast(".p8".count))
    }

    /// A token issued at `issuedAt` for `keyID` and `teamID`, signed by `sign` (raw r‖s of the
    /// signing input); nil when `sign` cannot sign.
    public static func encode(keyID: String, teamID: String, issuedAt: Int, sign: ([UInt8]) -> [UInt8]?) -> String? {
        let input =
            Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8)) + "."
            + Base64URL.encode(Array(#"{"iss":"\#(teamID)","iat":\#(issuedAt)}"#.utf8))
        return sign(Array(input.utf8)).map { input + "." + Base64URL.encode($0) }
    }

    /// The token of an `authorization` header value (`bearer <JWT>`, the scheme in any case).
    public static func fromAuthorization(_ value: String) -> Result<ProviderToken, Problem> {
        let trimmed = ByteText.trimmingSpaces(value)
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else {
            return .failure(.malformed("the authorization header is not \"bearer <token>\""))
        }
        return parse(ByteText.trimmingSpaces(trimmed.dropFirst(7)))
    }

    /// The token's header, claims and signature, as APNs reads them, or what is wrong with it.
    public static func parse(_ token: String) -> Result<ProviderToken, Problem> {
        guard token.utf8.count <= maxLength else {
            return .failure(.malformed("the token is \(token.utf8.count) bytes; a provider token is a few hundred"))
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(.malformed("a JWT has three dot-separated parts; this token has \(parts.count)")) }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONParser.parse(headerBytes).objectValue else {
            return .failure(.malformed("the token's header is not base64url-encoded JSON"))
        }
        guard let claimsBytes = Base64URL.decode(parts[1]), let claims = try? JSONParser.parse(claimsBytes).objectValue else {
            return .failure(.malformed("the token's claims are not base64url-encoded JSON"))
        }
        guard let signature = Base64URL.decode(parts[2]) else { return .failure(.malformed("the token's signature is not base64url")) }
        guard let alg = header["alg"]?.stringValue else { return .failure(.malformed("the token's header has no alg")) }
        guard alg == "ES256" else { return .failure(.wrongAlgorithm(alg)) }
        guard let kid = header["kid"]?.stringValue, kid.count == 10 else {
            return .failure(.malformed("the token's kid must be the 10-character key id"))
        }
        guard let iss = claims["iss"]?.stringValue, iss.count == 10 else {
            return .failure(.malformed("the token's iss must be the 10-character team id"))
        }
        var iatIsString = false
        var iat = claims["iat"]?.doubleValue
        if iat == nil, let text = claims["iat"]?.stringValue, !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            iat = Double(text)
            iatIsString = true
        }
        guard let iat, iat.isFinite else {
            return .failure(.malformed("the token's iat must be a number of seconds (or a string of digits)"))
        }
        guard signature.count == 64 else {
            return .failure(.malformed("an ES256 signature is 64 bytes (r‖s); this one is \(signature.count)"))
        }
        var parsed = ProviderToken(
            keyID: kid, teamID: iss, issuedAt: iat,
            signingInput: Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count)), signature: signature)
        parsed.issuedAtIsString = iatIsString
        return .success(parsed)
    }
}

/// base64url without padding, as JWTs use it.
public enum Base64URL {
    /// The bytes of unpadded base64url text, or nil when it is not.
    public static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var s = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !s.contains("=") else { return nil }
        if s.count % 4 == 1 { return nil }
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map(Array.init)
    }

    /// `bytes` as unpadded base64url.
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
