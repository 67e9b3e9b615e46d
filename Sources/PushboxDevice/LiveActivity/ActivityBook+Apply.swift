import Foundation
import PushboxJSON
import PushboxPayload

extension ActivityBook {
    /// A validated `liveactivity` push as the device receives it: a broadcast (no device token,
    /// an `apns-channel-id`) to its channel's activities, any other to the activity its token
    /// (FCM's `live_activity_token`, else `deviceToken`) addresses, as `address` reads it.
    public mutating func receive(
        _ validated: ValidatedPayload, deviceToken: String?, apnsID: String?, now: Double, profile: LiveActivityProfile
    ) -> LiveActivityOutcome {
        let push = LiveActivityPush(aps: validated.aps)
        let priority = Int(validated.headers[PushHeaders.priority] ?? "") ?? 10
        if deviceToken == nil, let channel = validated.headers[PushHeaders.channelID] {
            return broadcast(push, aps: validated.aps, channel: channel, priority: priority, apnsID: apnsID, now: now, profile: profile)
        }
        let (token, note) = address(validated.fcm?.liveActivityToken ?? deviceToken, event: push.event, now: now)
        var outcome = apply(ActivityDelivery(push: push, token: token, priority: priority, apnsID: apnsID, now: now), profile: profile)
        if let note { outcome.notes.insert(note, at: 0) }
        return outcome
    }

    /// Applies one push as the device does, in its order: the event, the token, the ended
    /// activity, the timestamp rules, the content (present, decodable, within 4 KB), then the
    /// budgets. Returns what happened; the book records it.
    public mutating func apply(_ d: ActivityDelivery, profile: LiveActivityProfile) -> LiveActivityOutcome {
        prune(now: d.now)
        let eventName = d.push.event?.rawValue ?? d.push.unknownEvent ?? "none"
        let outcome: LiveActivityOutcome
        switch d.push.event {
        case nil:
            outcome = LiveActivityOutcome(
                event: eventName, applied: false, drop: .badEvent,
                detail: d.push.unknownEvent.map { "aps.event is \($0), not start, update or end" } ?? "aps.event is missing (start, update or end)")
            unmatched.append(Self.event(d, outcome, label: eventName))
        case .start?:
            outcome = startRecorded(d, profile: profile, local: false, label: eventName)
        case .update?, .end?:
            if let i = index(ofToken: d.token) {
                outcome = changeRecorded(i, d, profile: profile, label: eventName)
            } else {
                outcome = LiveActivityOutcome(
                    event: eventName, applied: false, drop: .noActivity,
                    detail:
                        d.token.lowercased() == identity.pushToStart
                        ? "this is the push-to-start token: it starts activities (event start), it does not update them"
                        : "no Live Activity of this app has this push token (it ended and was forgotten, or never asked for a token)")
                unmatched.append(Self.event(d, outcome, label: eventName))
            }
        }
        prune(now: d.now)
        return outcome
    }

    /// `Activity.request` in the app: a local start, with the same checks but no budget.
    public mutating func startLocally(
        type: String, attributes: JSONValue, state: JSONValue, staleDate: Double? = nil, relevance: Double? = nil, wantsToken: Bool = true,
        channel: String? = nil, now: Double, profile: LiveActivityProfile
    ) -> LiveActivityOutcome {
        prune(now: now)
        var aps = JSONObject([
            ("event", .string("start")), ("timestamp", .number(ContentDecoder.shortest(now))), ("attributes-type", .string(type)),
            ("attributes", attributes), ("content-state", state),
        ])
        if let staleDate { aps["stale-date"] = .number(String(staleDate)) }
        if let relevance { aps["relevance-score"] = .number(String(relevance)) }
        if wantsToken { aps["input-push-token"] = 1 }
        if let channel { aps["input-push-channel"] = .string(channel) }
        let d = ActivityDelivery(push: LiveActivityPush(aps: aps), token: identity.pushToStart, priority: 10, now: now)
        return startRecorded(d, profile: profile, local: true, label: "start (app)")
    }

    /// The timeline's entry for `d`, named `label`, and what became of it.
    static func event(_ d: ActivityDelivery, _ o: LiveActivityOutcome, label: String) -> ActivityEvent {
        ActivityEvent(
            at: d.now, apnsID: d.apnsID, event: label, timestamp: d.push.timestamp, priority: d.priority, applied: o.applied, drop: o.drop,
            detail: o.detail, alert: o.applied ? alertSummary(d.push.alert) : nil)
    }

