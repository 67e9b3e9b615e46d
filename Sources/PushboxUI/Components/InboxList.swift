/// One line of the inbox list.
public enum Row: Sendable, Equatable {
    /// A notification, by index into `items`.
    case item(Int)
    /// A thread (`thread-id`) holding several notifications.
    case thread(id: String, count: Int, collapsed: Bool)
}

extension InboxState {
    /// Whether a notification passes the search and the filter.
    func matches(_ item: InboxItem) -> Bool {
        switch filter {
        case .all: break
        case .rejected: if !item.isRejected { return false }
        case .withWarnings: if renders[item.id]?.warnings.isEmpty ?? true { return false }
        case .app(let app): if item.app != app { return false }
        }
        guard !search.isEmpty else { return true }
        let r = renders[item.id]
        let haystack = [r?.title, r?.subtitle, r?.body, appName, item.sentTitle, item.sentBody, item.reason, item.apnsID, item.threadID]
        return haystack.contains { $0?.localizedCaseInsensitiveContains(search) ?? false }
    }

    /// The list's lines (cached between changes).
    public var rows: [Row] { rowsCache ?? computeRows() }

    /// Fills the cache; `update` calls it after every message.
    mutating func refreshRows() {
        if rowsCache == nil { rowsCache = computeRows() }
    }

    /// The list's lines: notifications newest first, a thread with several members under one
    /// header (its members hidden when collapsed).
    func computeRows() -> [Row] {
        // One pass to group, one to emit, by interned thread number: linear in the inbox's size
        // with no string hashing, and each item read in place (a copy retains all its strings).
        let everything = filter == .all && search.isEmpty
        var visible: [Int] = []
        visible.reserveCapacity(items.count)
        var members = [[Int]](repeating: [], count: ThreadKeys.count + 1)
        items.withUnsafeBufferPointer { buffer in
            for i in buffer.indices where everything || matches(buffer[i]) {
                visible.append(i)
                let key = buffer[i].threadKey
                if key > 0, key < members.count { members[key].append(i) }
            }
        }
        var out: [Row] = []
        out.reserveCapacity(visible.count)
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
            if !collapsed { out += members[key].map { .item($0) } }
        }
        return out
    }

    /// The notification on the selected row, if it is one.
    public var selectedItem: InboxItem? {
        let r = rows
        guard selected >= 0, selected < r.count, case .item(let i) = r[selected] else { return nil }
        return items[i]
    }

    /// Rows the list pane has room for.
    var listHeight: Int { max(1, height - 2) }
}
