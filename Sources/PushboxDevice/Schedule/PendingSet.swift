import Foundation
import PushboxJSON
import PushboxPayload

/// A request waiting to fire.
public struct PendingRequest: Sendable, Equatable {
    /// The request.
    public var request: LocalRequest
    /// When it fires next on the device clock.
    public var nextFire: Date
}

/// A request iOS would not schedule, and why (in iOS's words where it has them).
public struct ScheduleRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The dropped request's identifier.
    public var identifier: String
    /// Why it was dropped.
    public var reason: String
    /// `identifier: reason`.
    public var description: String { "\(identifier): \(reason)" }
}

/// The pending local notifications of one app, as iOS keeps them (UNUserNotificationCenter): at
/// most 64, the soonest-firing kept; a new request with a pending identifier replaces it;
/// cancel by identifier or prefix; a repeating trigger is rescheduled after each delivery.
public struct PendingSet: Sendable {
    /// iOS keeps at most 64 pending requests per app; the soonest win.
    public static let limit = 64

    /// The calendar triggers are matched in (the device's zone).
    public var calendar: Calendar
    /// Soonest first.
    public private(set) var pending: [PendingRequest] = []
    /// Requests dropped because more than 64 were pending, with the reason (the latest
    /// `droppedKept`).
    public private(set) var dropped: [ScheduleRefusal] = []
    /// How many were ever dropped: with `dropped` bounded, the only way to tell the new ones.
    public private(set) var droppedTotal = 0

    /// An empty set whose calendar triggers use `calendar`.
    public init(calendar: Calendar) {
        self.calendar = calendar
    }

    /// Requests whose attachment files were checked and resolved, ready for `add(_:now:)`. The
    /// checks read files, so a caller holding a lock does them before taking it.
    public struct CheckedRequests: Sendable {
        /// Requests that passed, with their position in the call.
        var accepted: [(Int, LocalRequest)] = []
        /// Requests refused for their attachments, with their position in the call.
        var refused: [(Int, ScheduleRefusal)] = []
    }

    /// Checks each request's attachment files (relative ones against `baseDirectory`) as iOS
    /// does when a request is added, and rewrites them to absolute paths.
    public static func check(_ requests: [LocalRequest], baseDirectory: String? = nil) -> CheckedRequests {
        var checked = CheckedRequests()
        for (i, var request) in requests.enumerated() {
            if let problem = attachmentProblem(request, baseDirectory: baseDirectory) {
                checked.refused.append((i, ScheduleRefusal(identifier: request.identifier, reason: problem)))
                continue
            }
            // iOS takes the files in when the request is added; the request keeps where they are.
            resolveAttachments(&request, baseDirectory: baseDirectory)
            checked.accepted.append((i, request))
        }
        return checked
    }

    /// Schedules requests at `now`; returns the ones refused (not scheduled), in the order given.
    @discardableResult
    public mutating func add(_ requests: [LocalRequest], now: Date, baseDirectory: String? = nil) -> [ScheduleRefusal] {
        add(Self.check(requests, baseDirectory: baseDirectory), now: now)
    }

