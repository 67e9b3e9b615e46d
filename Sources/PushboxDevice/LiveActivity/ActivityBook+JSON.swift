import Foundation
import PushboxJSON
import PushboxPayload

extension JSONValue {
    /// A JSON number from a Double, or null when nil.
    static func optionalDouble(_ d: Double?) -> JSONValue { d.map { .number(ContentDecoder.shortest($0)) } ?? .null }
}

/// A UNIX time as ISO 8601 (UTC), as the book's readers get it.
func isoTime(_ t: Double?) -> JSONValue { t.map { .string(ActivityBook.clock($0)) } ?? .null }

extension ActivityEvent {
    /// The event as the book file and `pushbox activities --json` write it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("at", .optionalDouble(at)), ("apnsId", .optionalString(apnsID)), ("event", .string(event)),
                ("timestamp", .optionalDouble(timestamp)), ("priority", .optionalInt(priority)), ("applied", .bool(applied)),
                ("reason", .optionalString(drop?.rawValue)), ("detail", .string(detail)), ("alert", .optionalString(alert)),
            ]))
    }

    /// An event read back.
    init?(json: JSONValue) {
        guard let o = json.objectValue, let at = o["at"]?.doubleValue, let event = o["event"]?.stringValue else { return nil }
        self.init(
            at: at, apnsID: o["apnsId"]?.stringValue, event: event, timestamp: o["timestamp"]?.doubleValue,
            priority: o["priority"]?.intValue ?? 10, applied: o["applied"] == .bool(true),
            drop: o["reason"]?.stringValue.flatMap(ActivityDrop.init(rawValue:)), detail: o["detail"]?.stringValue ?? "",
            alert: o["alert"]?.stringValue)
    }
}

extension LiveActivity {
    /// The activity as the book file keeps it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("id", .string(id)), ("type", .string(type)), ("attributes", attributes), ("state", state),
                ("pushToken", .optionalString(pushToken)), ("channel", .optionalString(channel)), ("startedAt", .optionalDouble(startedAt)),
                ("startedBy", .string(startedBy)), ("staleDate", .optionalDouble(staleDate)), ("relevance", .optionalDouble(relevance)),
                ("endedAt", .optionalDouble(endedAt)), ("dismissAt", .optionalDouble(dismissAt)),
                ("lastTimestamp", .optionalDouble(lastTimestamp)), ("timeline", .array(timeline.map(\.json))),
            ]))
    }

    /// An activity read back.
    init?(json: JSONValue) {
        guard let o = json.objectValue, let id = o["id"]?.stringValue, let type = o["type"]?.stringValue,
            let started = o["startedAt"]?.doubleValue
        else { return nil }
        self.init(
            id: id, type: type, attributes: o["attributes"] ?? .null, state: o["state"] ?? .null, pushToken: o["pushToken"]?.stringValue,
            channel: o["channel"]?.stringValue, startedAt: started, startedBy: o["startedBy"]?.stringValue ?? "app")
        staleDate = o["staleDate"]?.doubleValue
        relevance = o["relevance"]?.doubleValue ?? 0
        endedAt = o["endedAt"]?.doubleValue
        dismissAt = o["dismissAt"]?.doubleValue
        lastTimestamp = o["lastTimestamp"]?.doubleValue
        timeline = o["timeline"]?.arrayValue?.compactMap(ActivityEvent.init(json:)) ?? []
    }

    /// The activity as `pushbox activities --json` shows it at `now`: its phase and times in
    /// ISO 8601, its Dynamic Island rank, its lock-screen line.
    public func shown(at now: Double, rank: Int?, line: String?) -> JSONValue {
        var o = json.objectValue ?? JSONObject()
        o["phase"] = .string(phase(at: now).rawValue)
        o["islandRank"] = .optionalInt(rank)
        o["line"] = .optionalString(line)
        for key in ["startedAt", "staleDate", "endedAt", "dismissAt", "lastTimestamp"] {
            if let t = o[key]?.doubleValue { o[key] = isoTime(t) }
        }
        o["endsBy"] = isoTime(end(at: now) ?? startedAt + Self.maxActive)
        o["timeline"] = .array(
            timeline.map {
                var e = $0.json.objectValue ?? JSONObject()
                e["at"] = isoTime($0.at)
                return .object(e)
            })
        return .object(o)
    }
}

extension ActivityBook {
    /// The book as its file keeps it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("made", .optionalInt(made)), ("activities", .array(activities.map(\.json))), ("unmatched", .array(unmatched.map(\.json))),
                ("priorityPushes", .array(priorityPushes.map { .optionalDouble($0) })),
                ("pushToStarts", .array(pushToStarts.map { .optionalDouble($0) })), ("madeChannels", .optionalInt(madeChannels)),
                ("channels", .array(channels.map(\.stored))),
            ]))
    }

    /// A book read back; an empty one when `json` is not one.
    public init(json: JSONValue) {
        let o = json.objectValue ?? JSONObject()
        made = o["made"]?.intValue ?? 0
        activities = o["activities"]?.arrayValue?.compactMap(LiveActivity.init(json:)) ?? []
        unmatched = o["unmatched"]?.arrayValue?.compactMap(ActivityEvent.init(json:)) ?? []
        priorityPushes = o["priorityPushes"]?.arrayValue?.compactMap(\.doubleValue) ?? []
        pushToStarts = o["pushToStarts"]?.arrayValue?.compactMap(\.doubleValue) ?? []
        madeChannels = o["madeChannels"]?.intValue ?? 0
        channels = o["channels"]?.arrayValue?.compactMap(BroadcastChannel.init(stored:)) ?? []
    }
}
