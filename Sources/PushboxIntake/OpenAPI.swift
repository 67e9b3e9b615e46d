import PushboxJSON

/// What a route says of itself for `GET /api/v1/openapi.json`: its path as a template, and per
/// method its summary, parameters, body and answers. Kept with the route in the table, so the
/// document is made from the routes pushbox serves and never written by hand.
public struct RouteDoc: Sendable {
    /// The path as OpenAPI writes it (`/api/v1/notifications/{key}`).
    public var path: String
    /// What each method does.
    public var operations: [Operation]

    /// One method of the route.
    public struct Operation: Sendable {
        public var method: String
        public var summary: String
        public var parameters: [Parameter] = []
        /// The JSON body it takes, described; nil for none.
        public var body: String? = nil
        /// Its answers: status and what it means.
        public var responses: [(status: Int, description: String)]
        /// The answer's type.
        public var contentType = "application/json"
    }

    /// A parameter of a method.
    public struct Parameter: Sendable {
        public var name: String
        /// `query`, `path` or `header`.
        public var location: String
        public var description: String
        /// `string`, `integer` or `number`.
        public var type = "string"
        public var required = false
    }
}

extension RouteDoc.Parameter {
    /// A query parameter.
    static func query(_ name: String, _ description: String, type: String = "string") -> Self {
        Self(name: name, location: "query", description: description, type: type)
    }
}

/// The OpenAPI 3.1 document of the documented routes of a table.
enum OpenAPI {
    static func document(_ docs: [RouteDoc], version: String) -> JSONValue {
        var paths = JSONObject()
        for doc in docs {
            var item = JSONObject()
            for op in doc.operations {
                var operation = JSONObject([
                    ("summary", .string(op.summary)),
                    ("operationId", .string(operationID(op.method, doc.path))),
                ])
                if !op.parameters.isEmpty {
                    operation["parameters"] = .array(
                        op.parameters.map { p in
                            .object(
                                JSONObject([
                                    ("name", .string(p.name)), ("in", .string(p.location)), ("required", .bool(p.required || p.location == "path")),
                                    ("description", .string(p.description)), ("schema", .object(JSONObject([("type", .string(p.type))]))),
                                ]))
                        })
                }
                if let body = op.body {
                    operation["requestBody"] = .object(
                        JSONObject([
                            ("description", .string(body)), ("required", .bool(true)),
                            (
                                "content",
                                .object(
                                    JSONObject([
                                        ("application/json", .object(JSONObject([("schema", .object(JSONObject([("type", .string("object"))])))])))
                                    ]))
                            ),
                        ]))
                }
                var responses = JSONObject()
                for (status, description) in op.responses {
                    responses[String(status)] = .object(
                        JSONObject([
                            ("description", .string(description)),
                            ("content", .object(JSONObject([(status < 300 ? op.contentType : "application/json", .object(JSONObject()))]))),
                        ]))
                }
                operation["responses"] = .object(responses)
                item[op.method.lowercased()] = .object(operation)
            }
            paths[doc.path] = .object(item)
        }
        return .object(
            JSONObject([
                ("openapi", .string("3.1.0")),
                (
                    "info",
                    .object(
                        JSONObject([
                            ("title", .string("pushbox API for tests")), ("version", .string(version)),
                            (
                                "description",
                                .string(
                                    "Find, wait for and clear the notifications a local pushbox took in, follow its events, read and change its device. The same on its Unix socket and its TCP port; queries use pushbox's query language (`pushbox help query`)."
                                )
                            ),
                        ]))
                ),
                ("paths", .object(paths)),
            ]))
    }

    /// `getApiV1NotificationsKey` for `GET /api/v1/notifications/{key}`.
    static func operationID(_ method: String, _ path: String) -> String {
        let words = path.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return method.lowercased() + words.joined()
    }
}
