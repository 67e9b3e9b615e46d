import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload

/// APNs' API: `POST /3/device/<token>`, answered as APNs answers (only `apns-*` headers reach
/// the payload's envelope), with provider tokens or certificates where the connection requires them.
public struct APNsEndpoint: Sendable {
    /// The intake pushes are handed to.
    let service: IntakeService
    /// Judges provider tokens and client certificates on connections that require them.
    let authenticator: ProviderAuthenticator
    static let devicePrefix = "/3/device/"

    /// What follows `devicePrefix` in a push's path: the device token as sent. Counted in bytes:
    /// `count` and `dropFirst` on a String walk Characters, three walks of the path a push.
    static func tokenPart(of path: String) -> Substring {
        let utf8 = path.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: devicePrefix.utf8.count, limitedBy: utf8.endIndex) ?? utf8.endIndex
        return path[start...]
    }
    /// The id the development host also gives an accepted notification, for its delivery log.
    static let uniqueIDHeader = "apns-unique-id"
    /// A header a replaying pushbox sets so the stored source says "replay".
    public static let sourceHeader = "x-pushbox-source"

    /// The route of pushes.
    var routes: [Route] {
        [
            Route(
                "apns-push", methods: ["POST"], paths: .prefix(Self.devicePrefix), maxBody: { _ in Self.keptBody }, handsOverOversize: true,
                check: { [authenticator] head in Self.check(head, authenticator: authenticator) },
                refusal: Self.refusal, handle: { [service] request in Self.push(request, service: service) },
                handleBatch: { [service] requests in Self.push(batch: requests, service: service) })
        ]
    }

    /// APNs' refusal: the status, `{"reason": …}` and the apns-id APNs echoes.
    static func refusal(_ reason: APNsReason, _ head: RequestHead) -> HTTPResponse { refusal(reason, headers: head.headers) }

    /// APNs' refusal for a request with these headers.
    static func refusal(_ reason: APNsReason, headers: [(name: String, value: String)]) -> HTTPResponse {
        reasonResponse(reason, apnsID: answerID(headers))
    }

    /// The refusal of pushbox's own routes (`/inbox`, `/pushbox/…`): APNs' shape, no apns-id.
    static func refusalWithoutID(_ reason: APNsReason, _ head: RequestHead) -> HTTPResponse { reasonResponse(reason) }

    /// `{"reason": …}` with APNs' status for it, and an apns-id when given.
    static func reasonResponse(_ reason: APNsReason, apnsID: String? = nil) -> HTTPResponse {
        reasonResponse(status: reason.status, reason: reason.rawValue, apnsID: apnsID)
    }

    /// `{"reason": …}` with a status of its own (a chaos rule may name any reason), escaped.
    static func reasonResponse(status: Int, reason: String, apnsID: String? = nil) -> HTTPResponse {
        var headers = [("Content-Type", "application/json")]
        if let apnsID { headers.append(("apns-id", apnsID)) }
        var body = "{\"reason\":"
        JSONWriter.writeString(reason, into: &body)
        return HTTPResponse(status: status, headers: headers, body: Array((body + "}").utf8))
    }

    /// The id APNs echoes on every answer: the one sent when it is a canonical UUID, else a new one.
    static func answerID(_ headers: [(name: String, value: String)]) -> String {
        Phone.answerID(sent: headers.last(where: { $0.name == PushHeaders.id })?.value)
    }

    /// What APNs judges from a push's head, in its order: authentication, the certificate's
    /// topic, the device token's presence.
    static func check(_ head: RequestHead, authenticator: ProviderAuthenticator) -> Result<Arrival.Authentication, Refusal> {
        let refuse = { (reason: APNsReason, cause: String?) in
            var response = refusal(reason, head)
            response.cause = cause
            return Result<Arrival.Authentication, Refusal>.failure(Refusal(response))
        }
        var authentication = Arrival.Authentication.none
        if head.connection.requiresAuth {
            switch authenticator.judge(
                authorization: head.headers.last { $0.name == "authorization" }?.value,
                certificate: head.connection.certificate, connection: head.connection.auth)
            {
            case .refused(let reason, let cause): return refuse(reason, cause)
            case .accepted(let how): authentication = how
            }
            if case .certificate(_, let certTopic?) = authentication,
                let topic = head.headers.last(where: { $0.name == PushHeaders.topic })?.value,
                topic != certTopic, !topic.hasPrefix(certTopic + ".")
            {
                return refuse(.topicDisallowed, "the client certificate is for \(certTopic), the request's topic is \(topic)")
            }
            // "Certificate-based authentication is not supported for these APNs pushes" (Apple,
            // forums thread 712499); which reason APNs answers is unconfirmed: TopicDisallowed,
            // as for any topic a certificate does not cover.
            if case .certificate = authentication,
                head.headers.last(where: { $0.name == PushHeaders.pushType })?.value == PushType.liveactivity.rawValue
            {
                return refuse(
                    .topicDisallowed,
                    "Live Activity pushes need token-based authentication: certificate-based authentication is not supported for them (APNs' exact reason is unconfirmed; pushbox answers TopicDisallowed)"
                )
            }
        }
        if tokenPart(of: head.path).isEmpty { return refuse(.missingDeviceToken, nil) }
        return .success(authentication)
    }

    /// The most of a push's body kept: a body over its push type's limit is still read, judged
    /// `413 PayloadTooLarge` by the validator and kept in the inbox as every refusal is, whole up
    /// to this size (its first bytes beyond it).
    static let keptBody = 64 * 1024

    /// One push: its envelope from the path, the `apns-*` headers and the connection, taken in,
    /// and APNs' answer.
    static func push(_ request: HTTPRequest, service: IntakeService) -> HTTPResponse {
        let (result, arrival) = service.receiveBeforeAnswer(raw(request))
        return answer(result, arrival: arrival)
    }

    /// Pushes that arrived together on one connection, committed in one transaction; the
    /// answers in order.
    static func push(batch requests: [HTTPRequest], service: IntakeService) -> [HTTPResponse] {
        service.receiveBeforeAnswer(batch: requests.map(raw)).map { answer($0.0, arrival: $0.1) }
    }

    /// The payload and its envelope, as a push request carries them (public for
    /// `pushbox-bench intake-stages`, which takes pushes in stage by stage).
    public static func raw(_ request: HTTPRequest) -> RawPayload {
        let rawToken = String(tokenPart(of: request.path))
        let token = rawToken.utf8.firstIndex(of: UInt8(ascii: "%")) != nil ? rawToken.removingPercentEncoding ?? "" : rawToken
        var headers = PushHeaders()
        for h in request.headers where PushHeaders.isAPNsName(h.name) { headers.add(h.name, h.value) }
        // A certificate for one app stands for its topic when the request names none.
        if case .certificate(_, let topic?)? = request.arrival?.authentication, headers[PushHeaders.topic] == nil {
            headers.add(PushHeaders.topic, topic)
        }
        let replay = request.headers.contains { $0.name == sourceHeader && $0.value == "replay" }
        var envelope = Envelope(source: replay ? .replay : source(request), headers: headers, deviceToken: token, arrival: request.arrival)
        envelope.bodyLength = request.bodyLength
        return RawPayload(bytes: request.body, envelope: envelope)
    }

    /// Where a request came from as the inbox lists it: `tls` over TLS (the port, exec's tunnel),
    /// else `socket`.
    static func source(_ request: HTTPRequest) -> PayloadSource { request.arrival?.tls == true ? .tls : .socket }

    /// APNs' answer to a push taken in: 200 with the apns-id, or the refusal with its reason;
    /// the arrival is published once it was sent.
    static func answer(_ result: IntakeResult, arrival: PendingArrival?) -> HTTPResponse {
        var response: HTTPResponse
        if let reason = result.reason {
            var fields: [(key: String, value: JSONValue)] = [("reason", .string(reason))]
            // 410's body says since when the token is invalid.
            if let timestamp = result.timestamp { fields.append(("timestamp", .number(String(timestamp)))) }
            let body = JSONWriter.compact(.object(JSONObject(fields)))
            response = HTTPResponse(
                status: result.status, headers: [("Content-Type", "application/json"), ("apns-id", result.apnsID)], body: Array(body.utf8))
            response.cause = result.detail
        } else {
            // The development host also names the notification for its delivery log.
            response = HTTPResponse(status: 200, headers: [("apns-id", result.apnsID), (uniqueIDHeader, FastUUID.make())])
            response.acceptance = result.acceptance
        }
        if let arrival { response.afterSent = { arrival.publish() } }
        return response
    }
}
