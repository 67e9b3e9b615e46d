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
        // One pass to group, one to emit: linear in the inbox's size, reading each item in place
        // (copying an item retains all its strings, which dominated with 100,000 of them).
        let everything = filter == .all && search.isEmpty
        var visible: [Int] = []
        var threads: [String?] = []
        visible.reserveCapacity(items.count)
        threads.reserveCapacity(items.count)
        var members: [String: [Int]] = [:]
        items.withUnsafeBufferPointer { buffer in
            for i in buffer.indices where everything || matches(buffer[i]) {
                let thread = buffer[i].threadID
                visible.append(i)
                threads.append(thread)
                if let thread { members[thread, default: []].append(i) }
            }
        }
        var out: [Row] = []
        out.reserveCapacity(visible.count)
        var emitted = Set<String>()
        for (position, i) in visible.enumerated() {
            guard let thread = threads[position], let group = members[thread], group.count > 1 else {
                out.append(.item(i))
                continue
            }
            guard emitted.insert(thread).inserted else { continue }
            let collapsed = collapsedThreads.contains(thread)
            out.append(.thread(id: thread, count: group.count, collapsed: collapsed))
            if !collapsed { out += group.map { .item($0) } }
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
