import CSpawn
import Foundation
import PushboxJSON
import PushboxSystem

/// Runs tools for tests with posix_spawn and waitpid, never Foundation's `Process`.
///
/// `Process` on Linux learns that a child ended when a socket it hands the child closes; a
/// daemon the child starts (tmux's server) inherits that socket, so `waitUntilExit` never
/// returns — a whole CI run hung on it. Here the child keeps only descriptors 0–2, the parent
/// reaps it with waitpid, and every wait has a deadline after which the child is killed.
public enum Subprocess {
    /// What a finished tool left: exit status (128 + signal when killed), its output and errors.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var out: String
        /// Standard error.
        public var err: String
        /// The deadline passed and the tool was killed.
        public var timedOut: Bool
    }

    /// Why a tool could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// Why it could not be run.
        public var description: String
    }

    /// Runs `executable` to completion, giving it `stdin` (or nothing) and capturing its output
    /// and errors (or sending them to /dev/null). After `timeout` seconds it is killed.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil,
        environment: [String: String]? = nil, directory: String? = nil,
        captureOutput: Bool = true, timeout: Double = 60
    ) throws -> Result {
        _ = ignoreSIGPIPE
        let deadline = Date().addingTimeInterval(timeout)
        var toChild = [Int32](repeating: -1, count: 2)
        var fromOut = toChild
        var fromErr = toChild
        defer { for fd in toChild + fromOut + fromErr where fd >= 0 { close(fd) } }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        if stdin != nil { try pipe(&toChild) }
        if captureOutput {
            try pipe(&fromOut)
            try pipe(&fromErr)
        }
        let child = try Child(
            executable, arguments, environment: environment, directory: directory,
            stdin: stdin == nil ? null : toChild[0],
            stdout: captureOutput ? fromOut[1] : null, stderr: captureOutput ? fromErr[1] : null)
        // The child's ends are the child's now.
        closeEnd(&toChild, 0)
        closeEnd(&fromOut, 1)
        closeEnd(&fromErr, 1)

        var input = Array((stdin ?? "").utf8)[...]
        if input.isEmpty { closeEnd(&toChild, 1) }
        var out: [UInt8] = []
        var err: [UInt8] = []
        var status: Int32?
        var timedOut = false
        // Until both outputs end: after the child has exited, only what is already buffered is
        // read, as a daemon it started may hold the pipes open.
        while fromOut[0] >= 0 || fromErr[0] >= 0 || toChild[1] >= 0 {
            if status == nil { status = child.poll() }
            if Date() >= deadline {
                timedOut = true
                break
            }
            var fds = [pollfd]()
            if fromOut[0] >= 0 { fds.append(pollfd(fd: fromOut[0], events: Int16(POLLIN), revents: 0)) }
            if fromErr[0] >= 0 { fds.append(pollfd(fd: fromErr[0], events: Int16(POLLIN), revents: 0)) }
            if toChild[1] >= 0 { fds.append(pollfd(fd: toChild[1], events: Int16(POLLOUT), revents: 0)) }
            let ready = Glibc.poll(&fds, nfds_t(fds.count), status == nil ? 50 : 0)
            if ready == 0 && status != nil { break }
            if ready <= 0 { continue }
            for p in fds where p.revents != 0 {
                if p.fd == toChild[1] {
                    let n = input.withUnsafeBytes { write(p.fd, $0.baseAddress, min($0.count, 4096)) }
                    if n > 0 { input = input.dropFirst(n) }
                    if n < 0 || input.isEmpty { closeEnd(&toChild, 1) }
                } else {
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    let n = read(p.fd, &buffer, buffer.count)
                    if n > 0 {
                        if p.fd == fromOut[0] { out += buffer[0..<n] } else { err += buffer[0..<n] }
                    } else if n == 0 || errno != EINTR {
                        if p.fd == fromOut[0] { closeEnd(&fromOut, 0) } else { closeEnd(&fromErr, 0) }
                    }
                }
            }
        }
        let remaining = max(0, deadline.timeIntervalSinceNow)
        if status == nil { status = child.wait(timeout: timedOut ? 0 : remaining) }
        if status == nil {
            timedOut = true
            status = child.kill()
        }
        return Result(
            status: status ?? -1, out: String(decoding: out, as: UTF8.self),
            err: String(decoding: err, as: UTF8.self), timedOut: timedOut)
    }

    /// A started tool with its process id; reaped by `wait`, `terminate` or `kill`, or on deinit.
    public final class Child: Sendable {
        /// The child's process id.
        public let pid: pid_t
        /// Set once the tool is reaped (a test may poll from one thread and kill from another).
        private let exitStatus = Locked<Int32?>(nil)

        /// Starts `executable` with the given descriptors (by default /dev/null for all three).
        public init(
            _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
            directory: String? = nil, stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil
        ) throws {
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            defer { close(null) }
            let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
            var argv = ([executable] + arguments).map { strdup($0) } + [nil]
            var envp = env.map { strdup($0) } + [nil]
            defer { for p in argv + envp { free(p) } }
            var pid: pid_t = 0
            let rc = pb_spawn(&pid, executable, &argv, &envp, directory, stdin ?? null, stdout ?? null, stderr ?? null)
            guard rc == 0 else { throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(rc)))") }
            self.pid = pid
        }

        /// The exit status if the tool has ended (reaping it), else nil.
        public func poll() -> Int32? {
            exitStatus.withLock { status in
                if let status { return status }
                var raw: Int32 = 0
                let r = waitpid(pid, &raw, WNOHANG)
                if r == pid { status = Self.decode(raw) } else if r < 0 { status = -1 }
                return status
            }
        }

        /// Waits up to `timeout` seconds for the tool to end; nil if it has not.
        public func wait(timeout: Double) -> Int32? {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let s = poll() { return s }
                if Date() >= deadline { return nil }
                usleep(10_000)
            }
        }

        /// SIGTERM, then SIGKILL if the tool has not ended within `grace` seconds.
        @discardableResult
        public func terminate(grace: Double = 10) -> Int32 {
            if let s = poll() { return s }
            Glibc.kill(pid, SIGTERM)
            return wait(timeout: grace) ?? kill()
        }

        /// SIGKILL, and the status once reaped.
        @discardableResult
        public func kill() -> Int32 {
            if let s = poll() { return s }
            Glibc.kill(pid, SIGKILL)
            return wait(timeout: 30) ?? -1
        }

        private static func decode(_ raw: Int32) -> Int32 {
            let signal = raw & 0x7f
            return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        }

        deinit { if poll() == nil { kill() } }
    }

    /// Writing to a child that stopped reading must fail with EPIPE, not end the test process.
    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    private static func closeEnd(_ fds: inout [Int32], _ i: Int) {
        if fds[i] >= 0 {
            close(fds[i])
            fds[i] = -1
        }
    }

    private static func pipe(_ fds: inout [Int32]) throws {
        let rc = fds.withUnsafeMutableBufferPointer { pb_pipe_cloexec($0.baseAddress) }
        guard rc == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(rc)))") }
    }
}
