import Foundation
import PushboxFuzzTargets
import PushboxTestSupport
import Testing

/// Every input kept for a fuzz target — the hand-written seeds and the inputs that once broke a
/// parser (Tests/Fuzz/regressions/TARGET) — replayed through the same entry points libFuzzer
/// drives in `make fuzz`. A crash here ends the run; a hang fails it at the test's time limit.
@Suite("Fuzz targets replay their kept inputs")
struct FuzzRegressionTests {
    static let root = ProjectPaths.projectRoot + "/Tests/Fuzz"

    @Test("every target replays its seeds and regressions", arguments: FuzzTargets.all.map(\.name))
    func replay(target: String) throws {
        let run = try #require(FuzzTargets.named(target))
        var replayed = 0
        for kind in ["seeds", "regressions"] {
            let dir = "\(Self.root)/\(kind)/\(target)"
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() {
                guard let data = FileManager.default.contents(atPath: dir + "/" + name) else { continue }
                run(Array(data))
                replayed += 1
            }
        }
        // Every target has seeds of its own, or the replay would prove nothing.
        #expect(replayed > 0, "no kept inputs for \(target)")
    }
}