    /// A start, recorded on the new activity's timeline (or among the pushes that reached none);
    /// an activity subscribed to a channel that keeps its latest message gets it then.
    mutating func startRecorded(_ d: ActivityDelivery, profile: LiveActivityProfile, local: Bool, label: String) -> LiveActivityOutcome {
        var outcome = start(d, profile: profile, local: local)
        let entry = Self.event(d, outcome, label: label)
        guard outcome.applied else {
            unmatched.append(entry)
            return outcome
        }
        activities[activities.count - 1].record(entry)
        if let note = joinLate(activities.count - 1, now: d.now, profile: profile) { outcome.notes.append(note) }
        return outcome
    }

    /// An update or an end applied to the activity at `i`: changed, counted against the
    /// priority-10 budget when applied, recorded on its timeline as `label`.
    mutating func changeRecorded(_ i: Int, _ d: ActivityDelivery, profile: LiveActivityProfile, label: String) -> LiveActivityOutcome {
        var outcome = change(&activities[i], d, profile: profile)
        if outcome.applied, d.push.event == .update, d.priority == 10 { priorityPushes.append(d.now) }
        outcome.activityID = activities[i].id
        outcome.activityType = activities[i].type
        activities[i].record(Self.event(d, outcome, label: label))
        return outcome
    }

    /// A start, by push-to-start or by the app.
    mutating func start(_ d: ActivityDelivery, profile: LiveActivityProfile, local: Bool = false) -> LiveActivityOutcome {
        func drop(_ reason: ActivityDrop, _ detail: String) -> LiveActivityOutcome {
            var o = LiveActivityOutcome(event: "start", applied: false, drop: reason, detail: detail)
            o.activityType = d.push.attributesType
            return o
        }
        if !local, d.token.lowercased() != identity.pushToStart {
            return drop(.notPushToStartToken, "a start goes to the app's push-to-start token (pushbox device prints it), not to this token")
        }
        guard let type = d.push.attributesType else { return drop(.missingField, "a start needs aps.attributes-type") }
        guard let attributes = d.push.attributes else { return drop(.missingField, "a start needs aps.attributes") }
        guard let state = d.push.contentState else { return drop(.missingField, "a start needs aps.content-state") }
        if !local, d.push.timestamp == nil { return drop(.missingTimestamp, "a start needs aps.timestamp (UNIX seconds)") }
        if let t = d.push.timestamp, t > d.now + LiveActivity.maxActive {
            return drop(.tooFarAhead, "the timestamp is \(Self.hours(t - d.now)) ahead of the device clock; more than 8 hours ahead is dropped")
        }
        let schema = profile.types[type]
        if !profile.types.isEmpty, schema == nil {
            return drop(
                .unknownType, "the app declares no ActivityAttributes named \(type) (it has \(profile.types.keys.sorted().joined(separator: ", ")))")
        }
        var notes: [String] = []
        let checkedAttributes: JSONValue
        switch check(attributes, schema?.attributes, root: "attributes", dates: schema?.dates ?? .deferredToDate) {
        case .failure(let f): return drop(.attributesDoNotDecode, "the activity does not start (\(f.message))")
        case .success(let (value, note)):
            checkedAttributes = value
            notes += note
        }
        let size = LiveActivityPush.encodedSize(checkedAttributes)
        if size > LiveActivityPush.maxEncodedBytes {
            return drop(.attributesTooLarge, "the attributes are \(size) bytes once encoded; the limit is 4,096 (attributesTooLarge)")
        }
        let checkedState: JSONValue
        switch checkState(state, schema: schema, notes: &notes) {
        case .refused(var out):
            out.event = "start"
            out.activityType = type
            return out
        case .checked(let s): checkedState = s
        }
        let running = activities.filter { [.active, .stale].contains($0.phase(at: d.now)) }.count
        if running >= profile.budget.maxRunning {
            return drop(
                .tooManyActivities,
                "\(running) activities are running; the system allows an app about \(profile.budget.maxRunning) (approximate; liveActivities.budget.maxRunning)"
            )
        }
        if !local {
            if pushToStarts.count >= profile.budget.pushToStartPerHour {
                return drop(
                    .pushToStartBudget,
                    "Push-to-start budget exceeded, not starting activity: \(pushToStarts.count) in the last hour (about \(profile.budget.pushToStartPerHour) allowed; approximate)"
                )
            }
            pushToStarts.append(d.now)
        }
        let identity = newIdentity(token: d.push.inputPushToken)
        var activity = LiveActivity(
            id: identity.id, type: type, attributes: checkedAttributes, state: checkedState, pushToken: identity.token,
            channel: d.push.inputPushChannel, startedAt: d.now, startedBy: local ? "app" : "push-to-start")
        activity.staleDate = d.push.staleDate
        activity.relevance = d.push.relevanceScore ?? 0
        activity.lastTimestamp = d.push.timestamp
        activities.append(activity)
        var detail = "started \(type)" + (identity.token.map { "; its push token is \($0)" } ?? "; it asked for no push token (input-push-token)")
        if let channel = d.push.inputPushChannel { detail += "; subscribed to channel \(channel)" }
        var o = LiveActivityOutcome(event: "start", applied: true, detail: detail)
        o.activityID = identity.id
        o.activityType = type
        o.pushToken = identity.token
        o.state = checkedState
        o.notes = notes + staleNote(d)
        return o
    }

