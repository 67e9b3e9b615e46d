import Foundation
import PushboxSystem
import PushboxUI

/// One queue every source posts to (keys, resizes, the socket, the folder watch, renderings
/// finishing); the loop drains a burst and redraws once, and between bursts it sleeps in
/// `wait` until a message is posted or a key is typed.
final class MessageQueue: Sendable {
    private let messages = Locked<[Message]>([])
    /// A pipe whose read end wakes `wait`: a byte is written when the queue stops being empty.
    private let wakeRead: Int32, wakeWrite: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func post(_ m: Message) {
        let first = messages.withLock { messages in
            messages.append(m)
            return messages.count == 1
        }
        if first {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }

    func drain() -> [Message] {
        let out = messages.withLock { messages in
            let out = messages
            messages.removeAll()
            return out
        }
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &bytes, bytes.count) > 0 {}
        return out
    }

    /// Sleeps until a message is posted, `fd` has input, or `timeoutMs` passes; returns at once
    /// when messages are waiting.
    func wait(orReadable fd: Int32, timeoutMs: Int32) {
        guard messages.withLock({ $0.isEmpty }) else { return }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, timeoutMs)
    }
}
