import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxLocalization

/// pushbox's readers against Foundation's PropertyListSerialization, the oracle (tests only).
@Suite("Corpus conformance", .enabled(if: ProjectPaths.corpusExists, "../shared/corpus is absent: conformance tests skipped"))
struct ConformanceTests {
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
                if !PlistOracle.equal(.dict(ours.dict), theirs) { mismatches.append(path) }
            } catch {
                mismatches.append("\(error)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ: \(mismatches.prefix(5))")
    }
}
