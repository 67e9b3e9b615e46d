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

    /// Reads back the JSON `json` writes (the store keeps renderings that way).
    public init?(json: JSONObject) {
        guard let delivered = json["delivered"]?.stringValue.flatMap(Delivery.init(rawValue:)) else { return nil }
        self.init(delivered: delivered)
        file = json["file"]?.stringValue
        title = json["title"]?.stringValue
        subtitle = json["subtitle"]?.stringValue
        body = json["body"]?.stringValue
        language = json["language"]?.stringValue
        category = json["category"]?.stringValue
        threadId = json["threadId"]?.stringValue
        badge = json["badge"]?.intValue
        sound = json["sound"]?.stringValue
        interruptionLevel = json["interruptionLevel"]?.stringValue
        status = json["status"]?.intValue ?? 200
        reason = json["reason"]?.stringValue
        detail = json["detail"]?.stringValue
        // Renderings stored before diagnostics were kept have their messages only.
        warnings =
            json["diagnostics"]?.arrayValue?.compactMap(Diagnostic.init(json:))
            ?? json["warnings"]?.arrayValue?.compactMap { $0.stringValue.map { Diagnostic(.warning, $0) } } ?? []
        attachments = (json["attachments"]?.arrayValue ?? []).compactMap { v in
            guard let a = v.objectValue, let path = a["path"]?.stringValue, let type = a["type"]?.stringValue else { return nil }
            return RenderedAttachment(
                path: path, type: type, bytes: a["bytes"]?.intValue ?? 0, width: a["width"]?.intValue,
                height: a["height"]?.intValue, source: a["source"]?.stringValue ?? "")
        }
        actions = (json["actions"]?.arrayValue ?? []).compactMap { v in
            guard let a = v.objectValue, let id = a["identifier"]?.stringValue else { return nil }
            return RenderedAction(
                identifier: id, title: a["title"]?.stringValue ?? id,
                options: a["options"]?.arrayValue?.compactMap { $0.stringValue.flatMap(ActionOption.init(rawValue:)) } ?? [])
        }
        trace = (json["trace"]?.arrayValue ?? []).compactMap { v in
            guard let t = v.objectValue, let step = t["step"]?.stringValue else { return nil }
            return TraceEntry(
                step: TraceEntry.Step(rawValue: step), ms: t["ms"]?.doubleValue ?? 0,
                outcome: TraceEntry.Outcome(rawValue: t["outcome"]?.stringValue ?? ""), detail: t["detail"]?.stringValue ?? "")
        }
    }
}
