/// The known word a mistyped one was most likely meant as (`--lnag` → `--lang`, `rendr` →
/// `render`): the nearest by optimal string alignment distance (an insertion, deletion,
/// substitution or swap of two neighbours each count one), within two edits and a third of the
/// word, so a wild guess is never offered.
enum Spelling {
    /// The nearest of `known` to `word`, or nil when none is near enough; ties go to the first.
    static func nearest(_ word: String, among known: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (word: String, distance: Int)?
        for candidate in known {
            let d = distance(typed, Array(candidate.lowercased()))
            if d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        guard let best, best.word != word, best.distance <= min(2, max(1, typed.count / 3)) else { return nil }
        return best.word
    }

    /// "; did you mean X?" for the nearest of `known`, or nothing.
    static func suggestion(_ word: String, among known: [String]) -> String {
        nearest(word, among: known).map { "; did you mean \($0)?" } ?? ""
    }

    /// Optimal string alignment distance between `a` and `b`.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
