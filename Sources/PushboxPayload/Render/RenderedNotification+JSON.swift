import PushboxJSON

extension RenderedNotification {
    /// The form the store keeps: `json` without what reads back the same when absent (nulls,
    /// empty lists, and the fields not stored: `warnings`, which repeats the diagnostics'
    /// messages, and `platform`, which is always ios). A rendering is stored for every
    /// notification, so its size is the inbox's size.
    public var storedJSON: JSONValue {
        .object(
            JSONObject(
                Self.fields.compactMap { f in
                    guard f.stored, let value = f.written(self) else { return nil }
                    switch value {
                    case .null: return nil
                    case .array(let items) where items.isEmpty: return nil
                    default: return (f.key, value)
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
    /// Left out of the JSON when it has no value (`android`, for APNs payloads).
    public internal(set) var omittedWhenNull = false
    /// Whether the store keeps it (not what another field repeats, nor a constant).
    public internal(set) var stored = true

    /// The field's JSON value for `n`, nil when it is left out.
    public func written(_ n: RenderedNotification) -> JSONValue? {
        let value = write(n)
        return omittedWhenNull && value == .null ? nil : value
    }
}

extension RenderingField {
    // Each field is read and written through closures of its own: key paths, applied generically,
    // made render --json's form half as fast again (pushbox-bench render).

    static func string(
        _ key: String, listed: Bool = false, _ get: @escaping @Sendable (RenderedNotification) -> String?,
        _ set: @escaping @Sendable (inout RenderedNotification, String?) -> Void
    ) -> RenderingField {
        RenderingField(key: key, listed: listed, write: { .optionalString(get($0)) }, read: { set(&$0, $1.stringValue) })
    }

    static func list<Element>(
        _ key: String, listed: Bool = false, _ get: @escaping @Sendable (RenderedNotification) -> [Element],
        _ set: @escaping @Sendable (inout RenderedNotification, [Element]) -> Void, write: @escaping @Sendable (Element) -> JSONValue,
        read: @escaping @Sendable (JSONValue) -> Element?, stored: Bool = true
    ) -> RenderingField {
        RenderingField(
            key: key, listed: listed, write: { .array(get($0).map(write)) }, read: { set(&$0, ($1.arrayValue ?? []).compactMap(read)) },
            stored: stored)
    }
}

extension RenderedNotification {
    /// Every field of a rendering in the order `render --json` writes them: to show a new
    /// payload field on the card, read it in the renderer, add it to the model and here, and
    /// draw it on the card.
    public static let fields: [RenderingField] = [
        RenderingField(key: "platform", listed: false, write: { _ in .string("ios") }, read: { _, _ in }, stored: false),
        .string("file", { $0.file }, { $0.file = $1 }),
        .string("title", listed: true, { $0.title }, { $0.title = $1 }),
        .string("subtitle", listed: true, { $0.subtitle }, { $0.subtitle = $1 }),
        .string("body", listed: true, { $0.body }, { $0.body = $1 }),
        .string("language", listed: true, { $0.language }, { $0.language = $1 }),
        .list(
            "attachments", listed: true, { $0.attachments }, { $0.attachments = $1 }, write: { $0.json }, read: RenderedAttachment.init(json:)),
        .string("category", { $0.category }, { $0.category = $1 }),
        .list("actions", { $0.actions }, { $0.actions = $1 }, write: { $0.json }, read: RenderedAction.init(json:)),
        .string("threadId", { $0.threadId }, { $0.threadId = $1 }),
        RenderingField(key: "badge", listed: false, write: { .optionalInt($0.badge) }, read: { $0.badge = $1.intValue }),
        .string("sound", { $0.sound }, { $0.sound = $1 }),
        .string("interruptionLevel", { $0.interruptionLevel }, { $0.interruptionLevel = $1 }),
        RenderingField(
            key: "delivered", listed: true, write: { .string($0.delivered.rawValue) },
            read: { n, v in if let d = v.stringValue.flatMap(Delivery.init(rawValue:)) { n.delivered = d } }),
        RenderingField(key: "status", listed: false, write: { .optionalInt($0.status) }, read: { n, v in n.status = v.intValue ?? 200 }),
        .string("reason", { $0.reason }, { $0.reason = $1 }),
        .string("detail", { $0.detail }, { $0.detail = $1 }),
        .string("addressedTo", listed: true, { $0.addressedTo }, { $0.addressedTo = $1 }),
        RenderingField(
            key: "intended", listed: true, write: { $0.intended?.json ?? .null }, read: { n, v in n.intended = AlertContent(json: v) }),
        // Renderings stored before diagnostics were kept have their messages only; `diagnostics`
        // comes after and replaces them when it is there.
        .list(
            "warnings", listed: true, { $0.warnings }, { $0.warnings = $1 }, write: { .string($0.message) },
            read: { $0.stringValue.map { Diagnostic(.warning, $0) } }, stored: false),
        .list("diagnostics", listed: true, { $0.warnings }, { $0.warnings = $1 }, write: { $0.json }, read: Diagnostic.init(json:)),
        .list("trace", { $0.trace }, { $0.trace = $1 }, write: { $0.json }, read: TraceEntry.init(json:)),
        RenderingField(
            key: "android", listed: true, write: { $0.android?.json ?? .null }, read: { n, v in n.android = AndroidRendering(json: v) },
            omittedWhenNull: true),
        RenderingField(
            key: "liveActivity", listed: true, write: { $0.liveActivity?.json ?? .null },
            read: { n, v in n.liveActivity = LiveActivityOutcome(json: v) }, omittedWhenNull: true),
        RenderingField(
            key: "communication", listed: true, write: { $0.communication?.json ?? .null },
            read: { n, v in n.communication = Communication(json: v) }, omittedWhenNull: true),
        // The row keeps it (decided when the push arrived), not the rendering of one language.
        RenderingField(
            key: "presentation", listed: false, write: { $0.presentation?.json ?? .null },
            read: { n, v in n.presentation = Presentation(json: v) }, omittedWhenNull: true, stored: false),
    ]
}

extension RenderedAttachment {
    /// An attachment read back from its JSON object.
    init?(json: JSONValue) {
        guard let a = json.objectValue, let path = a["path"]?.stringValue, let type = a["type"]?.stringValue else { return nil }
        self.init(
            path: path, type: type, bytes: a["bytes"]?.intValue ?? 0, width: a["width"]?.intValue, height: a["height"]?.intValue,
            source: a["source"]?.stringValue ?? "", fromCache: a["fromCache"] == .bool(true))
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
        var entries: [(key: String, value: JSONValue)] = [
            ("step", .string(step.rawValue)), ("ms", .number(formatMilliseconds(ms))), ("outcome", .string(outcome.rawValue)),
        ]
        if let cause { entries.append(("cause", .string(cause.rawValue))) }
        entries.append(("detail", .string(detail)))
        return .object(JSONObject(entries))
    }

    /// A step read back from its JSON object.
    init?(json: JSONValue) {
        guard let t = json.objectValue, let step = t["step"]?.stringValue else { return nil }
        self.init(
            step: Step(rawValue: step), ms: t["ms"]?.doubleValue ?? 0, outcome: Outcome(rawValue: t["outcome"]?.stringValue ?? ""),
            cause: t["cause"]?.stringValue.map(Cause.init(rawValue:)), detail: t["detail"]?.stringValue ?? "")
    }
}
