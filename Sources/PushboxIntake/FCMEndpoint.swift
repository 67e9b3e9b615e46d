import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxSystem
import PushboxTLS

/// FCM HTTP v1 as a service, and the OAuth 2 token endpoint its SDKs get access tokens from:
/// `POST /v1/projects/{id}/messages:send` and `POST /token` (also `/oauth2/v4/token`), answered
/// in Google's shapes (FCM's REST reference for `projects.messages.send` and its error codes;
/// Google's OAuth 2.0 for server-to-server applications).
public final class FCMEndpoint: Sendable {
    let service: IntakeService
    /// Public keys of the service accounts `pushbox fcm-credentials` made, by `private_key_id`.
    private let accountKeys: Locked<[String: RS256Key]>
    /// The folder they are read from again when an assertion names an unknown key.
    let keyDirectory: String?
    /// When the folder was last read for an unknown key (at most once a second).
    private let lastReload = Locked<Double>(-.infinity)
    let now: @Sendable () -> Double
    /// Access tokens handed out and not yet expired.
    private let issued = Locked<[String: Grant]>([:])

    /// One access token handed out: whose, for what, until when.
    struct Grant {
        var account: String
        var scopes: [String]
        var expires: Double
        var verified: Bool
        /// The project of a service account's address (`name@PROJECT.iam.gserviceaccount.com`);
        /// nil for an address of another form, whose project pushbox cannot know.
        var project: String? {
            let suffix = ".iam.gserviceaccount.com"
            guard let at = account.lastIndex(of: "@"), account.hasSuffix(suffix) else { return nil }
            let project = account[account.index(after: at)...].dropLast(suffix.count)
            return project.isEmpty ? nil : String(project)
        }
    }
    static let sendSuffix = "/messages:send"
    static let tokenPaths: Set<String> = ["/token", "/oauth2/v4/token"]
    static let scopesAccepted = ["https://www.googleapis.com/auth/firebase.messaging", "https://www.googleapis.com/auth/cloud-platform"]
    static let maxBody = FCMMessage.maxRequestBytes

    /// FCM's endpoints in front of `service`, verifying assertions with `accountKeys` (by key id).
    public init(
        service: IntakeService, accountKeys: [String: RS256Key] = [:], keyDirectory: String? = nil,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.service = service
        self.accountKeys = Locked(accountKeys)
        self.keyDirectory = keyDirectory
        self.now = now
    }

    /// The public key of service-account key `id`: known since start, or in the folder now
    /// (a service account made while serve runs).
    func accountKey(_ id: String) -> RS256Key? {
        if let key = accountKeys.withLock({ $0[id] }) { return key }
        guard let keyDirectory else { return nil }
        let time = now()
        let due = lastReload.withLock { last in
            guard time - last >= 1 else { return false }
            last = time
            return true
        }
        guard due else { return nil }
        let (keys, _) = Self.loadAccountKeys(keyDirectory)
        accountKeys.withLock { $0.merge(keys) { _, new in new } }
        return keys[id]
    }

