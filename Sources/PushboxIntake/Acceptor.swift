import Foundation
import Synchronization

/// A thread that accepts connections from a listening socket and hands each, close-on-exec, to
/// the closure `start` was given, until `stop`: the Unix socket's `HTTPServer` and the port's
/// `PortListener` both accept with it.
final class Acceptor: Sendable {
    private let listenFD: Int32
    private let wakeup: Wakeup
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    /// An acceptor for `listenFD` (made non-blocking, so a connection gone between poll and
    /// accept never blocks the thread); nil when no wake-up pipe can be made.
    init?(listenFD: Int32) {
        guard let wakeup = Wakeup() else { return nil }
        self.listenFD = listenFD
        self.wakeup = wakeup
        _ = fcntl(listenFD, F_SETFL, fcntl(listenFD, F_GETFL) | O_NONBLOCK)
    }

    /// Starts the thread; `take` gets every accepted socket and owns it from then on.
    func start(_ take: @escaping @Sendable (Int32) -> Void) {
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            while !stopping.load(ordering: .acquiring) {
                guard waitReady(listenFD, events: Int16(POLLIN), wakeup: wakeup, timeout: 1000) & Int16(POLLIN) != 0 else { continue }
                let fd = accept(listenFD, nil, nil)
                guard fd >= 0 else {
                    // Out of descriptors (EMFILE, ENFILE) the socket stays readable: wait instead of spinning.
                    if errno != EAGAIN && errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                    continue
                }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                take(fd)
            }
        }
    }

    /// Stops accepting; returns once the thread has ended (no `take` runs after). The listening
    /// socket stays open: its owner closes it. Calling it again does nothing.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeup.signal()
        done.wait()
    }
}
