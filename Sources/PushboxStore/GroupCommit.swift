#if canImport(Glibc)
    import Glibc
#endif

/// Jobs from many threads committed together (group commit), each thread woken once: when its
/// job's commit is done, or when it is its turn to lead the next one. The first thread to come
/// while nobody commits leads: it takes every job queued, commits them in one go and hands the
/// lead to the oldest job queued meanwhile, then returns. Nobody is woken to find its job not
/// done yet, and no leader commits for the others longer than one batch.
///
/// Jobs can be announced before they come (a request being judged, whose row follows): a
/// leader first waits for the announced jobs — at most `gatherLimit`, and never when none is
/// announced — so the requests in flight share one commit instead of each paying its own (as
/// PostgreSQL's `commit_delay` waits only while `commit_siblings` transactions are active).
// @unchecked: `queued`, `committing` and every ticket's `output` and `leads` are read and
// written only with `mutex` held; GroupCommitTests submits from 16 threads at once.
final class GroupCommit<Job, Output>: @unchecked Sendable {
    /// One job waiting: its output once committed, and its own wake-up, so a batch done wakes
    /// exactly the threads whose jobs it held.
    private final class Ticket {
        let job: Job
        var output: Output?
        var leads = false
        let wake: UnsafeMutablePointer<pthread_cond_t>

        init(_ job: Job) {
            self.job = job
            wake = .allocate(capacity: 1)
            pthread_cond_init(wake, nil)
        }

        deinit {
            pthread_cond_destroy(wake)
            wake.deallocate()
        }
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var queued: [Ticket] = []
    private var committing = false
    /// Jobs announced and not submitted (nor withdrawn) yet.
    private var coming = 0
    /// A leader waiting for the announced jobs, woken when the last of them is queued.
    private var gathering = false
    private let gathered: UnsafeMutablePointer<pthread_cond_t>
    /// The longest a leader waits for announced jobs, in nanoseconds.
    let gatherLimit: Int
    /// A leader stops waiting once this many jobs are queued.
    let gatherMost: Int

    /// A group commit with nothing queued; a leader waits at most `gatherLimit` nanoseconds
    /// for announced jobs, and not once `gatherMost` jobs are queued.
    init(gatherLimit: Int = 2_000_000, gatherMost: Int = 64) {
        self.gatherLimit = gatherLimit
        self.gatherMost = gatherMost
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        gathered = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(gathered, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(gathered)
        gathered.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// How many announced jobs have not come yet (the tests).
    var comingCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return coming
    }

    /// Says a job is on its way: `submit` takes the announcement with it; `withdraw` lets it go
    /// if it never came (a no-op once it did).
    func announce() -> InsertAnnouncement {
        pthread_mutex_lock(mutex)
        coming += 1
        pthread_mutex_unlock(mutex)
        return InsertAnnouncement()
    }

    /// Takes back an announcement whose job did not come; nothing when it came.
    func withdraw(_ announcement: InsertAnnouncement) {
        pthread_mutex_lock(mutex)
        take(announcement)
        wakeGatheringLeader()
        pthread_mutex_unlock(mutex)
    }

    /// Counts an announced job as come, once (called with `mutex` held).
    private func take(_ announcement: InsertAnnouncement) {
        guard announcement.coming else { return }
        announcement.coming = false
        coming -= 1
    }

    /// Wakes a leader waiting for announced jobs once none is still coming or the batch is
    /// full (called with `mutex` held).
    private func wakeGatheringLeader() {
        if gathering && (coming <= 0 || queued.count >= gatherMost) { pthread_cond_signal(gathered) }
    }

    /// The leader's wait for the announced jobs (called with `mutex` held).
    private func gather() {
        guard coming > 0, queued.count < gatherMost else { return }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let end = Int(deadline.tv_nsec) + gatherLimit
        deadline.tv_sec += end / 1_000_000_000
        deadline.tv_nsec = end % 1_000_000_000
        gathering = true
        while coming > 0 && queued.count < gatherMost {
            if pthread_cond_timedwait(gathered, mutex, &deadline) == ETIMEDOUT { break }
        }
        gathering = false
    }

    /// How many jobs wait for a leader to take them (the tests).
    var queuedCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return queued.count
    }

    /// Commits `job` with the others queued beside it; returns its output once its batch is done.
    /// The thread that leads commits with its `commitBatch`, which gets the jobs in the order they
    /// came and gives one output for each, in that order (every caller passes the same one).
    /// `announcement`: what `announce` said of this job.
    func submit(_ job: Job, announcement: InsertAnnouncement? = nil, commitBatch: ([Job]) -> [Output]) -> Output {
        let ticket = Ticket(job)
        pthread_mutex_lock(mutex)
        queued.append(ticket)
        if let announcement { take(announcement) }
        wakeGatheringLeader()
        if committing {
            while ticket.output == nil && !ticket.leads { pthread_cond_wait(ticket.wake, mutex) }
        }
        if let output = ticket.output {
            pthread_mutex_unlock(mutex)
            return output
        }
        committing = true
        gather()
        let batch = queued
        queued.removeAll(keepingCapacity: true)
        pthread_mutex_unlock(mutex)

        let outputs = commitBatch(batch.map(\.job))

        pthread_mutex_lock(mutex)
        for (waiting, output) in zip(batch, outputs) { waiting.output = output }
        let next = queued.first
        if let next { next.leads = true } else { committing = false }
        let mine = ticket.output!
        pthread_mutex_unlock(mutex)
        // `batch` and `next` hold the tickets, so each condition outlives its signal.
        for waiting in batch where waiting !== ticket { pthread_cond_signal(waiting.wake) }
        if let next { pthread_cond_signal(next.wake) }
        return mine
    }
}

/// A job a group commit was told is on its way (`GroupCommit.announce`): a leader waits for it,
/// briefly, until it is submitted or withdrawn.
// @unchecked: `coming` is read and written only with its group commit's mutex held.
public final class InsertAnnouncement: @unchecked Sendable {
    fileprivate var coming = true
}
