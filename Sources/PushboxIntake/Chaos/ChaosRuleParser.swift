import Foundation

/// Why a chaos rule cannot be read: a code for tests and scripts, the offset of the word at
/// fault, and a sentence for people.
public struct ChaosRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `unknown-fault`, `bad-status`, `bad-value`, `unknown-option`, `option-not-for-fault`, `empty`.
    public var code: String
    /// Where in the rule's text the word at fault begins.
    public var offset: Int
    public var message: String
    public var description: String { "chaos rule at \(offset): \(message)" }
}

extension ChaosRule {
    /// The faults a rule may begin with, for errors and help.
    public static let kinds = [
        "apns", "fcm", "html", "oauth", "goaway", "refuse-stream", "max-streams", "reset", "delay", "hang", "idle-close", "token-expiry",
        "quota",
    ]

    /// HTTP/2 error codes by name (RFC 9113 §7), for `goaway error=…`.
    static let http2Errors: [(String, UInt32)] = [
        ("NO_ERROR", 0), ("PROTOCOL_ERROR", 1), ("INTERNAL_ERROR", 2), ("FLOW_CONTROL_ERROR", 3), ("SETTINGS_TIMEOUT", 4),
        ("STREAM_CLOSED", 5), ("FRAME_SIZE_ERROR", 6), ("REFUSED_STREAM", 7), ("CANCEL", 8), ("COMPRESSION_ERROR", 9),
        ("CONNECT_ERROR", 10), ("ENHANCE_YOUR_CALM", 11), ("INADEQUATE_SECURITY", 12), ("HTTP_1_1_REQUIRED", 13),
    ]

    /// Google's status name for an HTTP status (`google.rpc.Code`'s mapping).
    static func googleStatus(_ status: Int) -> String {
        switch status {
        case 400: "INVALID_ARGUMENT"
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 429: "RESOURCE_EXHAUSTED"
        case 500: "INTERNAL"
        case 501: "UNIMPLEMENTED"
        case 503: "UNAVAILABLE"
        case 504: "DEADLINE_EXCEEDED"
        default: status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION"
        }
    }

    /// FCM's error code for a status (`QUOTA_EXCEEDED` for 429, …).
    static func fcmCode(_ status: Int) -> String? {
        switch status {
        case 400: "INVALID_ARGUMENT"
        case 403: "SENDER_ID_MISMATCH"
        case 404: "UNREGISTERED"
        case 429: "QUOTA_EXCEEDED"
        case 500: "INTERNAL"
        case 503: "UNAVAILABLE"
        default: nil
        }
    }

    /// APNs' reason for a status when the rule names none.
    static func apnsReason(_ status: Int) -> String {
        switch status {
        case 400: "BadDeviceToken"
        case 403: "ExpiredProviderToken"
        case 410: "Unregistered"
        case 413: "PayloadTooLarge"
        case 429: "TooManyRequests"
        case 500: "InternalServerError"
        default: "ServiceUnavailable"
        }
    }

