import Dispatch
import Foundation
import PushboxSystem
import Testing

@testable import PushboxStore

/// Inserts from concurrent requests share a transaction, and each thread is woken once: the
/// leader commits one batch and returns, and the next job queued leads the next batch.
@Suite("Group commit")
struct GroupCommitTests {
    @Test("every job from 16 threads is committed exactly once, one batch at a time, and gets its own output")
    func everyJobOnce() {
        let commits = GroupCommit<Int, Int>()
        let batches = Locked<[[Int]]>([])
        let inside = Locked(0)
        let overlapped = Locked(false)
        let wrong = Locked(0)
        let commit: @Sendable ([Int]) -> [Int] = { batch in
            let committingNow = inside.withLock { n in
                n += 1
                return n
            }
            if committingNow > 1 { overlapped.withLock { $0 = true } }
            batches.withLock { $0.append(batch) }
            inside.withLock { $0 -= 1 }
            return batch.map { $0 * 2 }
        }
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            for i in 0..<300 {
                let job = thread * 1000 + i
                if commits.submit(job, commitBatch: commit) != job * 2 { wrong.withLock { $0 += 1 } }
            }
        }
        let all = batches.withLock { $0 }.flatMap { $0 }
        #expect(wrong.withLock { $0 } == 0)
        #expect(!overlapped.withLock { $0 })
        #expect(all.count == 16 * 300)
        #expect(Set(all).count == 16 * 300)
        #expect(commits.queuedCount == 0)
    }

    @Test("a leader returns after its own batch; the jobs queued meanwhile are committed by one of them, in one batch")
    func leaderHandsOn() throws {
        let commits = GroupCommit<Int, Int>()
        let firstEntered = DispatchSemaphore(value: 0)
        let releaseFirst = DispatchSemaphore(value: 0)
        let releaseSecond = DispatchSemaphore(value: 0)
        let batches = Locked<[[Int]]>([])
        let commit: @Sendable ([Int]) -> [Int] = { batch in
            let n = batches.withLock { b in
                b.append(batch)
                return b.count
            }
            if n == 1 {
                firstEntered.signal()
                releaseFirst.wait()
            } else if n == 2 {
                releaseSecond.wait()
            }
            return batch
        }
        let done = Locked<[Int]>([])
        let finished = DispatchSemaphore(value: 0)
        // Threads of their own: Dispatch's pool may not start a third task while two block.
        func submit(_ job: Int) {
            Thread {
                let output = commits.submit(job, commitBatch: commit)
                done.withLock { $0.append(output) }
                finished.signal()
            }.start()
        }
        submit(1)
        #expect(firstEntered.wait(timeout: .now() + 10) == .success)
        submit(2)
        submit(3)
        let deadline = Date().addingTimeInterval(10)
        while commits.queuedCount < 2 && Date() < deadline { usleep(1000) }
        try #require(commits.queuedCount == 2)
        releaseFirst.signal()
        // The first leader is back while the second batch is still being committed.
        let back = Date().addingTimeInterval(10)
        while done.withLock({ $0 }) != [1] && Date() < back { usleep(1000) }
        #expect(done.withLock { $0 } == [1])
        while batches.withLock({ $0 }).count < 2 && Date() < back { usleep(1000) }
        #expect(done.withLock { $0 } == [1])
        releaseSecond.signal()
        for _ in 0..<3 { #expect(finished.wait(timeout: .now() + 10) == .success) }
        #expect(batches.withLock { $0 }.map { $0.sorted() } == [[1], [2, 3]])
        #expect(done.withLock { $0 }.sorted() == [1, 2, 3])
    }

    /// A group commit whose batches are recorded, and jobs submitted on threads of their own
    /// (Dispatch's pool may not start one while others block), each output kept and signalled.
    private final class Recorder: Sendable {
        let commits: GroupCommit<Int, Int>
        let batches = Locked<[[Int]]>([])
        let done = Locked<[Int]>([])
        let finished = DispatchSemaphore(value: 0)

        init(gatherLimit: Int) { commits = GroupCommit(gatherLimit: gatherLimit) }

        func commit(_ batch: [Int]) -> [Int] {
            batches.withLock { $0.append(batch) }
            return batch
        }

        func submitOnThread(_ job: Int, announcement: InsertAnnouncement? = nil) {
            Thread { [self] in
                let output = commits.submit(job, announcement: announcement, commitBatch: commit)
                done.withLock { $0.append(output) }
                finished.signal()
            }.start()
        }
    }

    @Test("a leader waits for an announced job and commits it in its own batch")
    func leaderWaitsForAnnounced() {
        let r = Recorder(gatherLimit: 30_000_000_000)
        let coming = r.commits.announce()
        r.submitOnThread(1)
        // The leader holds its batch while the announced job is still coming.
        #expect(r.finished.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(r.batches.withLock { $0 }.isEmpty)
        r.submitOnThread(2, announcement: coming)
        for _ in 0..<2 { #expect(r.finished.wait(timeout: .now() + 10) == .success) }
        #expect(r.batches.withLock { $0 } == [[1, 2]])
        #expect(r.commits.comingCount == 0)
    }

    @Test("a withdrawn announcement ends the leader's wait; withdrawing one that came changes nothing")
    func withdrawEndsTheWait() {
        let r = Recorder(gatherLimit: 30_000_000_000)
        let never = r.commits.announce()
        r.submitOnThread(1)
        #expect(r.finished.wait(timeout: .now() + 0.3) == .timedOut)
        r.commits.withdraw(never)
        #expect(r.finished.wait(timeout: .now() + 10) == .success)
        #expect(r.batches.withLock { $0 } == [[1]])
        r.commits.withdraw(never)
        let came = r.commits.announce()
        #expect(r.commits.submit(2, announcement: came, commitBatch: r.commit) == 2)
        r.commits.withdraw(came)
        #expect(r.commits.comingCount == 0)
    }

    @Test("an announced job that never comes holds a commit no longer than the gathering limit")
    func gatherIsBounded() {
        let r = Recorder(gatherLimit: 50_000_000)
        _ = r.commits.announce()
        r.submitOnThread(1)
        #expect(r.finished.wait(timeout: .now() + 10) == .success)
        #expect(r.done.withLock { $0 } == [1])
        #expect(r.commits.comingCount == 1)
    }
}
