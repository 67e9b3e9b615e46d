import Dispatch
import PushboxJSON
import PushboxSystem
import Testing

@testable import PushboxCLI

@Suite("The serve log never holds up the intake")
struct LogWriterTests {
    /// A sink that blocks until released, like stdout piped to a reader that stopped reading.
    final class StalledSink: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let written = Locked<[String]>([])
        func write(_ text: String) {
            let first = written.withLock { $0.isEmpty }
            if first {
                entered.signal()
                release.wait()
            }
            written.withLock { $0.append(text) }
        }
    }

    @Test("a stalled consumer: lines are handed over without waiting, the excess is dropped and counted")
    func stalledConsumer() async throws {
        let sink = StalledSink()
        let log = LogWriter(limit: 10) { sink.write($0) }
        log("line 0")
        sink.entered.wait()  // the writer is now stuck inside stdout
        for i in 1...15 { log("line \(i)") }  // returns at once: nothing here waits for the sink
        sink.release.signal()
        log.flush(seconds: 10)
        let text = sink.written.withLock { $0.joined() }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "line 0")
        #expect(lines.contains("pushbox: 5 log lines dropped (stdout was not read fast enough)"))
        #expect(lines.filter { $0.hasPrefix("line ") } == (0...10).map { "line \($0)" })
    }

    @Test("lines from many threads arrive whole and all of them when the consumer keeps up")
    func manyThreads() {
        let written = Locked<[String]>([])
        let log = LogWriter(limit: 100_000) { text in written.withLock { $0.append(text) } }
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<200 { log("thread \(t) line \(i)") }
        }
        log.flush(seconds: 10)
        let lines = written.withLock { $0 }
        #expect(lines.count == 1600)
        #expect(lines.allSatisfy { $0.hasPrefix("thread ") && $0.hasSuffix("\n") && !$0.contains("dropped") })
    }
}
