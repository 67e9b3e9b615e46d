import Foundation
import PushboxDevice
import PushboxPayload

/// One line of the inbox list.
public enum Row: Sendable, Equatable {
    /// A notification, by index into `items`.
    case item(Int)
    /// A thread (`thread-id`) holding several notifications; collapsed, its newest stays in
    /// the list under it, as iOS's stack shows its newest card.
    case thread(id: String, count: Int, collapsed: Bool)
    /// The scheduled summary at `at` (`18:00`, coming at `due`): the notifications held for it,
    /// the most relevant first.
    case summary(at: String, due: Date?, count: Int, collapsed: Bool)

    /// The key a collapsed group is kept under (a thread's id, a summary's time).
    var groupKey: String? {
        switch self {
        case .item: nil
        case .thread(let id, _, _): id
        case .summary(let at, let due, _, _): Self.summaryKey(at: at, due: due)
        }
    }

    /// The key of the summary at `at`, coming at `due` (never a `thread-id`: it starts with NUL).
    static func summaryKey(at: String, due: Date?) -> String { "\u{0}summary \(at) \(due.map { Int($0.timeIntervalSince1970) } ?? 0)" }
}

/// Which notifications the list shows.
public enum Filter: Sendable, Hashable {
    case all, rejected, withWarnings
    /// Notifications sent to one app (by topic).
    case app(String)

    /// How the footer names the filter.
    var label: String {
        switch self {
        case .all: return "all"
        case .rejected: return "rejected"
        case .withWarnings: return "with warnings"
        case .app(let a): return "app \(a)"
        }
    }
}

/// The list component: the notifications, which of them show (search, filter, collapsed
/// threads), how they group into threads, and where the selection and the scroll stand.
public struct InboxList: Sendable {
    /// Newest first. The observer does not read the old value, so Swift changes the array in
    /// place (SE-0268) instead of copying it on every insert.
    public var items: [InboxItem] = [] { didSet { itemsVersion &+= 1 } }
    /// Counts changes to `items`, for the rows cache's key.
    private(set) var itemsVersion = 0
    /// The pretty-printed payloads loaded for the raw view, by id (kept apart from `items`, whose
    /// rows do not depend on them).
    private(set) var rawTexts: [Int64: String] = [:]
    /// What the rows depend on: when it is unchanged, so are they.
    struct RowsKey: Equatable {
        var items: Int
        var filter: Filter
        var search: String
        var collapsed: Set<String>
        var device: String?
        /// The renderings' version, when the filter or the search reads renderings.
        var renders: Int?
    }
    /// The rows and the key they were computed for (an inbox may hold 100,000 notifications),
    /// with how many notifications each thread holds (by interned key), counted in the same pass.
    var rowsCache: (key: RowsKey, rows: [Row], threadSizes: [Int])?
    /// The selected row.
    public var selected = 0
    /// The first row on screen.
    public var top = 0
    /// What the search box holds; empty shows everything.
    public var search = ""
    /// All, rejected, with warnings, or one app.
    public var filter: Filter = .all
    /// Threads shown as their header only.
    public var collapsedThreads: Set<String> = []
    /// The device of the fleet whose notifications show (nil: every row, as an inbox with one device has).
    public var device: String?
    /// The platform of each added device of the fleet, by name (`platform:` in a search).
    public var platforms: [String: String] = [:]

    /// The key of the rows for these renderings.
    func rowsKey(rendersVersion: Int) -> RowsKey {
        RowsKey(
            items: itemsVersion, filter: filter, search: search, collapsed: collapsedThreads, device: device,
            renders: filter == .withWarnings || !search.isEmpty ? rendersVersion : nil)
    }

    /// A list of these notifications, newest first, with the first selected.
    public init(items: [InboxItem] = []) { self.items = items }

    /// Replaces the whole list (the first page loaded), selecting the newest.
    mutating func load(_ list: [InboxItem]) {
        items = list
        selected = 0
        top = 0
    }

    /// The whole list read again after another process changed the inbox: the selection stays
    /// on its notification while it is still there, else on the row at its place.
    mutating func reload(_ list: [InboxItem]) {
        let selectedID = selected < items.count ? items[selected].id : nil
        items = list
        if let selectedID {
            selected = items.firstIndex { $0.id == selectedID } ?? items.firstIndex { $0.id < selectedID } ?? max(0, items.count - 1)
        }
    }