    /// Schedules checked requests at `now`; returns the ones refused, in the order given. No file is read.
    @discardableResult
    public mutating func add(_ checked: CheckedRequests, now: Date) -> [ScheduleRefusal] {
        var refused = checked.refused
        for (i, request) in checked.accepted {
            switch firstFire(request.trigger, now: now) {
            case .failure(let reason):
                refused.append((i, ScheduleRefusal(identifier: request.identifier, reason: reason)))
            case .success(let date):
                pending.removeAll { $0.request.identifier == request.identifier }
                pending.append(PendingRequest(request: request, nextFire: date))
            }
        }
        trim()
        return refused.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Cancels `identifier`, or every identifier starting with the prefix before a final `*`;
    /// returns what was cancelled.
    @discardableResult
    public mutating func cancel(_ pattern: String) -> [String] {
        let matches: (String) -> Bool = pattern.hasSuffix("*") ? { $0.hasPrefix(String(pattern.dropLast())) } : { $0 == pattern }
        let gone = pending.filter { matches($0.request.identifier) }.map(\.request.identifier)
        pending.removeAll { matches($0.request.identifier) }
        return gone
    }

    /// Everything due at `now`, soonest first; repeating requests are scheduled again. When the
    /// clock jumped past several fires of a repeating request, it fires once, as a phone that
    /// was off shows a missed repeat once, and goes on from the next fire after `now`.
    public mutating func deliverDue(now: Date) -> [PendingRequest] {
        let due = pending.filter { $0.nextFire <= now }
        pending.removeAll { $0.nextFire <= now }
        for fired in due {
            guard let trigger = fired.request.trigger, trigger.repeats else { continue }
            if let next = nextFire(trigger, after: fired.nextFire, notBefore: now) {
                pending.append(PendingRequest(request: fired.request, nextFire: next))
            }
        }
        trim()
        return due
    }

    /// The first fire after `fired` that is also after `now`.
    func nextFire(_ trigger: Trigger, after fired: Date, notBefore now: Date) -> Date? {
        switch trigger {
        case .timeInterval(let seconds, _):
            guard seconds > 0 else { return nil }
            let skipped = max(0, (now.timeIntervalSince(fired) / seconds).rounded(.down))
            return fired.addingTimeInterval(seconds * (skipped + 1))
        case .dateMatching:
            return nextFire(trigger, after: max(fired, now))
        }
    }

    /// The device moved to another time zone: calendar triggers float (06:10 stays 06:10 on
    /// the wall clock, as a `UNCalendarNotificationTrigger` without a zone does), so their next
    /// fire is found again in the new zone; interval triggers keep their instant.
    public mutating func changeTimeZone(to zone: TimeZone, now: Date) {
        calendar.timeZone = zone
        for i in pending.indices {
            guard case .dateMatching? = pending[i].request.trigger else { continue }
            if case .success(let date) = firstFire(pending[i].request.trigger, now: now) { pending[i].nextFire = date }
        }
        trim()
    }

    /// Keeps the 64 soonest, in order; the rest are dropped with the reason.
    private mutating func trim() {
        pending.sort { ($0.nextFire, $0.request.identifier) < ($1.nextFire, $1.request.identifier) }
        guard pending.count > Self.limit else { return }
        droppedTotal += pending.count - Self.limit
        for extra in pending[Self.limit...] {
            dropped.append(
                ScheduleRefusal(
                    identifier: extra.request.identifier,
                    reason: "more than \(Self.limit) pending requests: iOS keeps the \(Self.limit) that fire soonest"))
        }
        pending.removeLast(pending.count - Self.limit)
        if dropped.count > Self.droppedKept { dropped.removeFirst(dropped.count - Self.droppedKept) }
    }

    /// How many of the latest drops are remembered (a long-running pushbox must not grow).
    public static let droppedKept = 500

    /// The first fire time, or why the request is refused.
    enum FirstFire {
        case success(Date)
        case failure(String)
    }

    func firstFire(_ trigger: Trigger?, now: Date) -> FirstFire {
        switch trigger {
        case nil:
            return .success(now)
        case .timeInterval(let seconds, let repeats)?:
            if seconds <= 0 { return .failure("time interval must be greater than 0") }
            if repeats && seconds < 60 { return .failure("time interval must be at least 60 if repeating") }
            return .success(now.addingTimeInterval(seconds))
        case .dateMatching(let components, _)?:
            guard let date = calendar.nextDate(after: now, matching: components, matchingPolicy: .nextTimePreservingSmallerComponents) else {
                return .failure("no date matches the trigger's date components: it would never fire")
            }
            return .success(date)
        }
    }

    /// The fire after one that just happened.
    func nextFire(_ trigger: Trigger, after fired: Date) -> Date? {
        switch trigger {
        case .timeInterval(let seconds, _): return fired.addingTimeInterval(seconds)
        case .dateMatching(let components, _):
            return calendar.nextDate(after: fired, matching: components, matchingPolicy: .nextTimePreservingSmallerComponents)
        }
    }

    /// An attachment's `file` (or its `url`, as UNNotificationAttachment names it).
    public static func attachmentFile(_ attachment: JSONValue) -> String? {
        attachment.objectValue?["file"]?.stringValue ?? attachment.objectValue?["url"]?.stringValue
    }

    /// The absolute path of an attachment's `file` (or `file://` URL), relative ones from `base`.
    public static func attachmentPath(_ file: String, baseDirectory: String?) -> String {
        var path = file.hasPrefix("file://") ? (URL(string: file)?.path ?? file) : file
        if !path.hasPrefix("/"), let base = baseDirectory { path = (base as NSString).appendingPathComponent(path) }
        return (path as NSString).standardizingPath
    }

    /// Rewrites each attachment's `file` to its absolute path, so delivery finds it wherever
    /// pushbox runs.
    static func resolveAttachments(_ request: inout LocalRequest, baseDirectory: String?) {
        guard let list = request.content["attachments"]?.arrayValue else { return }
        request.content["attachments"] = .array(
            list.map { a in
                guard var o = a.objectValue, let file = attachmentFile(a) else { return a }
                o["file"] = .string(attachmentPath(file, baseDirectory: baseDirectory))
                o["url"] = nil
                return .object(o)
            })
    }

    /// A local request with an attachment iOS cannot use is not scheduled at all.
    static func attachmentProblem(_ request: LocalRequest, baseDirectory: String?) -> String? {
        guard let list = request.content["attachments"] else { return nil }
        guard let attachments = list.arrayValue else { return "content.attachments must be an array" }
        for (i, a) in attachments.enumerated() {
            guard let file = attachmentFile(a) else {
                return "content.attachments[\(i)]: needs a file"
            }
            let path = attachmentPath(file, baseDirectory: baseDirectory)
            // The first 512 bytes tell the type and the size is the file's: nothing more is read.
            guard let handle = FileHandle(forReadingAtPath: path), let size = try? handle.seekToEnd() else {
                return "invalid attachment file URL: \(file) does not exist (the request is not scheduled)"
            }
            try? handle.seek(toOffset: 0)
            let head = (try? handle.read(upToCount: 512)) ?? Data()
            try? handle.close()
            guard let type = MediaType.sniff(Array(head)) else {
                return "unrecognized attachment file type: \(file) (the request is not scheduled)"
            }
            if size > UInt64(MediaType.cap(for: type.kind)) {
                return "invalid attachment file size: \(file) is \(size) bytes, over the \(type.kind.rawValue) cap (the request is not scheduled)"
            }
        }
        return nil
    }
}
