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

    /// The list's lines: notifications newest first, a thread with several members under one
    /// header (its members hidden when collapsed).
    public var rows: [Row] {
        let visible = items.indices.filter { matches(items[$0]) }
        var counts: [String: Int] = [:]
        for i in visible { if let t = items[i].threadID { counts[t, default: 0] += 1 } }
        var out: [Row] = []
        var emitted = Set<String>()
        for i in visible {
            guard let thread = items[i].threadID, let n = counts[thread], n > 1 else {
                out.append(.item(i))
                continue
            }
            guard emitted.insert(thread).inserted else { continue }
            let collapsed = collapsedThreads.contains(thread)
            out.append(.thread(id: thread, count: n, collapsed: collapsed))
            if !collapsed {
                out += visible.filter { items[$0].threadID == thread }.map { .item($0) }
            }
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
