import Foundation

/// What this machine says about namespaces, read from /proc: the settings that switch
/// unprivileged user namespaces off, a seccomp filter, a container.
public struct HostFacts: Sendable, Equatable {
    /// Whether pushbox runs as root.
    public var root: Bool
    /// `kernel.unprivileged_userns_clone` (Debian's switch; nil where the kernel has none).
    public var unprivilegedUsernsClone: Int?
    /// `user.max_user_namespaces`.
    public var maxUserNamespaces: Int?
    /// `kernel.apparmor_restrict_unprivileged_userns` (Ubuntu 23.10 and later).
    public var apparmorRestrictsUserns: Int?
    /// The `Seccomp:` mode of this process (2: a filter, as Docker's default profile is).
    public var seccompMode: Int?
    /// Whether this looks like a container (`/.dockerenv`, `/run/.containerenv`).
    public var container: Bool

    /// The facts of this machine, read from `root` (a test points it at a folder).
    public static func read(root: String = "") -> HostFacts {
        func number(_ path: String) -> Int? {
            (try? String(contentsOfFile: root + path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let status = (try? String(contentsOfFile: root + "/proc/self/status", encoding: .utf8)) ?? ""
        let seccomp = status.split(separator: "\n").first { $0.hasPrefix("Seccomp:") }.flatMap {
            Int($0.dropFirst("Seccomp:".count).trimmingCharacters(in: .whitespaces))
        }
        return HostFacts(
            root: geteuid() == 0, unprivilegedUsernsClone: number("/proc/sys/kernel/unprivileged_userns_clone"),
            maxUserNamespaces: number("/proc/sys/user/max_user_namespaces"),
            apparmorRestrictsUserns: number("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"), seccompMode: seccomp,
            container: FileManager.default.fileExists(atPath: root + "/.dockerenv")
                || FileManager.default.fileExists(atPath: root + "/run/.containerenv"))
    }
}

/// Why a step failed, as a code tests match on, and in words with what to do instead.
public enum SandboxCause: String, Sendable, Equatable {
    case userNamespacesDisabled = "user-namespaces-disabled"
    case userNamespacesRestricted = "user-namespaces-restricted"
    case seccompForbids = "seccomp-forbids-unshare"
    case notPrivileged = "not-privileged"
    case mountRefused = "mount-refused"
    case loopbackRefused = "loopback-refused"
    case portInUse = "port-in-use"
    case commandNotFound = "command-not-found"
    case commandNotExecutable = "command-not-executable"
    case other = "other"
}

extension SandboxFailure {
    /// What the failure most likely means on a machine with `facts`.
    public func cause(_ facts: HostFacts) -> SandboxCause {
        switch step {
        case .exec: return code == ENOENT ? .commandNotFound : code == EACCES ? .commandNotExecutable : .other
        case .listen: return code == EADDRINUSE ? .portInUse : .other
        case .loopback: return .loopbackRefused
        case .privateMounts, .bindMount: return facts.apparmorRestrictsUserns == 1 && inUserNamespace ? .userNamespacesRestricted : .mountRefused
        case .userNamespace, .uidMap, .networkNamespace, .mountNamespace:
            if inUserNamespace, facts.unprivilegedUsernsClone == 0 || facts.maxUserNamespaces == 0 { return .userNamespacesDisabled }
            if inUserNamespace, facts.apparmorRestrictsUserns == 1 { return .userNamespacesRestricted }
            if facts.seccompMode == 2 && (code == EPERM || code == ENOSYS) { return .seccompForbids }
            return code == EPERM || code == EACCES || code == ENOSPC ? .notPrivileged : .other
        case .fork, .handOver: return .other
        }
    }

    /// The step in words.
    public var stepDescription: String {
        switch step {
        case .fork: "starting a child process"
        case .userNamespace: "a user namespace (unshare CLONE_NEWUSER)"
        case .uidMap: "mapping the user to root in the user namespace (uid_map, gid_map)"
        case .networkNamespace: "a network namespace (unshare CLONE_NEWNET)"
        case .mountNamespace: "a mount namespace (unshare CLONE_NEWNS)"
        case .privateMounts: "making the namespace's mounts private"
        case .loopback: "bringing the loopback interface up"
        case .listen: "listening on loopback inside"
        case .bindMount: "binding the prepared files over the system's (hosts, CA bundles)"
        case .handOver: "handing the listeners to pushbox"
        case .exec: "starting the command"
        }
    }

    /// The failure in words: what failed, why here, and how to reach pushbox without exec.
    public func explanation(_ facts: HostFacts, command: String? = nil) -> String {
        let error = String(cString: strerror(code))
        let cause = cause(facts)
        let why: String
        switch cause {
        case .commandNotFound: return "\(command ?? "the command"): command not found"
        case .commandNotExecutable: return "\(command ?? "the command"): permission denied (not executable)"
        case .userNamespacesDisabled:
            let setting =
                facts.unprivilegedUsernsClone == 0
                ? "kernel.unprivileged_userns_clone is 0" : "user.max_user_namespaces is 0"
            why =
                "unprivileged user namespaces are switched off on this machine (\(setting)); run pushbox exec as root, or ask for them to be allowed (sysctl)"
        case .userNamespacesRestricted:
            why =
                "AppArmor restricts unprivileged user namespaces here (kernel.apparmor_restrict_unprivileged_userns is 1, as on Ubuntu 23.10 and later); run pushbox exec as root, or allow it with an AppArmor profile for pushbox (or sysctl kernel.apparmor_restrict_unprivileged_userns=0)"
        case .seccompForbids:
            why =
                "a seccomp filter forbids unshare here (\(facts.container ? "this is a container: Docker's default profile does" : "this process has one")); run the container with --security-opt seccomp=unconfined (or a profile that allows unshare), or use another way below"
        case .notPrivileged:
            why =
                facts.container
                ? "this container lacks the privilege (CAP_SYS_ADMIN) to make namespaces; run it with --cap-add SYS_ADMIN, or use another way below"
                : "this process may not make namespaces here"
        case .mountRefused: why = "mounting inside the namespace was refused"
        case .loopbackRefused: why = "the loopback interface could not be brought up inside"
        case .portInUse: why = "a port was already in use inside the new namespace"
        case .other: why = "unexpected on Linux"
        }
        return "pushbox exec cannot run here: \(stepDescription) failed (\(error)): \(why). " + Self.otherWays
    }

    /// The ways to reach pushbox that need no namespace.
    public static let otherWays =
        "Without exec, point the library at pushbox instead: its host and port (127.0.0.1:2197, trusting `pushbox cert --path`), or HTTPS_PROXY=http://127.0.0.1:2197 for libraries that honour a proxy (pushbox answers CONNECT for the push hosts itself)."
}
