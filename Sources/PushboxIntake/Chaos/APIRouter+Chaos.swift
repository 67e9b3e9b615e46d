import Foundation
import PushboxDevice
import PushboxPayload

extension APIRouter {
    /// A push request while chaos is on: the first rule that fires decides what happens instead
    /// of (or besides) the service's answer; none fires, and it is answered as ever. Every
    /// injected answer names its rule, in the request log and in the inbox.
    func handleWithChaos(_ request: HTTPRequest, route: Route, service name: String) -> HTTPResponse {
        guard let hit = chaos.decide(ChaosAnswers.chaosRequest(request, service: name, phone: service.phone)) else {
            return route.handle(request)
        }
        var marked = request
        marked.arrival?.chaos = hit.label
        var response: HTTPResponse
        switch hit.rule.fault {
        case .apns, .fcm, .html, .oauth, .tokenExpiry, .quota:
            response = ChaosAnswers.answer(hit, request: request)
            if hit.rule.accepted {
                // Stored and delivered, answered with the failure all the same: a retry delivers it twice.
                let real = route.handle(marked)
                response.afterSent = real.afterSent
                if real.status == 200 { response.acceptance = real.acceptance ?? .delivered }
            } else if name != "oauth" {
                response.afterSent = keepInjectedRefusal(marked, response: response, fault: hit.rule.fault, service: name)
            }
        case .delay(let ms):
            let real = route.handle(marked)
            let later = LaterAnswer()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ms)) {
                var delayed = real
                delayed.chaos = hit.label
                _ = later.resolve(delayed)
            }
            response = HTTPResponse(status: 0)
            response.later = later
        case .hang:
            // Never answered: on record now, since no answer will be.
            response = HTTPResponse(status: 0)
            response.later = LaterAnswer()
            var record = HTTPResponse(status: 0)
            record.chaos = hit.label
            record.messageKey = ChaosAnswers.messageKey(request, service: name)
            let a = request.arrival
            var head = RequestHead(
                method: request.method, path: request.path, headers: request.headers,
                connection: ConnectionInfo(
                    listener: a?.listener ?? "", protocolName: a?.protocolName ?? "", tls: a?.tls ?? false, requiresAuth: false))
            head.bodyBytes = request.body.count
            answered(head, record)
        case .goAway(let code, let debug, let processed):
            if processed { route.handle(marked).afterSent?() }
            response = HTTPResponse(status: 0)
            response.connectionFault = .goAway(errorCode: code, debug: debug, processed: processed)
        case .refuseStream:
            response = HTTPResponse(status: 0)
            response.connectionFault = .refuseStream
        case .reset:
            response = HTTPResponse(status: 0)
            response.connectionFault = .reset
        case .maxStreams, .idleClose:
            return route.handle(request)
        }
        response.chaos = hit.label
        return response
    }

    /// Keeps a refusal chaos answered in the inbox, as every refusal is kept; what publishes it
    /// once the answer is sent.
    private func keepInjectedRefusal(_ request: HTTPRequest, response: HTTPResponse, fault: ChaosRule.Fault, service name: String)
        -> (@Sendable () -> Void)?
    {
        let reason: String
        switch fault {
        case .apns(_, let r): reason = r
        case .tokenExpiry: reason = APNsReason.expiredProviderToken.rawValue
        case .fcm(_, let status, let code): reason = code ?? status
        case .quota: reason = "QUOTA_EXCEEDED"
        case .html(let status): reason = "HTML \(status)"
        default: return nil
        }
        let raw = name == "apns" ? APNsEndpoint.raw(request) : FCMEndpoint.raw(request, project: FCMEndpoint.project(of: request.path) ?? "")
        var withID = raw
        if name == "apns", let id = response.headers.first(where: { $0.0 == "apns-id" })?.1, raw.envelope.headers[PushHeaders.id] == nil {
            withID.envelope.headers.add(PushHeaders.id, id)
        }
        let (_, pending) = service.receiveInjectedRefusal(
            withID, status: response.status, reason: reason, detail: "answered by chaos rule \(request.arrival?.chaos ?? "")")
        guard let pending else { return nil }
        return { pending.publish() }
    }
}