    /// An update or an end for an activity.
    func change(_ a: inout LiveActivity, _ d: ActivityDelivery, profile: LiveActivityProfile) -> LiveActivityOutcome {
        let isEnd = d.push.event == .end
        let name = isEnd ? "end" : "update"
        func drop(_ reason: ActivityDrop, _ detail: String) -> LiveActivityOutcome {
            LiveActivityOutcome(event: name, applied: false, drop: reason, detail: "the activity ignores this \(name): " + detail)
        }
        if let ended = a.end(at: d.now) {
            let by = a.endedAt == nil ? "ended by itself after 8 hours" : "ended"
            return drop(.ended, "it \(by) at \(Self.clock(ended))")
        }
        var notes: [String] = []
        if !isEnd {
            // An end "doesn't care" about order (Apple DTS); an update must be newer and not far ahead.
            guard let t = d.push.timestamp else { return drop(.missingTimestamp, "aps.timestamp is missing") }
            if let last = a.lastTimestamp, t <= last {
                notes.append("pushbox drops a timestamp equal to the last applied one too (whether iOS does is unconfirmed)")
                var o = drop(
                    .notNewer,
                    "its timestamp \(Self.clock(t)) is not newer than the last applied, \(Self.clock(last))\(t == last ? " (equal)" : "")")
                o.notes = notes
                return o
            }
            if t > d.now + LiveActivity.maxActive {
                return drop(.tooFarAhead, "its timestamp is \(Self.hours(t - d.now)) ahead of the device clock; more than 8 hours ahead is dropped")
            }
        }
        let schema = profile.types[a.type]
        var state = a.state
        if let sent = d.push.contentState {
            switch checkState(sent, schema: schema, notes: &notes) {
            case .refused(var out):
                out.event = name
                out.detail = "the activity ignores this \(name): " + out.detail
                return out
            case .checked(let s): state = s
            }
        } else if !isEnd {
            return drop(.missingField, "aps.content-state is missing")
        }
        if !isEnd, d.priority == 10 {
            if priorityPushes.count >= profile.budget.priority10PerHour {
                return drop(
                    .priorityBudget,
                    "priority 10 beyond the budget: \(priorityPushes.count) applied in the last hour (\(profile.budget.priority10PerHour) allowed; approximate, liveActivities.budget.priority10PerHour); send priority 5 for updates that can wait"
                )
            }
        }
        a.state = state
        a.staleDate = d.push.staleDate
        a.relevance = d.push.relevanceScore ?? 0
        if let t = d.push.timestamp { a.lastTimestamp = max(a.lastTimestamp ?? t, t) }
        var detail = isEnd ? "ended" : "updated"
        if isEnd {
            a.endedAt = d.now
            let asked = d.push.dismissalDate
            let dismiss: Double
            if let asked, asked <= d.now {
                dismiss = d.now
                detail += "; dismissed at once (its dismissal-date is past)"
            } else if let asked, asked < d.now + LiveActivity.maxLingering {
                dismiss = asked
                detail += "; on the Lock Screen until \(Self.clock(asked))"
            } else {
                dismiss = d.now + LiveActivity.maxLingering
                detail +=
                    "; on the Lock Screen until \(Self.clock(dismiss))" + (asked == nil ? " (the default: about 4 hours)" : " (at most 4 hours)")
            }
            a.dismissAt = dismiss
        }
        var o = LiveActivityOutcome(event: name, applied: true, detail: detail)
        o.state = state
        o.notes = notes + staleNote(d)
        return o
    }
}
