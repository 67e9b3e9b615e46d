import Foundation

/// A unified diff of two texts, line by line (a longest common subsequence), with three lines of
/// context, as `diff -u` prints it.
enum UnifiedDiff {
    static func make(_ old: String, _ new: String, from: String, to: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // LCS table from the end.
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Op {
            case same(String)
            case del(String)
            case add(String)
        }
        var ops: [(Op, Int, Int)] = []  // with the old and new line numbers (1-based) before the op
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                ops.append((.same(a[i]), i, j))
                i += 1
                j += 1
            } else if j < b.count, i == a.count || lcs[i][j + 1] > lcs[i + 1][j] {
                ops.append((.add(b[j]), i, j))
                j += 1
            } else {
                ops.append((.del(a[i]), i, j))
                i += 1
            }
        }
        var out = ["--- \(from)", "+++ \(to)"]
        var k = 0
        while k < ops.count {
            guard case .same = ops[k].0 else {
                let start = max(0, k - 3)
                var end = k
                var quiet = 0
                while end < ops.count {
                    if case .same = ops[end].0 { quiet += 1 } else { quiet = 0 }
                    if quiet > 6 { break }
                    end += 1
                }
                end = min(ops.count, end - max(0, quiet - 3))
                let hunk = ops[start..<end]
                let oldCount = hunk.filter { if case .add = $0.0 { return false } else { return true } }.count
                let newCount = hunk.filter { if case .del = $0.0 { return false } else { return true } }.count
                out.append("@@ -\(hunk.first!.1 + 1),\(oldCount) +\(hunk.first!.2 + 1),\(newCount) @@")
                for (op, _, _) in hunk {
                    switch op {
                    case .same(let s): out.append(" " + s)
                    case .del(let s): out.append("-" + s)
                    case .add(let s): out.append("+" + s)
                    }
                }
                k = end
                continue
            }
            k += 1
        }
        return out.joined(separator: "\n")
    }
}

/// A JUnit XML report, one test case per golden file, as CI systems show it.
enum JUnitReport {
    static func xml(_ cases: [(name: String, failure: String?)]) -> String {
        func escape(_ s: String) -> String {
            var out = ""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "\n", "\t": out.unicodeScalars.append(scalar)
                case _ where scalar.value < 0x20: out += "&#xFFFD;"
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        let failures = cases.filter { $0.failure != nil }.count
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#, "<testsuites>",
            #"  <testsuite name="pushbox snapshot" tests="\#(cases.count)" failures="\#(failures)">"#,
        ]
        for c in cases {
            if let failure = c.failure {
                lines.append(#"    <testcase classname="pushbox.snapshot" name="\#(escape(c.name))">"#)
                lines.append(#"      <failure message="golden differs">\#(escape(failure))</failure>"#)
                lines.append("    </testcase>")
            } else {
                lines.append(#"    <testcase classname="pushbox.snapshot" name="\#(escape(c.name))"/>"#)
            }
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }
}