    /// The public keys in `directory` (`<private_key_id>.pem`), as `fcm-credentials` leaves
    /// them, and a sentence for each file that could not be used (its assertions go unverified).
    /// A missing folder is no problem: no service account was made yet.
    public static func loadAccountKeys(_ directory: String) -> (keys: [String: RS256Key], problems: [String]) {
        var keys: [String: RS256Key] = [:]
        var problems: [String] = []
        guard FileManager.default.fileExists(atPath: directory) else { return ([:], []) }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            return ([:], ["cannot read \(directory): \(FileErrorText.describe(error)); OAuth assertions are not verified"])
        }
        for name in names.sorted() where name.hasSuffix(".pem") {
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else {
                problems.append("cannot read \(path); assertions of key \(name.dropLast(4)) are not verified")
                continue
            }
            do { keys[String(name.dropLast(4))] = try RS256Key.parse(Array(data), name: name) } catch {
                problems.append("\(path): \(error); assertions of key \(name.dropLast(4)) are not verified")
            }
        }
        return (keys, problems)
    }

    /// FCM's and OAuth's routes: `POST /token` (and `/oauth2/v4/token`), and
    /// `POST /v1/projects/{id}/messages:send` with an access token where the connection requires one.
    var routes: [Route] {
        let limit: @Sendable (RequestHead) -> Int = { _ in Self.maxBody }
        return [
            Route(
                "oauth-token", methods: ["POST"], paths: .matching { Self.tokenPaths.contains($0) }, maxBody: limit, refusal: Self.refusal,
                handle: { [self] in token($0) }),
            Route(
                "fcm-send", methods: ["POST"], paths: .matching { Self.project(of: $0) != nil }, maxBody: limit,
                check: { [self] head in
                    guard head.connection.requiresAuth else { return .success(.none) }
                    return accessToken(head.headers.last { $0.name == "authorization" }?.value, project: Self.project(of: head.path) ?? "")
                },
                refusal: Self.refusal, handle: { [self] in send($0, project: Self.project(of: $0.path) ?? "") }),
        ] + topicRoutes
    }

    /// The router's refusals in Google's shape.
    static func refusal(_ reason: APNsReason, _ head: RequestHead) -> HTTPResponse {
        switch reason {
        case .methodNotAllowed: return googleError(405, "METHOD_NOT_ALLOWED", "Method \(head.method) is not allowed; use POST.")
        case .payloadTooLarge: return googleError(413, "INVALID_ARGUMENT", "The request body is larger than \(maxBody) bytes.")
        default: return googleError(reason.status, reason.status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT", reason.rawValue)
        }
    }

    /// `{id}` of `/v1/projects/{id}/messages:send`.
    static func project(of path: String) -> String? {
        guard path.hasPrefix("/v1/projects/"), path.hasSuffix(sendSuffix) else { return nil }
        let id = path.dropFirst("/v1/projects/".count).dropLast(sendSuffix.count)
        return id.isEmpty || id.contains("/") ? nil : String(id)
    }

    /// The access token of `authorization: Bearer …`, if pushbox issued it, it is in force and
    /// its service account belongs to `project`, the URL's: as Google answers, a token of
    /// another project gets 403 `PERMISSION_DENIED` (firebase-admin's `PermissionDeniedError`,
    /// Node's `messaging/mismatched-credential`, pyfcm's `FCMSenderIdMismatchError`).
    func accessToken(_ authorization: String?, project: String?) -> Result<Arrival.Authentication, Refusal> {
        func unauthenticated(_ cause: String) -> Refusal {
            var response = Self.googleError(
                401, "UNAUTHENTICATED",
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
            )
            response.cause = cause
            return Refusal(response)
        }
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else {
            return .failure(unauthenticated(authorization == nil ? "no authorization header" : "the authorization header is not \"Bearer <token>\""))
        }
        let token = ByteText.trimmingSpaces(authorization.dropFirst(7))
        guard let grant = issued.withLock({ $0[token] }) else {
            return .failure(unauthenticated("an access token this pushbox did not issue (or issued before it restarted)"))
        }
        guard grant.expires > now() else {
            return .failure(unauthenticated("an access token of \(grant.account) that expired \(Int(now() - grant.expires)) s ago"))
        }
        guard grant.scopes.contains(where: Self.scopesAccepted.contains) else {
            var response = Self.googleError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.")
            response.cause = "the token's scopes are \(grant.scopes.joined(separator: " ")); FCM needs firebase.messaging or cloud-platform"
            return .failure(Refusal(response))
        }
        if let own = grant.project, let project, own != project {
            var response = Self.googleError(
                403, "PERMISSION_DENIED",
                "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(project)' (or it may not exist)."
            )
            response.cause = "the access token is of \(grant.account), a service account of project \(own), not \(project)"
            return .failure(Refusal(response))
        }
        return .success(.accessToken(account: grant.account, verified: grant.verified))
    }

    /// The JWT-bearer grant: an access token for a valid assertion, or Google's OAuth error.
    func token(_ request: HTTPRequest) -> HTTPResponse {
        let form = FormBody.parse(request.body)
        func oauthError(_ error: String, _ description: String) -> HTTPResponse {
            Self.json(400, .object(JSONObject([("error", .string(error)), ("error_description", .string(description))])))
        }
        guard let grant = form["grant_type"] else { return oauthError("invalid_request", "Missing required parameter: grant_type") }
        guard grant == OAuthAssertion.grantType else { return oauthError("unsupported_grant_type", "Invalid grant_type: \(grant)") }
        guard let text = form["assertion"], !text.isEmpty else { return oauthError("invalid_request", "Missing required parameter: assertion") }
        let assertion: OAuthAssertion
        switch OAuthAssertion.parse(text) {
        case .failure(let problem): return oauthError(problem.error, problem.description)
        case .success(let a): assertion = a
        }
        if let problem = assertion.checkClaims(now: now(), acceptedAudience: Self.isTokenURI) {
            return oauthError(problem.error, problem.description)
        }
        var verified = false
        if let kid = assertion.keyID, let key = accountKey(kid) {
            guard key.verify(assertion.signingInput, signature: assertion.signature) else {
                return oauthError("invalid_grant", "Invalid JWT Signature.")
            }
            verified = true
        }
        let token = "ya29.pushbox." + Base64URL.encode(SecureBytes.random(32))
        let time = now()
        issued.withLock { issued in
            issued = issued.filter { $0.value.expires > time }
            issued[token] = Grant(account: assertion.issuer, scopes: assertion.scopes, expires: time + 3600, verified: verified)
        }
        return Self.json(
            200, .object(JSONObject([("access_token", .string(token)), ("expires_in", .number("3599")), ("token_type", .string("Bearer"))])))
    }

    /// Google's token URIs, and pushbox's own on loopback.
    static func isTokenURI(_ audience: String) -> Bool {
        guard let url = URL(string: audience), url.scheme == "https", let host = url.host?.lowercased() else { return false }
        let standard = ["oauth2.googleapis.com", "www.googleapis.com", "accounts.google.com", "localhost", "127.0.0.1", "::1"]
        return standard.contains(host) && ["/token", "/oauth2/v4/token", "/o/oauth2/token"].contains(url.path)
    }

    /// FCM's `messages:send`: validated, targeted and mapped as any FCM message; stored unless
    /// `validate_only`; answered with the message's name or Google's error.
    func send(_ request: HTTPRequest, project: String) -> HTTPResponse {
        guard let body = try? JSONParser.parse(request.body).objectValue else {
            return Self.invalidArgument("Invalid JSON payload received. The body is not a JSON object.", field: nil)
        }
        guard let message = body["message"] else {
            return Self.invalidArgument("Request contains an invalid argument.", field: "message", description: "Required field message is missing")
        }
        guard message.objectValue != nil else {
            return Self.invalidArgument("Invalid value at 'message': \(message.typeDescription)", field: "message", description: "must be an object")
        }
        let raw = Self.raw(request, project: project)
        if body["validate_only"] == .bool(true) {
            // A dry run is judged by the device as the real send would be, and changes nothing.
            let judgement = service.phone.judge(raw, mode: .dryRun)
            let verdict = judgement.verdict
            return Self.answer(
                status: verdict.status, reason: verdict.reason, detail: verdict.detail, field: judgement.report.rejection?.field,
                name: "projects/\(project)/messages/fake_message_id")
        }
        let (result, pending) = service.receiveBeforeAnswer(raw)
        var response = Self.answer(
            status: result.status, reason: result.reason, detail: result.detail, field: result.field,
            name: "projects/\(project)/messages/\(result.apnsID)")
        if result.status == 200 { response.acceptance = result.acceptance }
        if let pending { response.afterSent = { pending.publish() } }
        return response
    }

    /// The message as a payload with its envelope: the request's body, its arrival in `project`.
    static func raw(_ request: HTTPRequest, project: String) -> RawPayload {
        var arrival = request.arrival
        arrival?.fcmProject = project
        return RawPayload(bytes: request.body, envelope: Envelope(source: .fcm, arrival: arrival))
    }

    /// FCM's answer to a judged message, the same for a send and its dry run: the message's
    /// `name`, or Google's error for the device's or the message's refusal, with pushbox's
    /// cause on record.
    static func answer(status: Int, reason: String?, detail: String?, field: String?, name: String) -> HTTPResponse {
        var response: HTTPResponse
        if reason == APNsReason.fcmUnregistered.rawValue {
            // firebase-admin raises UnregisteredError, pyfcm FCMNotRegisteredError.
            response = googleError(404, "NOT_FOUND", "Requested entity was not found.", fcmCode: "UNREGISTERED")
        } else if reason == APNsReason.fcmSenderIDMismatch.rawValue {
            // firebase-admin raises SenderIdMismatchError.
            response = googleError(403, "PERMISSION_DENIED", "SenderId mismatch", fcmCode: "SENDER_ID_MISMATCH")
        } else if let reason, status != 200 {
            response = status >= 500 ? googleError(500, "INTERNAL", detail ?? reason) : invalidArgument(detail ?? reason, field: field)
        } else {
            return json(200, .object(JSONObject([("name", .string(name))])))
        }
        response.cause = detail
        return response
    }

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=UTF-8")], body: Array(JSONWriter.compact(value).utf8))
    }

    /// Google's API error shape, with FCM's own error code in the details, then a field
    /// violation, then `details` (`QuotaFailure`, `RetryInfo`).
    static func googleError(
        _ code: Int, _ status: String, _ message: String, fcmCode: String? = nil, violation: (String, String)? = nil, details extra: [JSONValue] = []
    ) -> HTTPResponse {
        var details: [JSONValue] = []
        if let fcmCode {
            details.append(
                .object(JSONObject([("@type", .string("type.googleapis.com/google.firebase.fcm.v1.FcmError")), ("errorCode", .string(fcmCode))])))
        }
        if let (field, description) = violation {
            details.append(
                .object(
                    JSONObject([
                        ("@type", .string("type.googleapis.com/google.rpc.BadRequest")),
                        ("fieldViolations", .array([.object(JSONObject([("field", .string(field)), ("description", .string(description))]))])),
                    ])))
        }
        details += extra
        var error: [(key: String, value: JSONValue)] = [("code", .number(String(code))), ("message", .string(message)), ("status", .string(status))]
        if !details.isEmpty { error.append(("details", .array(details))) }
        return json(code, .object(JSONObject([("error", .object(JSONObject(error)))])))
    }

    static func invalidArgument(_ message: String, field: String?, description: String? = nil) -> HTTPResponse {
        googleError(400, "INVALID_ARGUMENT", message, fcmCode: "INVALID_ARGUMENT", violation: field.map { ($0, description ?? message) })
    }
}

/// Random bytes for access tokens.
enum SecureBytes {
    static func random(_ count: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) }
    }
}