    /// Older notifications, after the first page.
    mutating func appendOlder(_ list: [InboxItem]) {
        items += list
    }

    /// New arrivals, oldest first: on top of the list; the selection stays on its notification
    /// unless it was on the newest.
    mutating func insertNew(_ list: [InboxItem]) {
        // An arrival may also be in the first page, read while it was being published (a file
        // already in a watched folder at start): it is listed once.
        let known = Set(items.prefix(4096).map(\.id))
        let fresh = list.filter { !known.contains($0.id) }
        if selected != 0 { selected += fresh.count }
        items.insert(contentsOf: fresh.reversed(), at: 0)
    }

    /// Takes notification `id` out of the list.
    mutating func remove(id: Int64) {
        items.removeAll { $0.id == id }
    }

    /// Puts a deleted notification back where it was (the list is newest first, by id).
    mutating func restore(_ item: InboxItem) {
        let at = items.firstIndex { $0.id < item.id } ?? items.count
        items.insert(item, at: at)
    }

    /// Where notifications now stand in delivery (the device came back online, or a newer one
    /// replaced a stored one).
    mutating func setDeliveries(_ changed: [Int64: DeliveryRecord]) {
        guard !changed.isEmpty else { return }
        for i in items.indices {
            if let record = changed[items[i].id], items[i].delivery != record { items[i].delivery = record }
        }
    }

    /// The notifications the push service still keeps for the device.
    var storedIDs: [Int64] { items.filter { $0.delivery?.state == .stored }.map(\.id) }

    /// Keeps the pretty-printed payload of notification `id` for the raw view, apart from the
    /// items: a payload is loaded whenever the selection moves, and the rows do not depend on it.
    mutating func setRawText(_ text: String, id: Int64) {
        rawTexts[id] = text
    }

    /// The pretty-printed payload of an item: the one it arrived with, or the one loaded since.
    public func rawText(of item: InboxItem) -> String { rawTexts[item.id] ?? item.rawText }

    /// Typing into the search box: the list filters as it changes. Returns whether the box stays open.
    mutating func editSearch(_ key: Key) -> Bool {
        selected = 0
        top = 0
        switch key {
        case .escape:
            search = ""
            return false
        case .enter: return false
        case .backspace: if !search.isEmpty { search.removeLast() }
        case .char(let c): search.append(c)
        default: break
        }
        return true
    }

    /// all → rejected → with warnings → each app, when notifications went to several.
    mutating func cycleFilter() {
        var apps: [String] = []
        var seen = Set<String>()
        for item in items { if let a = item.app, seen.insert(a).inserted { apps.append(a) } }
        let appFilters = apps.count > 1 ? apps.sorted().map { Filter.app($0) } : []
        let cycle: [Filter] = [.all, .rejected, .withWarnings] + appFilters
        filter = cycle[((cycle.firstIndex(of: filter) ?? 0) + 1) % cycle.count]
        selected = 0
    }

    /// Collapses or expands the selected row's thread, keeping the selection on its header.
    mutating func toggleSelectedThread(renders: [Int64: RenderedNotification], rendersVersion: Int, appName: String) {
        let r = rows(renders: renders, rendersVersion: rendersVersion, appName: appName)
        guard selected < r.count else { return }
        let group: String?
        switch r[selected] {
        case .item(let i):
            // A held notification belongs to its summary's group, another to its thread.
            group = items[i].heldFor?.key ?? items[i].threadID
        case let header: group = header.groupKey
        }
        guard let group else { return }
        if collapsedThreads.remove(group) == nil { collapsedThreads.insert(group) }
        let after = computeRows(renders: renders, appName: appName).rows
        selected = after.firstIndex { $0.groupKey == group } ?? selected
    }

    /// Keeps the selection on one of `count` rows and the list scrolled to it, `visible` rows high.
    mutating func clamp(rowCount count: Int, visible: Int) {
        selected = max(0, min(selected, count - 1))
        if selected < top { top = selected }
        if selected >= top + visible { top = selected - visible + 1 }
        top = max(0, min(top, max(0, count - visible)))
    }

