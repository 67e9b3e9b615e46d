import PushboxJSON

/// `GET`/`PUT`/`DELETE /api/v1/chaos`: the running pushbox's chaos rules, as `pushbox chaos`
/// shows and changes them. `PUT` takes `{"rules": [RULE…]}` (all of them, replacing),
/// `{"add": [RULE…]}`, `{"remove": [ID…]}`, `{"on": [ID…]}`, `{"off": [ID…]}`; `{}` clears.
/// Nothing changes when any rule cannot be read.
enum APIChaos {
    static let maxBody = 64 * 1024
    static let keys = ["rules", "add", "remove", "on", "off"]

    /// The rules as they are: `{"armed": bool, "rules": [{id, rule, fault, active, spent, matched, fired}]}`.
    static func state(_ book: ChaosBook) -> HTTPResponse {
        APIv1.json(200, JSONObject([("armed", .bool(book.isArmed)), ("rules", .array(book.entries.map(\.json)))]))
    }

    static func handle(_ request: HTTPRequest, _ book: ChaosBook) -> HTTPResponse {
        switch request.method {
        case "DELETE":
            book.clear()
            return state(book)
        case "PUT": return change(request, book)
        default: return state(book)
        }
    }

    static func change(_ request: HTTPRequest, _ book: ChaosBook) -> HTTPResponse {
        guard let body = try? JSONParser.parse(request.body).objectValue else {
            return APIv1.failure(400, "BadChaosChange", "the body must be a JSON object: {\"add\": [\"fcm 503 UNAVAILABLE next=2\"]}")
        }
        if let unknown = body.entries.map(\.key).first(where: { !keys.contains($0) }) {
            return APIv1.failure(400, "BadChaosChange", "no key \(unknown); the keys are \(keys.joined(separator: ", "))")
        }
        // Every rule read before anything changes.
        var adding: [ChaosRule] = []
        for key in ["rules", "add"] {
            guard let value = body[key] else { continue }
            guard let texts = value.arrayValue?.map(\.stringValue), !texts.contains(nil) else {
                return APIv1.failure(400, "BadChaosChange", "\(key) must be an array of rules, each a string")
            }
            for (i, text) in texts.compactMap({ $0 }).enumerated() {
                do { adding.append(try ChaosRule.parse(text)) } catch {
                    var response = APIv1.json(
                        400,
                        JSONObject([
                            ("error", .string("BadChaosRule")), ("code", .string(error.code)), ("offset", .number(String(error.offset))),
                            ("rule", .number(String(i))), ("detail", .string(error.message)),
                        ]))
                    response.cause = error.code
                    return response
                }
            }
        }
        var ids: [String: [Int]] = [:]
        for key in ["remove", "on", "off"] {
            guard let value = body[key] else { continue }
            guard let list = value.arrayValue?.map(\.intValue), !list.contains(nil) else {
                return APIv1.failure(400, "BadChaosChange", "\(key) must be an array of rule numbers")
            }
            ids[key] = list.compactMap { $0 }
        }
        if body.entries.isEmpty || body["rules"] != nil { book.clear() }
        for rule in adding { book.add(rule) }
        for id in ids["remove"] ?? [] { book.remove(id) }
        for id in ids["on"] ?? [] { book.setActive(id, true) }
        for id in ids["off"] ?? [] { book.setActive(id, false) }
        return state(book)
    }
}
