#if canImport(Glibc)
    import Glibc
#endif

/// A value that several threads share, behind a pthread mutex. It is Swift's
/// `Synchronization.Mutex` in all but the lock: on Linux that one locks with raw futex calls,
/// which ThreadSanitizer cannot see, so every access it guards is reported as a race; a pthread
/// mutex is one ThreadSanitizer understands (`make test-tsan`).
// @unchecked: `value` is read and written only inside `withLock`, with `mutex` held; LockedTests
// and every suite run under ThreadSanitizer share instances across threads. The mutex makes each
// access exclusive, so the run-time exclusivity check on `value` (a `swift_beginAccess` and its
// end, dearer than the lock itself; a dozen locks a push) is left out.
public final class Locked<Value>: @unchecked Sendable {
    @exclusivity(unchecked) private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, no other thread touching it meanwhile.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
