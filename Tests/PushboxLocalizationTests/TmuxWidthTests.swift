import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxLocalization

/// tmux 3.3 draws emoji otherwise than UTS #51: a skin-tone modifier as an emoji of its own,
/// other sequences as wide as their first code point. The inbox measures them as the terminal
/// it runs in draws them; tmux itself is the oracle.
@Suite("Emoji as tmux 3.3 draws them")
struct TmuxWidthTests {
    static let clusters = ["👋🏽", "👍🏽", "🏳️‍🌈", "1️⃣", "🍽️", "🇰🇷", "👨‍👩‍👧", "👋", "☺︎", "😀"]

    @Test("tmux before 3.4 is told from its panes' environment; anything else is measured as UTS #51 says")
    func detection() {
        #expect(DisplayWidth.EmojiMeasure.of(environment: ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"]) == .tmux33)
        #expect(DisplayWidth.EmojiMeasure.of(environment: ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.2"]) == .tmux33)
        #expect(DisplayWidth.EmojiMeasure.of(environment: ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"]) == .unicode)
        #expect(DisplayWidth.EmojiMeasure.of(environment: ["TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.3"]) == .unicode)
        #expect(DisplayWidth.EmojiMeasure.of(environment: [:]) == .unicode)
    }

    @Test(
        "each emoji's columns as tmux itself moves the cursor over it",
        .enabled(
            if: TmuxOracle.version?.hasPrefix("3.3") == true, "tmux 3.3 is not installed (make test installs Debian's tmux): the oracle is skipped"))
    func againstTmux() throws {
        let measured = try TmuxOracle.columns(Self.clusters)
        for (cluster, columns) in zip(Self.clusters, measured) {
            let c = try #require(cluster.first)
            #expect(DisplayWidth.emojiWidth(c) == nil || DisplayWidth.tmuxWidth(c) == columns, "\(cluster): tmux moves \(columns) columns")
        }
    }
}

/// tmux run for its own measure: each cluster printed after `A`, the cursor's column read back.
enum TmuxOracle {
    static let version: String? = {
        guard let tmux = Tools.find("tmux"), let run = try? Subprocess.run(tmux, ["-V"]) else { return nil }
        return run.out.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }()

    static func columns(_ clusters: [String]) throws -> [Int] {
        let tmux = try #require(Tools.find("tmux"))
        let socket = "pbw\(getpid())"
        defer { _ = try? Subprocess.run(tmux, ["-L", socket, "kill-server"], captureOutput: false) }
        var out: [Int] = []
        for cluster in clusters {
            // A pane that prints and waits: the cursor stays where the printing left it.
            let pane = "printf 'A%s' '\(cluster)'; sleep 5"
            try Subprocess.run(tmux, ["-L", socket, "new-session", "-d", "-s", "w", "-x", "40", "-y", "3", pane], captureOutput: false)
            var column = -1
            for _ in 0..<40 {
                usleep(50_000)
                let x =
                    Int(
                        (try Subprocess.run(tmux, ["-L", socket, "display", "-p", "-t", "w", "#{cursor_x}"]).out).trimmingCharacters(
                            in: .whitespacesAndNewlines)) ?? 0
                if x > 0 {
                    column = x - 1
                    break
                }
            }
            _ = try? Subprocess.run(tmux, ["-L", socket, "kill-session", "-t", "w"], captureOutput: false)
            out.append(column)
        }
        return out
    }
}