    /// Whether a notification passes the search and the filter; the rendering gives the text
    /// searched and the warnings filtered on.
    /// `query`: the search read in the query language (nil: it is none yet, as while a field is
    /// typed, and is looked for as one phrase).
    func matches(_ item: InboxItem, _ rendered: RenderedNotification?, appName: String, query: NotificationQuery? = nil) -> Bool {
        if let device, (item.verdict.device ?? FleetDevice.defaultName) != device { return false }
        switch filter {
        case .all: break
        // Rejected: refused, or valid but not shown (not for this device, discarded while offline), as × marks them.
        case .rejected:
            let discarded = item.delivery.map { !$0.state.reachedDevice && $0.state != .stored } ?? false
            if !item.isRejected && rendered?.delivered != .rejected && !discarded { return false }
        case .withWarnings: if rendered?.warnings.isEmpty ?? true { return false }
        case .app(let app): if item.app != app { return false }
        }
        guard !search.isEmpty else { return true }
        // What the card and the row show, and the payload itself (custom keys and values).
        let labels: [String?] = [
            item.kind == .background ? "background event" : nil, item.kind == .local ? "local notification" : nil,
            rendered?.delivered == .rejected ? "not for this device" : nil, item.delivery?.state.phrase, rendered?.addressedTo,
        ]
        let haystack =
            [
                rendered?.title, rendered?.subtitle, rendered?.body, appName, item.sentTitle, item.sentBody, item.reason, item.apnsID, item.threadID,
                rendered?.sound, item.deviceToken, rawText(of: item), item.payloadText,
            ] + labels
        func found(_ word: String) -> Bool { haystack.contains { $0?.localizedCaseInsensitiveContains(word) ?? false } }
        // Field terms as the API and list --query read them; free words anywhere the row or its payload says them.
        guard let query, !query.isEmpty else { return found(search) }
        return query.matches(subject(item, rendered), word: found)
    }

    /// A notification of the list as the query language sees it.
    func subject(_ item: InboxItem, _ r: RenderedNotification?) -> QuerySubject {
        let delivery = QuerySubject.delivery(status: item.status, notTargeted: r?.delivered == .rejected, state: item.delivery?.state)
        let device = item.verdict.device ?? FleetDevice.defaultName
        var s = QuerySubject(device: device, platform: platforms[device] ?? "ios", delivery: delivery, source: item.source, time: item.receivedAt)
        s.title = r?.title ?? item.sentTitle
        s.subtitle = r?.subtitle
        s.body = r?.body ?? item.sentBody
        s.topic = item.verdict.topic
        s.token = item.deviceToken
        s.language = r?.language
        s.category = r?.category
        s.thread = item.threadID
        s.collapse = item.verdict.collapseID
        s.status = item.status
        s.reason = item.reason
        s.pushType = r?.liveActivity != nil ? "liveactivity" : item.kind == .background ? "background" : "alert"
        s.hasAttachment = !(r?.attachments.isEmpty ?? true)
        s.hasWarning = !(r?.warnings.isEmpty ?? true)
        return s
    }

    /// The list's lines: the cache when its key is current, or computed now.
    func rows(renders: [Int64: RenderedNotification], rendersVersion: Int, appName: String) -> [Row] {
        if let cache = rowsCache, cache.key == rowsKey(rendersVersion: rendersVersion) { return cache.rows }
        return computeRows(renders: renders, appName: appName).rows
    }

    /// How many notifications `item`'s thread holds, whatever the list shows (1 without a
    /// thread): from the rows' pass while it is current, else counted now.
    func threadSize(of item: InboxItem) -> Int {
        let key = item.threadKey
        guard key > 0 else { return 1 }
        if let cache = rowsCache, cache.key.items == itemsVersion, key < cache.threadSizes.count { return cache.threadSizes[key] }
        return items.reduce(0) { $0 + ($1.threadKey == key ? 1 : 0) }
    }

    /// How many times the rows were computed into the cache (the tests watch it).
    private(set) var rowComputations = 0

