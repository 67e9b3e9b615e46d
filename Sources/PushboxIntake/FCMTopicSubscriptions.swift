import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload

/// FCM's topic subscription API (`projects.registrations.topicSubscriptions`: create, delete,
/// get, list — what firebase-admin 7's `subscribe_to_topic` / `unsubscribe_from_topic` call, one
/// request per token) and the legacy Instance ID batch calls older SDKs make
/// (`iid.googleapis.com/iid/v1:batchAdd`, `:batchRemove`). A token that addresses this device
/// changes the device's topics at once, kept in its registration beside the inbox.
extension FCMEndpoint {
    /// `{project}`, `{registration}` and the topic (nil for the collection) of
    /// `/v1/projects/{project}/registrations/{registration}/topicSubscriptions[/{topic}]`,
    /// percent-decoded.
    static func subscriptionPath(_ path: String) -> (project: String, registration: String, topic: String?)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 7 || parts.count == 8, parts[0].isEmpty, parts[1] == "v1", parts[2] == "projects", parts[4] == "registrations",
            parts[6] == "topicSubscriptions", !parts[3].isEmpty, !parts[5].isEmpty
        else { return nil }
        let decode = { (s: String) in s.removingPercentEncoding ?? s }
        let topic = parts.count == 8 ? decode(parts[7]) : nil
        if parts.count == 8 && topic?.isEmpty != false { return nil }
        return (decode(parts[3]), decode(parts[5]), topic)
    }

    /// The Instance ID service's batch paths: whether each adds.
    static let instanceIDPaths = ["/iid/v1:batchAdd": true, "/iid/v1:batchRemove": false]

    /// The topic API's and the Instance ID service's routes.
    var topicRoutes: [Route] {
        let limit: @Sendable (RequestHead) -> Int = { _ in 1 << 20 }
        return [
            Route(
                "fcm-topic-subscriptions", methods: ["POST", "DELETE", "GET"], paths: .matching { Self.subscriptionPath($0) != nil },
                maxBody: limit,
                check: { [self] head in
                    guard head.connection.requiresAuth else { return .success(.none) }
                    return accessToken(
                        head.headers.last { $0.name == "authorization" }?.value, project: Self.subscriptionPath(head.path)?.project ?? "")
                },
                refusal: Self.refusal, handle: { [self] in subscriptions($0) }),
            Route(
                "iid-batch", methods: ["POST"], paths: .matching { Self.instanceIDPaths[$0] != nil }, maxBody: limit,
                check: { [self] head in
                    guard head.connection.requiresAuth else { return .success(.none) }
                    return accessToken(head.headers.last { $0.name == "authorization" }?.value, project: nil)
                },
                refusal: { reason, _ in Self.json(reason.status, .object(JSONObject([("error", .string(reason.rawValue))]))) },
                handle: { [self] in instanceIDBatch($0, add: Self.instanceIDPaths[$0.path] ?? true) }),
        ]
    }

    /// How a registration (token or installation id) stands, for FCM's topic API and the
    /// Instance ID service alike, which word their answers differently.
    enum RegistrationStanding {
        /// It addresses a device of the inbox (nil: the default one), whose topics then change.
        case device(String?)
        /// Not of a token's form.
        case malformed
        /// Well-formed but not this device's: unregistered, or not its own while tokens are strict (why).
        case notThisDevice(String)
    }

    /// An added device's token is that device's (unless its app was uninstalled or the token
    /// unregistered); any other is judged as the default device's.
    func standing(of registration: String, device: DeviceRegistration) -> RegistrationStanding {
        guard FCMRules.isRegistrationTokenForm(registration) else { return .malformed }
        if let member = device.devices.first(where: { $0.ownsFCM(registration) }) {
            guard member.state.unregisteredAt(registration) == nil else { return .notThisDevice("the token is unregistered") }
            return .device(member.name)
        }
        guard device.accepts(registration, mode: service.phone.context.fcmTokens) else {
            return .notThisDevice(
                device.unregisteredAt(registration) != nil ? "the token is unregistered" : "not this device's token, and FCM tokens are strict")
        }
        return .device(nil)
    }

    /// The topics of the device `owner` names (nil: the default device) before subscriptions
    /// changed them, and its registration.
    func topicsBase(_ owner: String?, in fleet: DeviceRegistration) -> (base: Set<String>, registration: DeviceRegistration) {
        guard let owner, let member = fleet.device(named: owner) else { return (service.phone.context.deviceTopics ?? [], fleet) }
        return (service.phone.baseTopics(of: member), member.state)
    }

    /// The topic API's refusal for a registration that is not this device's: 400 for a
    /// malformed one, 404 `UNREGISTERED` for another; nil for the device's.
    func refusal(_ standing: RegistrationStanding) -> HTTPResponse? {
        var response: HTTPResponse
        switch standing {
        case .device: return nil
        case .malformed:
            response = Self.invalidArgument("The registration token is not a valid FCM registration token", field: "parent")
            response.cause = "neither an FCM registration token nor a Firebase installation id"
        case .notThisDevice(let why):
            response = Self.googleError(404, "NOT_FOUND", "Requested entity was not found.", fcmCode: "UNREGISTERED")
            response.cause = why
        }
        return response
    }

    /// Subscribes the device `owner` names (nil: the default device) to `topic` or unsubscribes
    /// it, through the API, at `now`; whether it was subscribed before. Nil when the registration
    /// file could not be written.
    func change(_ file: DeviceRegistrationFile, owner: String?, topic: String, subscribe: Bool, at now: Int64) -> Bool? {
        var was = false
        func apply(_ r: inout DeviceRegistration, base: Set<String>) {
            was = r.topics(base: base).contains(topic)
            if subscribe { r.subscribe(topic, base: base, at: now, by: "api") } else { r.unsubscribe(topic, base: base, at: now, by: "api") }
        }
        do {
            _ = try file.update { fleet in
                if let owner, let i = fleet.devices.firstIndex(where: { $0.name == owner }) {
                    apply(&fleet.devices[i].state, base: service.phone.baseTopics(of: fleet.devices[i]))
                } else {
                    apply(&fleet, base: service.phone.context.deviceTopics ?? [])
                }
            }
        } catch { return nil }
        return was
    }

    /// create (POST, `topic_name` or `topicName` in the query or the body), delete (DELETE,
    /// `allow_missing`), get and list (GET), with FCM's answers.
    func subscriptions(_ request: HTTPRequest) -> HTTPResponse {
        guard let (project, registration, pathTopic) = Self.subscriptionPath(request.path), let file = service.phone.registrationFile else {
            return Self.googleError(404, "NOT_FOUND", "Requested entity was not found.")
        }
        let fleet = file.current()
        let standing = standing(of: registration, device: fleet)
        if let refused = refusal(standing) { return refused }
        guard case .device(let owner) = standing else { return Self.googleError(500, "INTERNAL", "Internal error encountered.") }
        let (base, device) = topicsBase(owner, in: fleet)
        let parent = "projects/\(project)/registrations/\(registration)/topicSubscriptions"
        let dates = InboxListing.dateFormatter()
        func resource(_ topic: String, _ at: Int64?) -> JSONValue {
            .object(
                JSONObject([
                    ("name", .string("\(parent)/\(topic)")), ("topic_name", .string(topic)),
                    ("create_time", .string(dates.string(from: Date(timeIntervalSince1970: Double(at ?? 0) / 1000)))),
                ]))
        }
        let body = (try? JSONParser.parse(request.body))?.objectValue
        switch (request.method, pathTopic) {
        case ("POST", nil):
            let given =
                request.query["topic_name"] ?? request.query["topicName"] ?? body?["topic_name"]?.stringValue ?? body?["topicName"]?.stringValue
            guard let given, !given.isEmpty else {
                return Self.invalidArgument("Request contains an invalid argument.", field: "topic_name", description: "topic_name is required")
            }
            let topic = TopicCondition.bareTopicName(given)
            guard TopicCondition.isValidTopicName(topic), topic.utf8.count <= 900 else {
                return Self.invalidArgument("Invalid topic name \(topic): topic names match [a-zA-Z0-9-_.~%]{1,900}", field: "topic_name")
            }
            if device.topics(base: base).contains(topic) {
                return Self.googleError(409, "ALREADY_EXISTS", "The topic subscription already exists.")
            }
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            guard change(file, owner: owner, topic: topic, subscribe: true, at: now) != nil else {
                return Self.googleError(500, "INTERNAL", "Internal error encountered.")
            }
            return Self.json(200, resource(topic, now))
        case ("DELETE", let topic?):
            let allowMissing = request.query["allow_missing"] == "true" || request.query["allowMissing"] == "true"
            guard let was = change(file, owner: owner, topic: topic, subscribe: false, at: Int64(Date().timeIntervalSince1970 * 1000)) else {
                return Self.googleError(500, "INTERNAL", "Internal error encountered.")
            }
            guard was || allowMissing else { return Self.googleError(404, "NOT_FOUND", "Requested entity was not found.") }
            return Self.json(200, .object(JSONObject()))
        case ("GET", let topic?):
            guard device.topics(base: base).contains(topic) else { return Self.googleError(404, "NOT_FOUND", "Requested entity was not found.") }
            return Self.json(200, resource(topic, device.subscribed[topic]?.at))
        case ("GET", nil):
            let all = device.topics(base: base).sorted().map { resource($0, device.subscribed[$0]?.at) }
            return Self.json(200, .object(JSONObject([("topicSubscriptions", .array(all))])))
        default:
            return Self.googleError(405, "METHOD_NOT_ALLOWED", "Method \(request.method) is not allowed here.")
        }
    }

    /// The Instance ID service's `batchAdd` / `batchRemove`: `{"to": "/topics/T",
    /// "registration_tokens": [...]}`, answered `{"results": [{}, {"error": "NOT_FOUND"}, …]}`
    /// one result per token, in order.
    func instanceIDBatch(_ request: HTTPRequest, add: Bool) -> HTTPResponse {
        func iidError(_ status: Int, _ code: String) -> HTTPResponse { Self.json(status, .object(JSONObject([("error", .string(code))]))) }
        guard let body = (try? JSONParser.parse(request.body))?.objectValue, let to = body["to"]?.stringValue,
            let tokens = body["registration_tokens"]?.arrayValue, !tokens.isEmpty
        else { return iidError(400, "INVALID_ARGUMENT") }
        let topic = TopicCondition.bareTopicName(to)
        guard TopicCondition.isValidTopicName(topic) else { return iidError(400, "INVALID_ARGUMENT") }
        guard let file = service.phone.registrationFile else { return iidError(500, "INTERNAL") }
        let device = file.current()
        var results: [JSONValue] = []
        // The devices whose tokens were given, in order (nil: the default device), each changed once.
        var owners: [String?] = []
        for token in tokens {
            switch token.stringValue.map({ standing(of: $0, device: device) }) ?? .malformed {
            case .malformed: results.append(.object(JSONObject([("error", .string("INVALID_ARGUMENT"))])))
            case .notThisDevice: results.append(.object(JSONObject([("error", .string("NOT_FOUND"))])))
            case .device(let owner):
                if !owners.contains(owner) { owners.append(owner) }
                results.append(.object(JSONObject()))
            }
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for owner in owners where change(file, owner: owner, topic: topic, subscribe: add, at: now) == nil {
            return iidError(500, "INTERNAL")
        }
        return Self.json(200, .object(JSONObject([("results", .array(results))])))
    }
}
