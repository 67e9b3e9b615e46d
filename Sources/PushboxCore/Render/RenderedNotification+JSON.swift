import PushboxText

extension RenderedNotification {
    /// The form the store keeps: `json` without what reads back the same when absent (nulls,
    /// empty lists, and `warnings`, which repeats the diagnostics' messages). A rendering is
    /// stored for every notification, so its size is the inbox's size.
    public var storedJSON: JSONValue {
        guard case .object(let full) = json else { return json }
        return .object(
            JSONObject(
                full.entries.filter { key, value in
                    switch value {
                    case .null: false
                    case .array(let items): !items.isEmpty && key != "warnings"
                    default: true
                    }
                }))
    }

    /// Reads back the JSON `json` writes (the store keeps renderings that way); nil without `delivered`.
    public init?(json: JSONObject) {
        guard let delivered = json["delivered"]?.stringValue.flatMap(Delivery.init(rawValue:)) else { return nil }
        self.init(delivered: delivered)
        for field in Self.fields {
            if let value = json[field.key] { field.read(&self, value) }
        }
    }
}

/// One field of a rendering in JSON: its key, how it is written and read back, and whether the
/// inbox listing (`GET /inbox`, `list --json`) shows it. `RenderedNotification.fields` is the one
/// list `render --json`, the stored form, its decoding and the listing all follow.
public struct RenderingField: Sendable {
    /// The JSON key.
    public let key: String
    /// Whether `GET /inbox` and `list --json` show it beside the stored row's own fields.
    public let listed: Bool
    /// The field's JSON value.
    public let write: @Sendable (RenderedNotification) -> JSONValue
    /// Sets the field from its JSON value.
    let read: @Sendable (inout RenderedNotification, JSONValue) -> Void
}

extension RenderingField {
    typealias Field<Value> = WritableKeyPath<RenderedNotification, Value> & Sendable

    static func string(_ key: String, _ path: Field<String?>, listed: Bool = false) -> RenderingField {
        RenderingField(key: key, listed: listed, write: { .optionalString($0[keyPath: path]) }, read: { $0[keyPath: path] = $1.stringValue })
    }

    static func int(_ key: String, _ path: Field<Int?>) -> RenderingField {
        RenderingField(key: key, listed: false, write: { .optionalInt($0[keyPath: path]) }, read: { $0[keyPath: path] = $1.intValue })
    }

    static func list<Element>(
        _ key: String, _ path: Field<[Element]>, listed: Bool = false, write: @escaping @Sendable (Element) -> JSONValue,
        read: @escaping @Sendable (JSONValue) -> Element?
    ) -> RenderingField {
        RenderingField(
            key: key, listed: listed, write: { .array($0[keyPath: path].map(write)) },
            read: { $0[keyPath: path] = ($1.arrayValue ?? []).compactMap(read) })
    }
}

extension RenderedNotification {
    /// Every field of a rendering in the order `render --json` writes them: to show a new
    /// payload field on the card, read it in the renderer, add it to the model and here, and
    /// draw it on the card.
    public static let fields: [RenderingField] = [
        .string("file", \.file),
        .string("title", \.title, listed: true),
        .string("subtitle", \.subtitle, listed: true),
        .string("body", \.body, listed: true),
        .string("language", \.language, listed: true),
        .list("attachments", \.attachments, listed: true, write: \.json, read: RenderedAttachment.init(json:)),
        .string("category", \.category),
        .list("actions", \.actions, write: \.json, read: RenderedAction.init(json:)),
        .string("threadId", \.threadId),
        .int("badge", \.badge),
        .string("sound", \.sound),
        .string("interruptionLevel", \.interruptionLevel),
        RenderingField(
            key: "delivered", listed: true, write: { .string($0.delivered.rawValue) },
            read: { n, v in if let d = v.stringValue.flatMap(Delivery.init(rawValue:)) { n.delivered = d } }),
        RenderingField(key: "status", listed: false, write: { .optionalInt($0.status) }, read: { n, v in n.status = v.intValue ?? 200 }),
        .string("reason", \.reason),
        .string("detail", \.detail),
        // Renderings stored before diagnostics were kept have their messages only; `diagnostics`
        // comes after and replaces them when it is there.
        .list("warnings", \.warnings, listed: true, write: { .string($0.message) }, read: { $0.stringValue.map { Diagnostic(.warning, $0) } }),
        .list("diagnostics", \.warnings, listed: true, write: \.json, read: Diagnostic.init(json:)),
        .list("trace", \.trace, write: \.json, read: TraceEntry.init(json:)),
    ]
}

extension RenderedAttachment {
    /// An attachment read back from its JSON object.
    init?(json: JSONValue) {
        guard let a = json.objectValue, let path = a["path"]?.stringValue, let type = a["type"]?.stringValue else { return nil }
        self.init(
            path: path, type: type, bytes: a["bytes"]?.intValue ?? 0, width: a["width"]?.intValue, height: a["height"]?.intValue,
            source: a["source"]?.stringValue ?? "")
    }
}

extension RenderedAction {
    /// The action as `render --json` writes it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("identifier", .string(identifier)), ("title", .string(title)), ("options", .array(options.map { .string($0.rawValue) })),
            ]))
    }

    /// An action read back from its JSON object.
    init?(json: JSONValue) {
        guard let a = json.objectValue, let id = a["identifier"]?.stringValue else { return nil }
        self.init(
            identifier: id, title: a["title"]?.stringValue ?? id,
            options: a["options"]?.arrayValue?.compactMap { $0.stringValue.flatMap(ActionOption.init(rawValue:)) } ?? [])
    }
}

extension TraceEntry {
    /// The step as `render --json` writes it (`cause` only when there is one).
    public var json: JSONValue {
        var object = JSONObject([
            ("step", .string(step.rawValue)), ("ms", .number(formatMilliseconds(ms))), ("outcome", .string(outcome.rawValue)),
        ])
        if let cause { object["cause"] = .string(cause.rawValue) }
        object["detail"] = .string(detail)
        return .object(object)
    }

    /// A step read back from its JSON object.
    init?(json: JSONValue) {
        guard let t = json.objectValue, let step = t["step"]?.stringValue else { return nil }
        self.init(
            step: Step(rawValue: step), ms: t["ms"]?.doubleValue ?? 0, outcome: Outcome(rawValue: t["outcome"]?.stringValue ?? ""),
            cause: t["cause"]?.stringValue.map(Cause.init(rawValue:)), detail: t["detail"]?.stringValue ?? "")
    }
}
