import Foundation
import PushboxJSON

/// The `liveActivities` section of `pushbox.json`: the app's attributes types and the budgets.
public struct LiveActivityProfile: Sendable, Equatable {
    /// Each `ActivityAttributes` type by name.
    public var types: [String: ActivityTypeSchema] = [:]
    /// The device's budgets.
    public var budget = ActivityBudget()

    /// Nothing declared: the defaults, no schema.
    public init() {}
}

/// What the device allows an app's Live Activities, none of it documented by Apple: the
/// profile's `liveActivities.budget` changes it.
public struct ActivityBudget: Sendable, Equatable {
    /// Priority-10 updates applied per hour; more are dropped ("the budget is not documented,
    /// and could change": Apple DTS). pushbox's choice.
    public var priority10PerHour = 20
    /// Push-to-start requests per hour ("after around 10 pushes").
    public var pushToStartPerHour = 10
    /// Activities running at once ("typically up to about five"; unconfirmed).
    public var maxRunning = 5

    /// The defaults.
    public init() {}
}

/// What the device did with one Live Activity push: `render --json`'s `liveActivity`, kept
/// with the stored row.
public struct LiveActivityOutcome: Sendable, Equatable {
    /// `start`, `update`, `end`, or what `aps.event` said.
    public var event: String
    /// Whether the device applied it.
    public var applied: Bool
    /// Why not.
    public var drop: ActivityDrop?
    /// What happened, for people.
    public var detail: String
    /// The activity it addressed or started.
    public var activityID: String?
    /// Its attributes type.
    public var activityType: String?
    /// The update token a start produced (`input-push-token`).
    public var pushToken: String?
    /// The content state as decoded (re-encoded as the app's type writes it); nil when not decoded.
    public var state: JSONValue?
    /// What else the trace should say (choices pushbox made where Apple is silent).
    public var notes: [String] = []

    /// An outcome.
    public init(event: String, applied: Bool, drop: ActivityDrop? = nil, detail: String) {
        self.event = event
        self.applied = applied
        self.drop = drop
        self.detail = detail
    }
}

extension LiveActivityOutcome {
    /// `render --json`'s `liveActivity`, and what the stored row keeps.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("event", .string(event)), ("applied", .bool(applied)), ("reason", .optionalString(drop?.rawValue)),
                ("detail", .string(detail)), ("activityId", .optionalString(activityID)), ("activityType", .optionalString(activityType)),
                ("pushToken", .optionalString(pushToken)), ("state", state ?? .null), ("notes", .array(notes.map { .string($0) })),
            ]))
    }

    /// An outcome read back; nil when `json` is not one.
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let event = o["event"]?.stringValue, case .bool(let applied)? = o["applied"] else { return nil }
        self.init(
            event: event, applied: applied, drop: o["reason"]?.stringValue.flatMap(ActivityDrop.init(rawValue:)),
            detail: o["detail"]?.stringValue ?? "")
        activityID = o["activityId"]?.stringValue
        activityType = o["activityType"]?.stringValue
        pushToken = o["pushToken"]?.stringValue
        if let s = o["state"], s != .null { state = s }
        notes = o["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}

/// Why the device did not apply a Live Activity push (or `Activity.request` failed): a stable
/// code for tests, scripts and the UI; the outcome's detail says it for people.
public enum ActivityDrop: String, Sendable, CaseIterable {
    /// No activity of this app has the push token the push was sent to.
    case noActivity = "no-activity"
    /// A `start` sent to a token that is not the app's push-to-start token.
    case notPushToStartToken = "not-push-to-start-token"
    /// `aps.event` missing, or not start, update or end.
    case badEvent = "bad-event"
    /// `aps.timestamp` missing.
    case missingTimestamp = "missing-timestamp"
    /// The timestamp is not newer than the last one applied.
    case notNewer = "not-newer"
    /// The timestamp is more than 8 hours ahead of the device clock.
    case tooFarAhead = "too-far-ahead"
    /// The activity has ended (by an end, or by itself after 8 hours).
    case ended = "activity-ended"
    /// `start` without `attributes-type` or `attributes`, or `start`/`update` without `content-state`.
    case missingField = "missing-field"
    /// `attributes-type` names no `ActivityAttributes` the app declares.
    case unknownType = "unknown-attributes-type"
    /// The content state does not decode into the app's `ContentState`.
    case stateDoesNotDecode = "content-state-does-not-decode"
    /// The attributes do not decode into the app's attributes.
    case attributesDoNotDecode = "attributes-do-not-decode"
    /// The content state is over 4 KB once encoded.
    case stateTooLarge = "content-state-too-large"
    /// The attributes are over 4 KB once encoded (`attributesTooLarge`).
    case attributesTooLarge = "attributes-too-large"
    /// Priority 10 beyond the device's hourly budget.
    case priorityBudget = "priority-budget-exceeded"
    /// Push-to-start beyond its budget ("Push-to-start budget exceeded … not starting activity").
    case pushToStartBudget = "push-to-start-budget-exceeded"
    /// More activities running than the system allows an app.
    case tooManyActivities = "too-many-activities"
}
