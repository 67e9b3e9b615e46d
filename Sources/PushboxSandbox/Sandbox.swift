import CNamespace
import Foundation

/// A command running in its own network and mount namespaces (and a user namespace when not
/// root): only loopback, the prepared files over the system's, and listeners on loopback that
/// pushbox accepts on from outside.
public final class SandboxedCommand: @unchecked Sendable {
    // @unchecked: `control` is used by the thread that started the command only.
    /// The command's pid (as the host sees it).
    public let pid: pid_t
    /// Listening sockets inside: their descriptor, port and whether on ::1.
    public let listeners: [(fd: Int32, port: UInt16, ipv6: Bool)]
    /// Targets of binds skipped because the system has no such file.
    public let skipped: [String]
    /// Whether a user namespace was made (pushbox not root).
    public let inUserNamespace: Bool
    private var result: pb_sandbox_result

    init(result: pb_sandbox_result, skipped: [String], inUserNamespace: Bool) {
        self.result = result
        pid = result.pid
        var listeners: [(Int32, UInt16, Bool)] = []
        withUnsafeBytes(of: result.listeners) { fds in
            withUnsafeBytes(of: result.ports_of) { ports in
                withUnsafeBytes(of: result.ipv6_of) { v6 in
                    for i in 0..<Int(result.listener_count) {
                        listeners.append(
                            (
                                fds.load(fromByteOffset: i * 4, as: Int32.self), ports.load(fromByteOffset: i * 2, as: UInt16.self),
                                v6.load(fromByteOffset: i * 4, as: Int32.self) != 0
                            ))
                    }
                }
            }
        }
        self.listeners = listeners
        self.skipped = skipped
        self.inUserNamespace = inUserNamespace
    }

    /// Waits until the command was exec'd; the failure when it could not be (not found, not
    /// executable), the child having exited 127.
    public func waitForExec() -> SandboxFailure? {
        guard pb_sandbox_wait_exec(&result) != 0 else { return nil }
        return SandboxFailure(step: .exec, code: result.error, index: -1, inUserNamespace: inUserNamespace)
    }

    /// Waits for the command to end: its exit status, or 128 + the signal that ended it.
    public func wait() -> Int32 {
        var status: Int32 = 0
        guard pb_wait_child(pid, &status) == 0 else { return 1 }
        if pb_exited(status) != 0 { return pb_exit_status(status) }
        if pb_signaled(status) != 0 { return 128 + pb_term_signal(status) }
        return 1
    }

    /// Sends `signal` to the command.
    public func send(_ signal: Int32) { kill(pid, signal) }
}

/// A step that failed, its errno, and what it means for the user.
public struct SandboxFailure: Error, Sendable, Equatable {
    /// The steps, in the order the child takes them.
    public enum Step: Int32, Sendable {
        case fork = 1
        case userNamespace, uidMap, networkNamespace, mountNamespace, privateMounts, loopback, listen, bindMount, handOver, exec
    }
    /// The step that failed.
    public var step: Step
    /// Its errno.
    public var code: Int32
    /// The bind or port it was on (-1: none).
    public var index: Int32
    /// Whether a user namespace was being used.
    public var inUserNamespace: Bool
}

/// Making the namespaces and starting a command in them.
public enum Sandbox {
    /// Starts `command` (argv; nil checks every step and execs nothing) with `environment`
    /// in new namespaces, with `files` bound over the system's and listeners on `ports`
    /// (127.0.0.1 and ::1). As root no user namespace is made unless the network namespace is
    /// refused without one (a container without CAP_SYS_ADMIN).
    public static func start(command: [String]?, environment: [String: String], files: SandboxFiles, ports: [UInt16]) -> Result<
        SandboxedCommand, SandboxFailure
    > {
        let root = geteuid() == 0
        let first = attempt(command: command, environment: environment, files: files, ports: ports, newUser: !root)
        if root, case .failure(let failure) = first, failure.step == .networkNamespace, failure.code == EPERM {
            return attempt(command: command, environment: environment, files: files, ports: ports, newUser: true)
        }
        return first
    }

    static func attempt(command: [String]?, environment: [String: String], files: SandboxFiles, ports: [UInt16], newUser: Bool)
        -> Result<SandboxedCommand, SandboxFailure>
    {
        let strings = CStrings()
        defer { strings.free() }
        let argv = command.map { strings.array($0) }
        let envp = strings.array(environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        let sources = strings.array(files.binds.map(\.source))
        let targets = strings.array(files.binds.map(\.target))
        var result = pb_sandbox_result()
        let rc = ports.withUnsafeBufferPointer { portList in
            var spec = pb_sandbox_spec()
            spec.argv = argv.map { UnsafePointer($0) }
            spec.envp = UnsafePointer(envp)
            spec.new_user = newUser ? 1 : 0
            spec.uid_map = UnsafePointer(strings.string("0 \(geteuid()) 1"))
            spec.gid_map = UnsafePointer(strings.string("0 \(getegid()) 1"))
            spec.ports = portList.baseAddress
            spec.port_count = Int32(ports.count)
            spec.bind_sources = UnsafePointer(sources.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: files.binds.count + 1) { $0 })
            spec.bind_targets = UnsafePointer(targets.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: files.binds.count + 1) { $0 })
            spec.bind_count = Int32(files.binds.count)
            spec.hosts_source = UnsafePointer(strings.string(files.hosts))
            spec.hosts_v4_source = UnsafePointer(strings.string(files.hostsWithoutIPv6))
            spec.hosts_target = UnsafePointer(strings.string("/etc/hosts"))
            return pb_sandbox_start(&spec, &result)
        }
        guard rc == 0 else {
            let step = SandboxFailure.Step(rawValue: result.failed_step) ?? .fork
            return .failure(SandboxFailure(step: step, code: result.error, index: result.failed_index, inUserNamespace: newUser))
        }
        var skipped: [String] = []
        for (i, bind) in files.binds.enumerated() where result.skipped_binds & (1 << UInt32(i)) != 0 { skipped.append(bind.target) }
        if result.skipped_binds & (1 << 31) != 0 { skipped.append("/etc/hosts") }
        return .success(SandboxedCommand(result: result, skipped: skipped, inUserNamespace: newUser))
    }
}

/// C strings that live until `free()`: the child copies them at fork.
final class CStrings {
    private var owned: [UnsafeMutablePointer<CChar>] = []
    private var arrays: [UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>] = []

    func string(_ text: String) -> UnsafeMutablePointer<CChar> {
        let p = strdup(text)!
        owned.append(p)
        return p
    }

    /// A NULL-terminated array of C strings.
    func array(_ items: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: items.count + 1)
        for (i, item) in items.enumerated() { list[i] = string(item) }
        list[items.count] = nil
        arrays.append(list)
        return list
    }

    func free() {
        for p in owned { Foundation.free(p) }
        for a in arrays { a.deallocate() }
        owned = []
        arrays = []
    }
}