    /// Reads a rule from its text: a fault and its arguments, then `key=value` options,
    /// triggers (`next=`, `every=`, `probability=` with `seed=`) and matches (`service=`,
    /// `token=`, `topic=`, `project=`, `push-type=`, `device=`), and the word `accepted`.
    public static func parse(_ text: String, randomSeed: () -> UInt64 = { UInt64.random(in: 1...UInt64(UInt32.max)) }) throws(ChaosRuleError)
        -> ChaosRule
    {
        var words: [(text: String, offset: Int)] = []
        var offset = 0
        var current = ""
        var start = 0
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" {
                if !current.isEmpty { words.append((current, start)) }
                current = ""
            } else {
                if current.isEmpty { start = offset }
                current.unicodeScalars.append(scalar)
            }
            offset += 1
        }
        if !current.isEmpty { words.append((current, start)) }
        guard let first = words.first else {
            throw ChaosRuleError(code: "empty", offset: 0, message: "an empty rule; it begins with a fault: \(kinds.joined(separator: ", "))")
        }
        var rest = Array(words.dropFirst())
        func fail(_ code: String, _ at: Int, _ message: String) -> ChaosRuleError { ChaosRuleError(code: code, offset: at, message: message) }
        /// The next word when it is an argument (no `=`).
        func argument() -> (text: String, offset: Int)? {
            guard let next = rest.first, !next.text.unicodeScalars.contains("="), next.text != "accepted", next.text != "processed" else {
                return nil
            }
            rest.removeFirst()
            return next
        }
        func status(_ word: (text: String, offset: Int)?, range: ClosedRange<Int>) throws(ChaosRuleError) -> Int {
            guard let word, let n = Int(word.text), range.contains(n) else {
                throw fail("bad-status", word?.offset ?? first.offset, "\(first.text) needs a status \(range.lowerBound)–\(range.upperBound)")
            }
            return n
        }
        func duration(_ word: (text: String, offset: Int)?) throws(ChaosRuleError) -> Int {
            guard let word, let ms = parseDuration(word.text) else {
                throw fail("bad-value", word?.offset ?? first.offset, "\(first.text) needs a duration: 500ms, 5s, 2m, 1h")
            }
            return ms
        }
        let fault: Fault
        switch first.text {
        case "apns":
            let code = try status(argument(), range: 400...599)
            fault = .apns(status: code, reason: argument()?.text ?? apnsReason(code))
        case "fcm":
            let code = try status(argument(), range: 400...599)
            // The word is FCM's error code (QUOTA_EXCEEDED) or Google's status (UNAVAILABLE).
            let word = argument()?.text
            let name = googleStatus(code)
            fault = .fcm(status: code, name: name, errorCode: word == nil || word == name ? fcmCode(code) : word)
        case "html": fault = .html(status: try status(argument() ?? ("502", first.offset), range: 400...599))
        case "oauth":
            let code = try status(argument(), range: 400...599)
            fault = .oauth(status: code, error: argument()?.text ?? (code >= 500 ? "internal_failure" : "invalid_grant"))
        case "goaway":
            let reason = argument()?.text
            // An APNs reason goes in APNs' JSON; other words (Google's) as they are.
            let debug = reason.map { $0.first?.isUppercase == true ? "{\"reason\":\"\($0)\"}" : $0 } ?? ""
            fault = .goAway(errorCode: 0, debug: debug, processed: false)
        case "refuse-stream": fault = .refuseStream
        case "max-streams":
            let word = argument()
            guard let word, let n = UInt32(word.text) else { throw fail("bad-value", word?.offset ?? first.offset, "max-streams needs a number") }
            fault = .maxStreams(n)
        case "reset": fault = .reset
        case "delay": fault = .delay(milliseconds: try duration(argument()))
        case "hang": fault = .hang
        case "idle-close":
            let ms = try duration(argument())
            var reset = false
            if rest.first?.text == "reset" {
                rest.removeFirst()
                reset = true
            }
            fault = .idleClose(milliseconds: ms, reset: reset)
        case "token-expiry": fault = .tokenExpiry(seconds: max(1, try duration(argument()) / 1000))
        case "quota":
            let word = argument()
            guard let word, let scope = ChaosQuota.Scope(rawValue: word.text) else {
                throw fail("bad-value", word?.offset ?? first.offset, "quota needs device, topic or project")
            }
            var rate = scope.defaultRate
            if let given = argument() {
                guard let parsed = parseRate(given.text) else { throw fail("bad-value", given.offset, "a rate is N/s, N/min or N/h") }
                rate = parsed
            }
            fault = .quota(scope, limit: rate.limit, perSeconds: rate.perSeconds)
        default:
            throw fail("unknown-fault", first.offset, "no fault \(first.text); the faults are \(kinds.joined(separator: ", "))")
        }
        var rule = ChaosRule(fault: fault)
        var seed: UInt64? = nil
        var probability: Double? = nil
        for word in rest {
            if word.text == "accepted" {
                guard case .apns = fault else {
                    if case .fcm = fault {
                        rule.accepted = true
                    } else {
                        throw fail("option-not-for-fault", word.offset, "accepted is for apns and fcm answers")
                    }
                    continue
                }
                rule.accepted = true
                continue
            }
            if word.text == "processed" {
                guard case .goAway(let code, let debug, _) = rule.fault else {
                    throw fail("option-not-for-fault", word.offset, "processed is for goaway")
                }
                rule.fault = .goAway(errorCode: code, debug: debug, processed: true)
                continue
            }
            // Split on the scalar: a combining mark after "=" would make one character of them.
            let scalars = word.text.unicodeScalars
            guard let equals = scalars.firstIndex(of: "="), scalars.index(after: equals) != scalars.endIndex else {
                throw fail("bad-value", word.offset, "\(word.text): options are key=value")
            }
            let key = String(String.UnicodeScalarView(scalars[..<equals]))
            let value = String(String.UnicodeScalarView(scalars[scalars.index(after: equals)...]))
            let bad = fail("bad-value", word.offset + key.unicodeScalars.count + 1, "\(key)=\(value) cannot be read")
            switch key {
            case "next":
                guard let n = Int(value), n > 0 else { throw bad }
                rule.trigger = .next(n)
            case "every":
                guard let n = Int(value), n > 0 else { throw bad }
                rule.trigger = .every(n)
            case "probability":
                guard let p = Double(value), p > 0, p <= 1 else { throw bad }
                probability = p
            case "seed":
                guard let s = UInt64(value) else { throw bad }
                seed = s
            case "retry-after":
                if value.hasPrefix("date:+"), let s = Int(value.dropFirst("date:+".count)), s >= 0 {
                    rule.retryAfter = .dateIn(s)
                } else if let s = Int(value), s >= 0 {
                    rule.retryAfter = .seconds(s)
                } else {
                    throw bad
                }
            case "error":
                guard case .goAway(_, let debug, let processed) = rule.fault else {
                    throw fail("option-not-for-fault", word.offset, "error= is for goaway")
                }
                guard let code = http2Errors.first(where: { $0.0 == value.uppercased() })?.1 ?? UInt32(value) else { throw bad }
                rule.fault = .goAway(errorCode: code, debug: debug, processed: processed)
            case "debug":
                guard case .goAway(let code, _, let processed) = rule.fault else {
                    throw fail("option-not-for-fault", word.offset, "debug= is for goaway")
                }
                rule.fault = .goAway(errorCode: code, debug: value, processed: processed)
            case "service":
                guard value == "apns" || value == "fcm" else { throw bad }
                rule.match.service = value
            case "token": rule.match.token = value
            case "topic": rule.match.topic = value
            case "project": rule.match.project = value
            case "push-type": rule.match.pushType = value
            case "device": rule.match.device = value
            default:
                throw fail(
                    "unknown-option", word.offset,
                    "no option \(key); the options are next, every, probability, seed, retry-after, error, debug, service, token, topic, project, push-type, device, and the words accepted, processed"
                )
            }
        }
        if let probability { rule.trigger = .probability(probability, seed: seed ?? randomSeed()) }
        if case .fcm = fault, rule.match.service == "apns" {
            throw fail("option-not-for-fault", first.offset, "an fcm answer is for FCM's requests")
        }
        if case .apns = fault, rule.match.service == "fcm" {
            throw fail("option-not-for-fault", first.offset, "an apns answer is for APNs' requests")
        }
        return rule
    }

    /// `500ms`, `5s`, `2m`, `1h` (or bare seconds) in milliseconds.
    static func parseDuration(_ text: String) -> Int? {
        for (suffix, factor) in [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)] where text.hasSuffix(suffix) {
            guard let n = Double(text.dropLast(suffix.count)), n >= 0, n * Double(factor) < 1e12 else { return nil }
            return Int(n * Double(factor))
        }
        guard let n = Double(text), n >= 0, n < 1e9 else { return nil }
        return Int(n * 1000)
    }

    /// `10/s`, `240/min`, `5000/h`.
    static func parseRate(_ text: String) -> (limit: Int, perSeconds: Int)? {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let n = Int(parts[0]), n > 0 else { return nil }
        switch parts[1] {
        case "s": return (n, 1)
        case "min", "m": return (n, 60)
        case "h": return (n, 3600)
        default: return nil
        }
    }

    /// The rule written back as one line (what `pushbox chaos list` shows): reading it gives the same rule.
    public var text: String {
        var words: [String] = [fault.kind]
        switch fault {
        case .apns(let status, let reason): words += [String(status), reason]
        case .fcm(let status, let name, let code):
            words += [String(status), code ?? name]
        case .html(let status): words.append(String(status))
        case .oauth(let status, let error): words += [String(status), error]
        case .goAway(let code, let debug, let processed):
            if code != 0 { words.append("error=" + (Self.http2Errors.first { $0.1 == code }?.0 ?? String(code))) }
            if !debug.isEmpty { words.append("debug=" + debug.replacingOccurrences(of: " ", with: "")) }
            if processed { words.append("processed") }
        case .refuseStream, .reset, .hang: break
        case .maxStreams(let n): words.append(String(n))
        case .delay(let ms): words.append("\(ms)ms")
        case .idleClose(let ms, let reset): words += ["\(ms)ms"] + (reset ? ["reset"] : [])
        case .tokenExpiry(let s): words.append("\(s)s")
        case .quota(let scope, let limit, let per):
            words += [scope.rawValue, "\(limit)/" + (per == 1 ? "s" : per == 60 ? "min" : "h")]
        }
        if accepted { words.append("accepted") }
        if let retryAfter {
            switch retryAfter {
            case .seconds(let s): words.append("retry-after=\(s)")
            case .dateIn(let s): words.append("retry-after=date:+\(s)")
            }
        }
        switch trigger {
        case .always: break
        case .next(let n): words.append("next=\(n)")
        case .every(let n): words.append("every=\(n)")
        case .probability(let p, let seed): words += ["probability=\(p)", "seed=\(seed)"]
        }
        for (key, value) in [
            ("service", match.service), ("token", match.token), ("topic", match.topic), ("project", match.project), ("push-type", match.pushType),
            ("device", match.device),
        ] {
            if let value { words.append("\(key)=\(value)") }
        }
        return words.joined(separator: " ")
    }
}
