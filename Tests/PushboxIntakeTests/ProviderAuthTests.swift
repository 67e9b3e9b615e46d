import Foundation
import PushboxJSON
import PushboxPayload
import PushboxSystem
import PushboxTLS
import Testing

@testable import PushboxIntake

/// Provider tokens as APNs parses and judges them, on a clock the test moves.
@Suite("Provider tokens and the 20-minute rule")
struct ProviderAuthTests {
    /// A wall clock the test moves.
    final class Clock: Sendable {
        private let seconds = Locked<Double>(2_000_000_000)
        func advance(_ s: Double) { seconds.withLock { $0 += s } }
        func now() -> Double { seconds.withLock { $0 } }
    }

    static func jwt(header: String, claims: String, signature: [UInt8] = Array(repeating: 7, count: 64)) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "." + Base64URL.encode(signature)
    }

    @Test("the token's form: ES256 only, 10-character kid and iss, integer or float iat, a 64-byte signature")
    func form() {
        let ok = Self.jwt(header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM123456","iat":1700000000.5}"#)
        let token = try? ProviderToken.fromAuthorization("Bearer " + ok).get()
        #expect(token?.issuedAt == 1_700_000_000.5 && token?.keyID == "ABCDE12345" && token?.teamID == "TEAM123456")
        #expect(
            ProviderToken.parse(Self.jwt(header: #"{"alg":"RS256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM123456","iat":1}"#))
                == .failure(.wrongAlgorithm("RS256")))
        let refused = [
            Self.jwt(header: #"{"alg":"ES256","kid":"SHORT"}"#, claims: #"{"iss":"TEAM123456","iat":1}"#),
            Self.jwt(header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM","iat":1}"#),
            Self.jwt(header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM123456","iat":"soon"}"#),
            Self.jwt(header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM123456","iat":""}"#),
            Self.jwt(header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM123456","iat":"-1"}"#),
            Self.jwt(header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM123456","iat":1}"#, signature: [1, 2, 3]),
            "a.b", "!!!.???.###", String(repeating: "a", count: 5000),
        ]
        for text in refused {
            guard case .failure(.malformed) = ProviderToken.parse(text) else {
                Issue.record("accepted \(text.prefix(60))")
                continue
            }
        }
        guard case .failure = ProviderToken.fromAuthorization("Basic abc") else {
            Issue.record("Basic auth accepted")
            return
        }
    }

    @Test("an iat signed as a string of digits is read as APNs reads it, and the arrival says so")
    func stringIssuedAt() throws {
        let dir = NSTemporaryDirectory() + "pbauth-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let key = try ES256Key.generate(dir + "/k.p8")
        let clock = Clock()
        let auth = ProviderAuthenticator(keys: [RegisteredProviderKey(keyID: "ABCDE12345", teamID: "TEAM123456", key: key)]) { clock.now() }
        let input =
            Base64URL.encode(Array(#"{"alg":"ES256","kid":"ABCDE12345"}"#.utf8)) + "."
            + Base64URL.encode(Array(#"{"iss":"TEAM123456","iat":"\#(Int(clock.now()) - 10)"}"#.utf8))
        let token = "bearer " + input + "." + Base64URL.encode(key.sign(Array(input.utf8)) ?? [])
        #expect((try? ProviderToken.fromAuthorization(token).get())?.issuedAtIsString == true)
        let verdict = auth.judge(authorization: token, certificate: nil, connection: ConnectionAuthState())
        #expect(verdict == .accepted(.providerToken(teamID: "TEAM123456", keyID: "ABCDE12345", ageSeconds: 10, verified: true, iatIsString: true)))
        guard case .accepted(let authentication) = verdict else { return }
        let arrival = Arrival(listener: "tcp 127.0.0.1:2197", protocolName: "h2", tls: true, userAgent: nil, authentication: authentication)
        #expect(Arrival(json: arrival.json) == arrival)
    }

    @Test("a changed token within 20 minutes: 429, and the connection stays refused until 20 minutes after the first use")
    func twentyMinutes() throws {
        let clock = Clock()
        let auth = ProviderAuthenticator(keys: []) { clock.now() }
        let connection = ConnectionAuthState()
        func token(_ iat: Double) -> String {
            "bearer " + Self.jwt(header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM123456","iat":\#(Int(iat))}"#)
        }
        let first = token(clock.now())
        #expect(
            auth.judge(authorization: first, certificate: nil, connection: connection)
                == .accepted(.providerToken(teamID: "TEAM123456", keyID: "ABCDE12345", ageSeconds: 0, verified: false)))
        clock.advance(19 * 60)
        guard case .refused(.tooManyProviderTokenUpdates, _) = auth.judge(authorization: token(clock.now()), certificate: nil, connection: connection)
        else {
            Issue.record("a change after 19 minutes was accepted")
            return
        }
        // Even the old token is refused until 20 minutes have passed since its first use.
        guard case .refused(.tooManyProviderTokenUpdates, _) = auth.judge(authorization: first, certificate: nil, connection: connection) else {
            Issue.record("the refused connection accepted its old token")
            return
        }
        clock.advance(61)
        let fresh = token(clock.now())
        guard case .accepted = auth.judge(authorization: fresh, certificate: nil, connection: connection) else {
            Issue.record("a change after 20 minutes was refused")
            return
        }
        // The first token is now 20 minutes old: still valid (under an hour), but a change again.
        guard case .refused(.tooManyProviderTokenUpdates, _) = auth.judge(authorization: first, certificate: nil, connection: connection) else {
            Issue.record("going back to the old token within 20 minutes was accepted")
            return
        }
    }

    @Test("one token sent again and again on a connection is still judged each time: its age, then expired after an hour")
    func sameTokenJudgedEachTime() {
        let clock = Clock()
        let auth = ProviderAuthenticator(keys: []) { clock.now() }
        let connection = ConnectionAuthState()
        let header = "bearer " + Self.jwt(header: #"{"alg":"ES256","kid":"ABCDE12345"}"#, claims: #"{"iss":"TEAM123456","iat":\#(Int(clock.now()))}"#)
        #expect(
            auth.judge(authorization: header, certificate: nil, connection: connection)
                == .accepted(.providerToken(teamID: "TEAM123456", keyID: "ABCDE12345", ageSeconds: 0, verified: false)))
        clock.advance(600)
        #expect(
            auth.judge(authorization: header, certificate: nil, connection: connection)
                == .accepted(.providerToken(teamID: "TEAM123456", keyID: "ABCDE12345", ageSeconds: 600, verified: false)))
        clock.advance(3001)
        guard case .refused(.expiredProviderToken, _) = auth.judge(authorization: header, certificate: nil, connection: connection) else {
            Issue.record("a token over an hour old was accepted on the connection that had used it")
            return
        }
        // A header the connection has not sent: refused by its form, not taken for the last one.
        guard case .refused(.invalidProviderToken, _) = auth.judge(authorization: "bearer x", certificate: nil, connection: connection) else {
            Issue.record("a malformed token was accepted")
            return
        }
    }

    @Test("registered keys: the signature, the key's team and the token's age are checked; a certificate stands in for a token")
    func keysAndCertificates() throws {
        let dir = NSTemporaryDirectory() + "pbauth-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let key = try ES256Key.generate(dir + "/k.p8")
        #expect(throws: TLSError.self) { try ES256Key.generate(dir + "/k.p8") }  // never replaced
        let clock = Clock()
        let auth = ProviderAuthenticator(keys: [RegisteredProviderKey(keyID: "ABCDE12345", teamID: "TEAM123456", key: key)]) { clock.now() }
        func signed(iat: Double, team: String = "TEAM123456") -> String {
            let input =
                Base64URL.encode(Array(#"{"alg":"ES256","kid":"ABCDE12345"}"#.utf8)) + "."
                + Base64URL.encode(Array(#"{"iss":"\#(team)","iat":\#(Int(iat))}"#.utf8))
            return "bearer " + input + "." + Base64URL.encode(key.sign(Array(input.utf8)) ?? [])
        }
        #expect(
            auth.judge(authorization: signed(iat: clock.now() - 30), certificate: nil, connection: ConnectionAuthState())
                == .accepted(.providerToken(teamID: "TEAM123456", keyID: "ABCDE12345", ageSeconds: 30, verified: true)))
        guard
            case .refused(.expiredProviderToken, _) = auth.judge(
                authorization: signed(iat: clock.now() - 3601), certificate: nil, connection: ConnectionAuthState())
        else {
            Issue.record("an hour-old token was accepted")
            return
        }
        guard
            case .refused(.invalidProviderToken, _) = auth.judge(
                authorization: signed(iat: clock.now(), team: "OTHERTEAM1"), certificate: nil, connection: ConnectionAuthState())
        else {
            Issue.record("another team's iss was accepted for this key")
            return
        }
        let forged = String(signed(iat: clock.now()).dropLast(4)) + "AAAA"
        guard case .refused(.invalidProviderToken, _) = auth.judge(authorization: forged, certificate: nil, connection: ConnectionAuthState()) else {
            Issue.record("a forged signature was accepted")
            return
        }
        guard case .refused(.missingProviderToken, _) = auth.judge(authorization: nil, certificate: nil, connection: ConnectionAuthState()) else {
            Issue.record("no credentials was accepted")
            return
        }
    }
}
