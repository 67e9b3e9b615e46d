import Foundation
import PushboxJSON
import PushboxPayload

/// The Live Activities of the device's app, with the budgets they draw on: what the
/// simulated device keeps (`inbox.activities.json` beside the inbox).
public struct ActivityBook: Sendable, Equatable {
    /// Every activity, oldest first (the latest `activitiesKept`).
    public var activities: [LiveActivity] = []
    /// Pushes that reached no activity (the latest `unmatchedKept`).
    public var unmatched: [ActivityEvent] = []
    /// When priority-10 updates were applied, within the last hour.
    public var priorityPushes: [Double] = []
    /// When push-to-start requests were taken, within the last hour.
    public var pushToStarts: [Double] = []
    /// Activities made so far (numbers their ids and tokens).
    public var made = 0
    /// The app's broadcast channels (iOS 18).
    public var channels: [BroadcastChannel] = []
    /// Channels made so far (numbers their ids).
    public var madeChannels = 0

    /// The app's push-to-start token (`Activity<Attributes>.pushToStartToken`): one for every
    /// attributes type, as developers observed. The default device's; another device of the
    /// fleet has its own (`FleetDevice.pushToStartToken`).
    public static let pushToStartToken = "5747a270" + String(repeating: "00", count: 27) + "01"
    /// How the default device's activity push tokens begin.
    public static let tokenPrefix = "ac71a1e5"

    /// The tokens of the device this book is: its push-to-start token, how its activities'
    /// push tokens begin, and its APNs device token (a push sent to it addresses no activity).
    public var identity = Identity()

    /// A device's Live Activity tokens.
    public struct Identity: Sendable, Equatable {
        /// Its app's push-to-start token.
        public var pushToStart = ActivityBook.pushToStartToken
        /// The first 8 hex digits of each activity's push token.
        public var tokenPrefix = ActivityBook.tokenPrefix
        /// Its APNs device token.
        public var deviceToken = DeviceIdentity.apnsToken
        /// The default device's.
        public init() {}
        /// Another device's.
        public init(pushToStart: String, tokenPrefix: String, deviceToken: String) {
            self.pushToStart = pushToStart
            self.tokenPrefix = tokenPrefix
            self.deviceToken = deviceToken
        }
    }

    static let activitiesKept = 50
    static let unmatchedKept = 50

    /// An empty book.
    public init() {}

    /// The activity addressed by `token`, by index.
    func index(ofToken token: String) -> Int? {
        activities.lastIndex { $0.pushToken?.lowercased() == token.lowercased() }
    }

    /// The token a push sent to no device token (a file, a watched folder, `render` without
    /// `--token`) is taken to address: a start the push-to-start token, an update or end the
    /// latest running activity's.
    public func impliedToken(for event: LiveActivityPush.Event?, now: Double) -> String {
        if event == .start { return identity.pushToStart }
        return activities.last { $0.pushToken != nil && $0.end(at: now) == nil }?.pushToken ?? ""
    }

    /// The token a push sent to `token` addresses, and a note when pushbox chose it: none, or
    /// the device's own APNs token (what `pushbox send` uses), address `impliedToken`.
    public func address(_ token: String?, event: LiveActivityPush.Event?, now: Double) -> (token: String, note: String?) {
        guard let token, !token.isEmpty, token.lowercased() != identity.deviceToken else {
            let implied = impliedToken(for: event, now: now)
            let what = event == .start ? "the push-to-start token" : "the latest running activity's token"
            return (
                implied,
                "sent to \(token == nil || token!.isEmpty ? "no device token" : "the device's APNs token"): pushbox addresses \(what) (on a device, send it to that token)"
            )
        }
        return (token, nil)
    }

    /// The activities still shown at `now`, in the order the system ranks them: highest
    /// relevance first, ties to the one started first. The first running one is the Dynamic
    /// Island's.
    public func ranked(at now: Double) -> [LiveActivity] {
        activities.filter { $0.phase(at: now) != .dismissed }.sorted {
            $0.relevance != $1.relevance ? $0.relevance > $1.relevance : $0.startedAt < $1.startedAt
        }
    }

    /// The running activities in Dynamic Island order.
    public func island(at now: Double) -> [LiveActivity] {
        ranked(at: now).filter { [.active, .stale].contains($0.phase(at: now)) }
    }

    /// A new activity's id and (when asked) push token.
    mutating func newIdentity(token: Bool) -> (id: String, token: String?) {
        made += 1
        let n = String(made, radix: 16)
        let id = "A7C71000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - n.count)) + n.uppercased()
        return (id, token ? identity.tokenPrefix + String(repeating: "0", count: max(0, 56 - n.count)) + n : nil)
    }

    /// Forgets the oldest activities and unmatched pushes beyond what is kept, and budget
    /// entries older than an hour.
    mutating func prune(now: Double) {
        if activities.count > Self.activitiesKept { activities.removeFirst(activities.count - Self.activitiesKept) }
        if unmatched.count > Self.unmatchedKept { unmatched.removeFirst(unmatched.count - Self.unmatchedKept) }
        priorityPushes.removeAll { $0 <= now - 3600 }
        pushToStarts.removeAll { $0 <= now - 3600 }
    }
}
