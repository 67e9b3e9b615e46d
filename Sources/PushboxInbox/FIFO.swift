/// A first-in first-out queue that takes from its front by moving an index (removing the front
/// of an array moves all the rest, and a burst leaves tens of thousands waiting).
struct FIFO<Element> {
    private var entries: [Element] = []
    private var head = 0
    /// How many wait.
    var count: Int { entries.count - head }
    mutating func append(_ entry: Element) { entries.append(entry) }

    /// Takes up to the first `n` away.
    mutating func takeFirst(_ n: Int) -> [Element] {
        let taken = Array(entries[head..<min(head + n, entries.count)])
        head += taken.count
        compact()
        return taken
    }

    /// Takes the first away, if any.
    mutating func popFirst() -> Element? {
        guard head < entries.count else { return nil }
        let first = entries[head]
        head += 1
        compact()
        return first
    }

    /// Drops the taken storage once most of it is taken.
    private mutating func compact() {
        if head == entries.count {
            entries.removeAll(keepingCapacity: entries.count <= 4096)
            head = 0
        } else if head >= 4096 && head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
