import Foundation
import PushboxTestSupport
import Testing

/// The runner the end-to-end tests stand on: a CI run once hung for ever inside Foundation's
/// `Process.waitUntilExit` because tmux's server kept a descriptor of it open.
@Suite("Running tools for tests")
struct SubprocessTests {
    @Test("output, errors, stdin and the exit status come back")
    func basics() throws {
        let r = try Subprocess.run("/bin/sh", ["-c", "read x; echo out:$x; echo err >&2; exit 3"], stdin: "hello\n")
        #expect(r.status == 3)
        #expect(r.out == "out:hello\n")
        #expect(r.err == "err\n")
        #expect(!r.timedOut)
    }

    @Test("a daemon left holding the output pipe does not keep the caller waiting")
    func daemonHoldsPipe() throws {
        let started = Date()
        let r = try Subprocess.run("/bin/sh", ["-c", "sleep 30 & echo started"], timeout: 20)
        #expect(r.out == "started\n")
        #expect(r.status == 0)
        #expect(!r.timedOut)
        #expect(Date().timeIntervalSince(started) < 15, "waited for the background sleep")
    }

    @Test("the child inherits no descriptor beyond 0, 1 and 2")
    func noLeakedDescriptors() throws {
        // Not close-on-exec, and numbered above anything `ls` itself opens.
        let opened = open("/dev/null", O_RDONLY)
        let held = fcntl(opened, F_DUPFD, 200)
        close(opened)
        defer { close(held) }
        #expect(held >= 200)
        let r = try Subprocess.run("/bin/sh", ["-c", "ls /proc/self/fd"])
        let fds = r.out.split(separator: "\n").compactMap { Int($0) }
        #expect(!fds.contains(Int(held)), "\(fds)")
    }

    @Test("past the deadline the tool is killed and the result says so")
    func deadline() throws {
        let r = try Subprocess.run("/bin/sleep", ["30"], timeout: 0.3)
        #expect(r.timedOut)
        #expect(r.status == 128 + SIGKILL)
    }

    @Test("a background child is stopped with SIGTERM and reaped")
    func child() throws {
        let c = try Subprocess.Child("/bin/sleep", ["30"])
        #expect(c.poll() == nil)
        #expect(c.terminate() == 128 + SIGTERM)
        #expect(kill(c.pid, 0) == -1)  // reaped: the pid is gone
    }
}
