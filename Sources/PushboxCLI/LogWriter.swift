import Foundation
import PushboxJSON
import PushboxSystem

/// Whole lines to stdout from any thread, written by a queue of their own: a request thread only
/// hands its line over, so a stalled stdout (a pipe nobody reads) never holds up an answer. When
/// `limit` lines are already waiting, new ones are dropped and counted, and the count is written as
/// a line of its own before the next line that gets out.
final class LogWriter: Sendable {
    static let standardOutput = LogWriter { text in
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }  // stdout closed: the log is lost, the intake goes on
            bytes = bytes.dropFirst(n)
        }
    }

    private let sink: @Sendable (String) -> Void
    private let limit: Int
    private let queue = DispatchQueue(label: "pushbox.log")
    /// Lines handed to `queue` and not yet written, and lines dropped since the last one written.
    private let counts = Locked<(waiting: Int, dropped: Int)>((0, 0))

    init(limit: Int = 10_000, sink: @escaping @Sendable (String) -> Void) {
        self.limit = limit
        self.sink = sink
    }

    func callAsFunction(_ line: String) {
        let accepted = counts.withLock { counts in
            guard counts.waiting < limit else {
                counts.dropped += 1
                return false
            }
            counts.waiting += 1
            return true
        }
        guard accepted else { return }
        queue.async { [self] in
            let dropped = counts.withLock { counts in
                counts.waiting -= 1
                defer { counts.dropped = 0 }
                return counts.dropped
            }
            let notice = dropped == 0 ? "" : "pushbox: \(dropped) log line\(dropped == 1 ? "" : "s") dropped (stdout was not read fast enough)\n"
            sink(notice + line + "\n")
        }
    }

    /// Waits up to `seconds` for the lines handed over so far to be written (a stop's last lines).
    func flush(seconds: Double = 2) {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        _ = done.wait(timeout: .now() + seconds)
    }
}
