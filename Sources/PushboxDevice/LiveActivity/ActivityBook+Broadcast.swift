import Foundation
import PushboxJSON
import PushboxPayload

/// A broadcast channel of the app (iOS 18): activities subscribed with `input-push-channel`
/// (or `pushType: .channel(id)`) get every update sent to it.
public struct BroadcastChannel: Sendable, Equatable {
    /// The channel id APNs gives (`apns-channel-id`, base64).
    public var id: String
    /// `message-storage-policy`: 0 keeps nothing, 1 keeps the latest message for activities
    /// that subscribe later.
    public var storagePolicy: Int
    /// When it was made (device clock).
    public var createdAt: Double
    /// The latest message sent to it, kept when the policy is 1: its `aps` and priority.
    public var latest: (aps: JSONObject, priority: Int, apnsID: String?)?

    public static func == (a: BroadcastChannel, b: BroadcastChannel) -> Bool {
        a.id == b.id && a.storagePolicy == b.storagePolicy && a.createdAt == b.createdAt && a.latest?.aps == b.latest?.aps
            && a.latest?.priority == b.latest?.priority && a.latest?.apnsID == b.latest?.apnsID
    }

    /// The channel as the management API reads it back.
    public var json: JSONValue {
        .object(JSONObject([("message-storage-policy", .optionalInt(storagePolicy)), ("push-type", .string("liveactivity"))]))
    }

    var stored: JSONValue {
        var o = JSONObject([("id", .string(id)), ("storagePolicy", .optionalInt(storagePolicy)), ("createdAt", .optionalDouble(createdAt))])
        if let latest {
            o["latest"] = .object(
                JSONObject([("aps", .object(latest.aps)), ("priority", .optionalInt(latest.priority)), ("apnsId", .optionalString(latest.apnsID))]))
        }
        return .object(o)
    }

    init?(stored: JSONValue) {
        guard let o = stored.objectValue, let id = o["id"]?.stringValue else { return nil }
        self.id = id
        storagePolicy = o["storagePolicy"]?.intValue ?? 0
        createdAt = o["createdAt"]?.doubleValue ?? 0
        if let l = o["latest"]?.objectValue, let aps = l["aps"]?.objectValue {
            latest = (aps, l["priority"]?.intValue ?? 10, l["apnsId"]?.stringValue)
        }
    }

    init(id: String, storagePolicy: Int, createdAt: Double) {
        self.id = id
        self.storagePolicy = storagePolicy
        self.createdAt = createdAt
    }
}

extension ActivityBook {
    /// How many channels an app may have (third-party documentation only: unconfirmed).
    public static let maxChannels = 10_000

    /// Makes a channel; its id.
    public mutating func createChannel(storagePolicy: Int, now: Double) -> String {
        madeChannels += 1
        let id = Data("pushbox-channel-\(madeChannels)".utf8).base64EncodedString()
        channels.append(BroadcastChannel(id: id, storagePolicy: storagePolicy, createdAt: now))
        return id
    }

    /// The channel `id`, if the app has it.
    public func channel(_ id: String) -> BroadcastChannel? { channels.first { $0.id == id } }

    /// Deletes a channel; whether it existed.
    public mutating func deleteChannel(_ id: String) -> Bool {
        let before = channels.count
        channels.removeAll { $0.id == id }
        return channels.count < before
    }

    /// A broadcast to `channel`: applied to every running activity subscribed to it, each by
    /// the rules of a push to its own token (APNs may reorder a channel's messages; the
    /// timestamp rule restores the order). Kept for late joiners when the policy says so.
    public mutating func broadcast(
        _ push: LiveActivityPush, aps: JSONObject, channel id: String, priority: Int, apnsID: String?, now: Double, profile: LiveActivityProfile
    ) -> LiveActivityOutcome {
        prune(now: now)
        if let i = channels.firstIndex(where: { $0.id == id }), channels[i].storagePolicy == 1 { channels[i].latest = (aps, priority, apnsID) }
        let subscribed = activities.indices.filter { activities[$0].channel == id && activities[$0].phase(at: now) != .dismissed }
        let eventName = push.event?.rawValue ?? push.unknownEvent ?? "none"
        guard !subscribed.isEmpty else {
            let o = LiveActivityOutcome(
                event: eventName, applied: false, drop: .noActivity, detail: "no Live Activity is subscribed to channel \(id)")
            unmatched.append(
                Self.event(ActivityDelivery(push: push, token: "", priority: priority, apnsID: apnsID, now: now), o, label: eventName + " (channel)"))
            return o
        }
        var outcomes: [LiveActivityOutcome] = []
        for i in subscribed {
            outcomes.append(applyTo(i, push, priority: priority, apnsID: apnsID, now: now, profile: profile, via: "channel \(id)"))
        }
        let applied = outcomes.filter(\.applied).count
        var summary = LiveActivityOutcome(
            event: eventName, applied: applied > 0, drop: applied > 0 ? nil : outcomes.first?.drop,
            detail: "broadcast on channel \(id): applied to \(applied) of \(outcomes.count) subscribed activit\(outcomes.count == 1 ? "y" : "ies")"
                + (outcomes.first { !$0.applied }.map { "; \($0.detail)" } ?? ""))
        summary.state = outcomes.first { $0.applied }?.state
        summary.activityID = outcomes.count == 1 ? activities[subscribed[0]].id : nil
        summary.activityType = activities[subscribed[0]].type
        summary.notes = outcomes.flatMap(\.notes)
        return summary
    }

    /// Applies an update or end to the activity at `i` and records it on its timeline.
    mutating func applyTo(
        _ i: Int, _ push: LiveActivityPush, priority: Int, apnsID: String?, now: Double, profile: LiveActivityProfile, via: String
    ) -> LiveActivityOutcome {
        let d = ActivityDelivery(push: push, token: activities[i].pushToken ?? "", priority: priority, apnsID: apnsID, now: now)
        let label = (push.event?.rawValue ?? "none") + " (\(via))"
        guard push.event == .update || push.event == .end else {
            let outcome = LiveActivityOutcome(
                event: push.event?.rawValue ?? "none", applied: false, drop: .badEvent, detail: "a channel carries updates and ends only")
            activities[i].record(Self.event(d, outcome, label: label))
            return outcome
        }
        return changeRecorded(i, d, profile: profile, label: label)
    }

    /// A new activity subscribed to a channel that keeps its latest message gets it at once.
    mutating func joinLate(_ i: Int, now: Double, profile: LiveActivityProfile) -> String? {
        guard let id = activities[i].channel, let channel = channel(id) else {
            return activities[i].channel.map { "channel \($0) is not one of the app's channels: nothing will reach the activity through it" }
        }
        guard let latest = channel.latest else { return nil }
        let o = applyTo(
            i, LiveActivityPush(aps: latest.aps), priority: latest.priority, apnsID: latest.apnsID, now: now, profile: profile,
            via: "stored on channel \(id)")
        return
            "the channel keeps its latest message (message-storage-policy 1): \(o.applied ? "applied" : "dropped, \(o.drop?.rawValue ?? "")") at once"
    }
}
