import Foundation
import PushboxTestSupport
import Testing

/// Drives the built `pushbox` binary as a user would, from a folder outside the project.
@Suite("The pushbox binary")
struct EndToEndTests {
    /// The binary beside the test bundle (`swift test` builds every product into the same folder).
    static var binary: String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("pushbox").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return nil
    }

    func run(_ args: [String], stdin: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let binary = try #require(Self.binary, "the pushbox binary was not built beside the tests")
        var env = ProcessInfo.processInfo.environment
        env["PUSHBOX_SAMPLES"] = nil
        env["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-e2e-cache").path
        let r = try Subprocess.run(
            binary, args, stdin: stdin ?? "", environment: env,
            directory: FileManager.default.temporaryDirectory.path, timeout: 60)
        #expect(!r.timedOut, "pushbox \(args) did not finish within 60 s")
        return (r.status, r.out, r.err)
    }

    @Test("started from another folder, pushbox finds and renders the bundled samples")
    func defaultRun() throws {
        let r = try run([])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("From the Simulator"))
        #expect(r.out.contains("NotTargeted"))
    }

    @Test("validate reads stdin and sets the exit status")
    func validate() throws {
        #expect(try run(["validate", "-"], stdin: #"{"aps":{"alert":"x"}}"#).status == 0)
        let bad = try run(["validate", "--json", "-"], stdin: "[]")
        #expect(bad.status == 1)
        #expect(bad.out.contains(#""reason":"PayloadEmpty""#))
        let usage = try run(["validate", "--nope"])
        #expect(usage.status == 2)
        #expect(usage.err.contains("unknown option --nope"))
    }
}
