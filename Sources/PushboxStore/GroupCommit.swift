#if canImport(Glibc)
    import Glibc
#endif

/// Jobs from many threads committed together (group commit), each thread woken once: when its
/// job's commit is done, or when it is its turn to lead the next one. The first thread to come
/// while nobody commits leads: it takes every job queued, commits them in one go and hands the
/// lead to the oldest job queued meanwhile, then returns. Nobody is woken to find its job not
/// done yet, and no leader commits for the others longer than one batch.
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

    /// A group commit with nothing queued.
    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
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
    func submit(_ job: Job, commitBatch: ([Job]) -> [Output]) -> Output {
        let ticket = Ticket(job)
        pthread_mutex_lock(mutex)
        queued.append(ticket)
        if committing {
            while ticket.output == nil && !ticket.leads { pthread_cond_wait(ticket.wake, mutex) }
        }
        if let output = ticket.output {
            pthread_mutex_unlock(mutex)
            return output
        }
        committing = true
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
