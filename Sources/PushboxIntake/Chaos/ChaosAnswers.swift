import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload

/// The answers chaos gives, as the services give them: APNs' `{"reason": …}`, Google's error
/// object with `QuotaFailure` and `RetryInfo` details, the HTML page of Google's front end,
/// OAuth's `{"error": …}`; and what a push request is, for the rules and for `RetryVerdict`.
enum ChaosAnswers {
    /// The service a route's requests belong to, for chaos: only push requests meet it.
    static func service(ofRoute name: String) -> String? {
        switch name {
        case "apns-push": "apns"
        case "fcm-send": "fcm"
        case "oauth-token": "oauth"
        default: nil
        }
    }

    /// What the rules look at in a request.
    static func chaosRequest(_ request: HTTPRequest, service: String, phone: Phone) -> ChaosRequest {
        var out = ChaosRequest(service: service)
        switch service {
        case "apns":
            out.token = String(APNsEndpoint.tokenPart(of: request.path))
            out.topic = request.headers.last { $0.name == PushHeaders.topic }?.value
            out.pushType = request.headers.last { $0.name == "apns-push-type" }?.value
            if case .providerToken(_, _, let age, _, _)? = request.arrival?.authentication { out.tokenAgeSeconds = age }
        case "fcm":
            out.project = FCMEndpoint.project(of: request.path)
            let message = (try? JSONParser.parse(request.body))?.objectValue?["message"]?.objectValue
            out.token = message?["token"]?.stringValue
            out.topic = message?["topic"]?.stringValue
        default: break
        }
        out.device = { token in
            let fleet = phone.registration()?.devices ?? []
            return fleet.first { $0.apnsToken == token || $0.fcmToken == token }?.name ?? FleetDevice.defaultName
        }
        return out
    }

    /// Which message a push request carries, the same for each retry of it: APNs' `apns-id`
    /// when the client set one, else the token and the payload; FCM's message body.
    static func messageKey(_ request: HTTPRequest, service: String) -> String? {
        switch service {
        case "apns":
            if let id = request.headers.last(where: { $0.name == PushHeaders.id })?.value { return "apns-id:" + id.lowercased() }
            return joined("apns:", APNsEndpoint.tokenPart(of: request.path), hash: fnvValue(request.body))
        case "fcm": return joined("fcm:", Substring(request.path), hash: fnvValue(request.body))
        default: return nil
        }
    }

    /// FNV-1a over 8-byte words (then the last bytes one by one), 64 bits, in hex: a message's
    /// identity within one run, not a security measure. A word at a time, because every push
    /// request pays for it.
    static func fnv(_ bytes: [UInt8]) -> String { String(fnvValue(bytes), radix: 16) }

    /// The FNV-1a hash itself.
    static func fnvValue(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words { h = (h ^ raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* 0x100_0000_01b3 }
            for b in raw[(words * 8)...] { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        return h
    }

    /// `prefix`, `middle`, a colon and `hash` in hex as `fnv` writes it, made in one go: three
    /// concatenations and a hex string cost a push some 2,500 instructions.
    static func joined(_ prefix: StaticString, _ middle: Substring, hash: UInt64) -> String {
        var middle = middle
        let digits = max(1, (64 - hash.leadingZeroBitCount + 3) / 4)
        return middle.withUTF8 { m in
            String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + m.count + 1 + digits) { out in
                let base = out.baseAddress!
                base.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                var at = prefix.utf8CodeUnitCount
                if let from = m.baseAddress { (base + at).update(from: from, count: m.count) }
                at += m.count
                out[at] = UInt8(ascii: ":")
                at += 1
                for d in stride(from: digits - 1, through: 0, by: -1) {
                    let nibble = UInt8(truncatingIfNeeded: hash >> (UInt64(d) * 4)) & 0xF
                    out[at] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                    at += 1
                }
                return at
            }
        }
    }

    /// The answer of an answering fault (`apns`, `fcm`, `html`, `oauth`, `token-expiry`, `quota`).
    static func answer(_ hit: ChaosHit, request: HTTPRequest, now: Date = Date()) -> HTTPResponse {
        var retryAfter = hit.rule.retryAfter?.value(at: now)
        var response: HTTPResponse
        switch hit.rule.fault {
        case .apns(let status, let reason):
            response = apns(status, reason, request)
        case .tokenExpiry:
            response = apns(403, APNsReason.expiredProviderToken.rawValue, request)
        case .fcm(let status, let name, let code):
            response = google(status, name, message(status), code: code, retryAfter: retryAfter)
        case .quota(let scope, _, _):
            retryAfter = retryAfter ?? hit.quotaRetryAfter.map(String.init)
            response = google(
                429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Messages per \(scope.rawValue)'", code: "QUOTA_EXCEEDED",
                retryAfter: retryAfter, quotaSubject: scope.rawValue)
        case .html(let status):
            response = HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=UTF-8")], body: Array(html(status).utf8))
        case .oauth(let status, let error):
            let body = JSONObject([("error", .string(error)), ("error_description", .string("injected by pushbox chaos rule \(hit.label)"))])
            response = HTTPResponse(
                status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(JSONWriter.compact(.object(body)).utf8))
        default:
            response = HTTPResponse(status: 0)
        }
        if let retryAfter { response.headers.append(("Retry-After", retryAfter)) }
        response.cause = "chaos rule \(hit.label)"
        response.chaos = hit.label
        return response
    }

    static func apns(_ status: Int, _ reason: String, _ request: HTTPRequest) -> HTTPResponse {
        APNsEndpoint.reasonResponse(status: status, reason: reason, apnsID: APNsEndpoint.answerID(request.headers))
    }

    /// Google's message for a status, as its front end words it.
    static func message(_ status: Int) -> String {
        switch status {
        case 429: "Quota exceeded for the message target."
        case 500: "Internal error encountered."
        case 503: "The service is currently unavailable."
        default: "The request failed (injected by pushbox chaos)."
        }
    }

    /// Google's error object: `google.rpc.Status` with FCM's error code, and `QuotaFailure` and
    /// `RetryInfo` details where Google sends them.
    static func google(
        _ status: Int, _ name: String, _ message: String, code: String?, retryAfter: String?, quotaSubject: String? = nil
    ) -> HTTPResponse {
        var details: [JSONValue] = []
        if status == 429 {
            let violation = JSONObject([("subject", .string(quotaSubject ?? "project")), ("description", .string(message))])
            details.append(
                .object(
                    JSONObject([("@type", .string("type.googleapis.com/google.rpc.QuotaFailure")), ("violations", .array([.object(violation)]))])))
        }
        if let seconds = retryAfter.flatMap(Int.init) {
            details.append(
                .object(JSONObject([("@type", .string("type.googleapis.com/google.rpc.RetryInfo")), ("retryDelay", .string("\(seconds)s"))])))
        }
        return FCMEndpoint.googleError(status, name, message, fcmCode: code, details: details)
    }

    /// The page Google's front end answers a failed request with (not JSON: a client that
    /// parses every error body as JSON meets it here first).
    static func html(_ status: Int) -> String {
        let title = status == 502 ? "Error 502 (Server Error)!!1" : "Error \(status)"
        return """
            <!DOCTYPE html>
            <html lang=en>
              <meta charset=utf-8>
              <title>\(title)</title>
              <p><b>\(status).</b> <ins>That’s an error.</ins>
              <p>The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds.  <ins>That’s all we know.</ins>
            """
    }
}
