import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxLocalization

/// `java.util.Formatter` with string arguments — what an Android app does with an FCM
/// message's loc args — against OpenJDK's own `String.format` (Debian's JDK runs the oracle
/// from source).
@Suite(
    "java.util.Formatter against OpenJDK",
    .enabled(if: Tools.javaRunningSource != nil, "needs java with jdk.compiler (a JDK) to run the OpenJDK oracle"))
struct JavaFormatOracleTests {
    /// Formats with string arguments: what succeeds, and every way Java refuses.
    static let cases: [(String, String, [String])] = [
        ("en", "%s", ["Ana"]), ("en", "%1$s and %2$s", ["Ana", "Bo"]), ("en", "%2$s before %1$s", ["Ana", "Bo"]),
        ("en", "%s %s %s", ["a", "b", "c"]), ("en", "100%% sure", []), ("en", "line%nbreak", []), ("en", "%10s|", ["right"]),
        ("en", "%-10s|", ["left"]), ("en", "%.3s", ["truncate"]), ("en", "%8.2s|", ["abc"]), ("en", "%S", ["shout"]),
        ("tr", "%S", ["istanbul"]), ("en", "%b", ["anything"]), ("en", "%h", ["hash me"]), ("en", "%H", ["Hash"]),
        ("en", "%1$s %<s %s", ["x", "y"]), ("en", "%s and %1$s then %s", ["a", "b"]), ("en", "no specifiers", ["ignored"]),
        ("en", "%d", ["5"]), ("en", "%1$s leads by %2$d points", ["Ana", "3"]), ("en", "%.1f km", ["5"]), ("en", "%c", ["x"]),
        ("en", "%x", ["ff"]), ("en", "%e", ["1"]), ("en", "%tY", ["2026"]), ("en", "%s %s", ["only one"]), ("en", "%3$s", ["a", "b"]),
        ("en", "%q", ["x"]), ("en", "trailing %", []), ("en", "%-s", ["x"]), ("en", "%+s", ["x"]), ("en", "%#s", ["x"]),
        ("en", "%0s", ["x"]), ("en", "%--5s", ["x"]), ("en", "%,s", ["x"]), ("en", "%(s", ["x"]), ("en", "% s", ["x"]),
        ("en", "%0$s", ["x"]), ("en", "%.2d", ["1"]), ("en", "%.2c", ["1"]), ("en", "%5n", []), ("en", "%.2%", []),
        ("en", "%-%", []), ("en", "%-5%|", []), ("ar", "%1$s و%2$s", ["أ", "ب"]), ("ko", "%1$s 님과 %2$s 님", ["Ana", "Bo"]),
        ("en", "emoji %s", ["😀"]), ("en", "%3s|", ["😀"]),
    ]

    @Test("every case: the same text, or the same exception with the same message")
    func oracle() throws {
        let java = try #require(Tools.javaRunningSource)
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
        }
        let input = Self.cases.map { ([$0.0, $0.1] + $0.2).map(escape).joined(separator: "\t") }.joined(separator: "\n") + "\n"
        let source = ProjectPaths.projectRoot + "/Tests/PushboxLocalizationTests/Java/FormatOracle.java"
        let r = try Subprocess.run(java, [source], stdin: input, timeout: 120)
        try #require(r.status == 0, "java: \(r.err)")
        let answers = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        try #require(answers.count == Self.cases.count)
        for (c, answer) in zip(Self.cases, answers) {
            let mine: String
            switch JavaFormat.format(c.1, c.2, locale: Locale(identifier: c.0)) {
            case .success(let t): mine = "ok\t" + escape(t)
            case .failure(let e): mine = "ex\t\(e.name)\t\(escape(e.message))"
            }
            #expect(mine == answer, "\(c.1) with \(c.2) in \(c.0)")
        }
    }
}
