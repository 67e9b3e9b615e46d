import Foundation
import PushboxTestSupport
import Testing

/// docs/benchmarks.md's figures are written by the benchmarks (`make bench-markdown`), between
/// markers, never typed: the blocks are there, filled in the form the benchmarks write.
@Suite("The benchmark page's blocks")
struct BenchReportTests {
    @Test("a block's body is replaced between its markers and nothing else changes; a missing block is an error")
    func splice() throws {
        let text = ["intro", BenchReport.begin("h2"), "old 1", "old 2", BenchReport.end("h2"), "after", ""].joined(separator: "\n")
        let spliced = try #require(BenchReport.splice(text, name: "h2", body: "new\n"))
        #expect(spliced == ["intro", BenchReport.begin("h2"), "new", BenchReport.end("h2"), "after", ""].joined(separator: "\n"))
        #expect(BenchReport.block(spliced, name: "h2") == "new")
        #expect(BenchReport.splice(text, name: "intake", body: "x") == nil)
        #expect(BenchReport.splice(BenchReport.end("h2") + "\n" + BenchReport.begin("h2"), name: "h2", body: "x") == nil)
    }

    @Test("figures are written whole, with thousands separated; a median of an even count is the middle pair's mean")
    func numbers() {
        #expect(BenchReport.whole(17483.4) == "17,483")
        #expect(BenchReport.whole(999.5) == "1,000")
        #expect(BenchReport.whole(1_234_567) == "1,234,567")
        #expect(BenchReport.median([3, 1, 2]) == 2)
        #expect(BenchReport.median([4, 1, 3, 2]) == 2.5)
        #expect(BenchReport.table(["a", "b"], [["1", "2"]]) == "| a | b |\n| --- | --- |\n| 1 | 2 |")
    }

    @Test("docs/benchmarks.md holds every block, each filled by its benchmark: the command and day, then its table")
    func readmeBlocks() throws {
        let readme = try String(contentsOfFile: ProjectPaths.projectRoot + "/" + BenchReport.page, encoding: .utf8)
        for (name, header) in BenchReport.blocks {
            let body = try #require(BenchReport.block(readme, name: name), "\(BenchReport.page) has no \(name) block")
            let lines = body.components(separatedBy: "\n")
            #expect(lines.first?.hasPrefix("`pushbox-bench \(name) ") == true, "the \(name) block does not start with its command")
            let table = BenchReport.table(header, []).components(separatedBy: "\n")
            #expect(lines.contains(table[0]) && lines.contains(table[1]), "the \(name) block has no table as the benchmark writes it")
        }
    }
}
