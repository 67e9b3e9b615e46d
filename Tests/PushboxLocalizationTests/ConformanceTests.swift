import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxLocalization

/// pushbox's readers against Foundation's PropertyListSerialization, the oracle (tests only).
@Suite("Corpus conformance", .enabled(if: ProjectPaths.corpusExists, "../shared/corpus is absent: conformance tests skipped"))
struct ConformanceTests {
    static func equal(_ ours: PlistValue, _ theirs: Any) -> Bool {
        switch ours {
        case .string(let s): return (theirs as? String) == s
        case .integer(let i): return (theirs as? NSNumber)?.int64Value == i
        case .real(let r): return (theirs as? NSNumber)?.doubleValue == r
        case .bool(let b): return (theirs as? NSNumber)?.boolValue == b
        case .date: return theirs is Date
        case .data(let d): return (theirs as? Data).map(Array.init) == d
        case .array(let a):
            guard let t = theirs as? [Any], t.count == a.count else { return false }
            return zip(a, t).allSatisfy { equal($0, $1) }
        case .dict(let d):
            guard let t = theirs as? [String: Any], t.count == d.count else { return false }
            return d.allSatisfy { k, v in t[k].map { equal(v, $0) } ?? false }
        }
    }

    @Test("every .strings and .stringsdict file reads to what PropertyListSerialization gives")
    func corpusFiles() throws {
        let files = ProjectPaths.corpusFiles(["strings", "stringsdict"])
        #expect(files.count > 700)
        var mismatches: [String] = []
        for path in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let theirs = try PropertyListSerialization.propertyList(from: data, format: nil)
            do {
                let ours = try StringsFileReader.readPlist(Array(data), file: path)
                if !Self.equal(.dict(ours.dict), theirs) { mismatches.append(path) }
            } catch {
                mismatches.append("\(error)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ: \(mismatches.prefix(5))")
    }
}
