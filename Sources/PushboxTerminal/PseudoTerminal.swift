import CNcursesw
import Foundation
import PushboxJSON
import PushboxSystem

/// A pseudo-terminal pair for running the TUI headless: the program gets the slave side as its
/// terminal; the owner writes keys to the master and reads everything drawn.
public final class PseudoTerminal: Sendable {
    /// The controlling side's descriptor.
    public let master: Int32
    /// The terminal side's device path.
    public let slavePath: String
    /// Everything drawn since the last `clear`, appended by the reading thread.
    private let output = Locked<[UInt8]>([])

    /// Opens a pty pair of that size and starts reading everything drawn on it.
    public init(rows: Int, columns: Int) throws(TerminalError) {
        master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw TerminalError(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        slavePath = String(cString: name)
        _ = pb_set_winsize(master, UInt16(rows), UInt16(columns))
        Thread.detachNewThread { [self] in readLoop() }
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { return }
            output.withLock { $0 += buffer[0..<n] }
        }
    }

    /// Types into the terminal.
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Forgets what was drawn so far.
    public func clear() {
        output.withLock { $0.removeAll(keepingCapacity: true) }
    }

    /// Whether the program has drawn `text` since the last `clear`.
    public func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        return output.withLock { output in
            guard output.count >= needle.count, let first = needle.first else { return false }
            var i = 0
            while i <= output.count - needle.count {
                if output[i] == first, output[i..<(i + needle.count)].elementsEqual(needle) { return true }
                i += 1
            }
            return false
        }
    }

    /// Waits until `text` is drawn; returns the seconds waited, or nil after `timeout`.
    public func waitFor(_ text: String, timeout: Double = 10) -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if contains(text) { return Date().timeIntervalSince(start) }
            usleep(1000)
        }
        return nil
    }
}