    /// Computes the rows again when what they depend on changed; `InboxState.update` calls it
    /// after every message.
    mutating func refreshRows(renders: [Int64: RenderedNotification], rendersVersion: Int, appName: String) {
        let key = rowsKey(rendersVersion: rendersVersion)
        guard rowsCache?.key != key else { return }
        let computed = computeRows(renders: renders, appName: appName)
        rowsCache = (key, computed.rows, computed.threadSizes)
        rowComputations += 1
    }

    /// The list's lines: the scheduled summaries first (their notifications by relevance), then
    /// notifications newest first, a thread with several members under one header (only its
    /// newest when collapsed). `threadSizes`: each thread's notifications, shown or not.
    func computeRows(renders: [Int64: RenderedNotification], appName: String) -> (rows: [Row], threadSizes: [Int]) {
        // One pass to group, one to emit, by interned thread number: linear in the inbox's size
        // with no string hashing, and each item read in place (a copy retains all its strings).
        let everything = filter == .all && search.isEmpty && device == nil
        // Read once for the whole list.
        let query = search.isEmpty ? nil : try? NotificationQuery(search)
        var visible: [Int] = []
        visible.reserveCapacity(items.count)
        var members = [[Int]](repeating: [], count: ThreadKeys.count + 1)
        var sizes = [Int](repeating: 0, count: members.count)
        var held: [Int] = []
        items.withUnsafeBufferPointer { buffer in
            for i in buffer.indices {
                let key = buffer[i].threadKey
                if key > 0, key < sizes.count { sizes[key] += 1 }
                guard everything || matches(buffer[i], renders[buffer[i].id], appName: appName, query: query) else { continue }
                if buffer[i].isHeld {
                    held.append(i)
                    continue
                }
                visible.append(i)
                if key > 0, key < members.count { members[key].append(i) }
            }
        }
        var out: [Row] = []
        out.reserveCapacity(visible.count + held.count)
        if !held.isEmpty { out += summaryRows(held) }
        var emitted = [Bool](repeating: false, count: members.count)
        for i in visible {
            let key = items[i].threadKey
            guard key > 0, key < members.count, members[key].count > 1, let thread = items[i].threadID else {
                out.append(.item(i))
                continue
            }
            if emitted[key] { continue }
            emitted[key] = true
            let collapsed = collapsedThreads.contains(thread)
            out.append(.thread(id: thread, count: members[key].count, collapsed: collapsed))
            out += (collapsed ? members[key].prefix(1) : members[key][...]).map { .item($0) }
        }
        return (out, sizes)
    }

    /// The scheduled summaries holding `held` (indices, newest first): the latest summary
    /// first, each with its notifications by `relevance-score` (the highest featured; none
    /// counts as 0, ties newest first).
    func summaryRows(_ held: [Int]) -> [Row] {
        var groups: [String: (at: String, due: Date?, members: [Int])] = [:]
        for i in held {
            guard let summary = items[i].heldFor else { continue }
            groups[summary.key, default: (summary.at, summary.due, [])].members.append(i)
        }
        var out: [Row] = []
        let ordered = groups.sorted { ($0.value.due ?? .distantPast, $0.key) > ($1.value.due ?? .distantPast, $1.key) }
        for (key, group) in ordered {
            let collapsed = collapsedThreads.contains(key)
            out.append(.summary(at: group.at, due: group.due, count: group.members.count, collapsed: collapsed))
            if collapsed { continue }
            let byRelevance = group.members.enumerated().sorted { a, b in
                let (x, y) = (items[a.element].verdict.presentation?.relevance ?? 0, items[b.element].verdict.presentation?.relevance ?? 0)
                return x != y ? x > y : a.offset < b.offset
            }
            out += byRelevance.map { .item($0.element) }
        }
        return out
    }
}

extension InboxItem {
    /// Held for the scheduled summary when it arrived.
    var isHeld: Bool { verdict.presentation?.outcome == .summary }

    /// The scheduled summary that holds it: its group's key, its time (`18:00`) and the moment it
    /// comes; nil when it is not held.
    var heldFor: (key: String, at: String, due: Date?)? {
        guard let p = verdict.presentation, p.outcome == .summary else { return nil }
        let at = p.summaryAt ?? "?"
        return (Row.summaryKey(at: at, due: p.summaryDue), at, p.summaryDue)
    }
}
