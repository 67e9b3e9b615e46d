import Foundation
import Testing

@testable import PushboxSandbox

/// The files exec binds over the system's, prepared against a made-up system root: what each
/// holds, and that the host's own files are only read.
@Suite("pushbox exec's files: hosts, CA bundles, resolver, variables")
struct SandboxFilesTests {
    final class Root {
        let path = "/tmp/pbsf-\(UUID().uuidString.prefix(8))"
        init() throws {
            for dir in ["/etc/ssl/certs", "/etc/pki/tls/certs", "/ca", "/tmp", "/cache"] {
                try FileManager.default.createDirectory(atPath: path + dir, withIntermediateDirectories: true)
            }
        }
        func write(_ text: String, _ relative: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path + relative)) }
        func read(_ absolute: String) throws -> String { try String(contentsOfFile: absolute, encoding: .utf8) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let ca = "-----BEGIN CERTIFICATE-----\nPUSHBOX\n-----END CERTIFICATE-----\n"

    func prepare(_ root: Root, environment: [String: String] = ["PATH": "/nonexistent"]) throws -> SandboxFiles {
        try root.write(Self.ca, "/ca/ca.pem")
        return try SandboxFiles.prepare(
            hostNames: ["api.push.apple.com", "fcm.googleapis.com"], caFile: root.path + "/ca/ca.pem", temporaryRoot: root.path + "/tmp",
            cacheFolder: root.path + "/cache", environment: environment, systemRoot: root.path)
    }

    @Test("each system CA bundle that exists gets a copy with pushbox's CA appended; a link to one already covered is bound once")
    func bundles() throws {
        let root = try Root()
        try root.write("SYSTEM-DEBIAN", "/etc/ssl/certs/ca-certificates.crt")
        try root.write("SYSTEM-FEDORA\n", "/etc/pki/tls/certs/ca-bundle.crt")
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/etc/ssl/cert.pem", withDestinationPath: root.path + "/etc/ssl/certs/ca-certificates.crt")
        let files = try prepare(root)
        defer { files.remove() }
        let bundles = files.binds.filter { $0.target.contains("/etc/ssl/") || $0.target.contains("/etc/pki/") }
        #expect(bundles.map(\.target) == [root.path + "/etc/ssl/certs/ca-certificates.crt", root.path + "/etc/pki/tls/certs/ca-bundle.crt"])
        #expect(try root.read(bundles[0].source) == "SYSTEM-DEBIAN\n" + Self.ca)
        #expect(try root.read(bundles[1].source) == "SYSTEM-FEDORA\n" + Self.ca)
        // The system's files are untouched.
        #expect(try root.read(root.path + "/etc/ssl/certs/ca-certificates.crt") == "SYSTEM-DEBIAN")
        #expect(files.environment["SSL_CERT_FILE"] == .some(bundles[0].source))
        #expect(files.environment["REQUESTS_CA_BUNDLE"] == .some(bundles[0].source))
        #expect(files.environment["CURL_CA_BUNDLE"] == .some(bundles[0].source))
        #expect(try root.read(try #require(files.environment["NODE_EXTRA_CA_CERTS"] ?? nil)) == Self.ca)
    }

    @Test("no system bundle: the variables name a bundle of pushbox's CA alone, and nothing is bound over a missing file")
    func noBundle() throws {
        let root = try Root()
        let files = try prepare(root)
        defer { files.remove() }
        #expect(!files.binds.contains { $0.target.hasSuffix(".crt") || $0.target.hasSuffix(".pem") })
        #expect(try root.read(try #require(files.environment["SSL_CERT_FILE"] ?? nil)) == Self.ca)
    }

    @Test("hosts: the stood-in names on 127.0.0.1 and ::1 (or 127.0.0.1 alone), localhost and the machine's name, nothing else")
    func hosts() throws {
        let root = try Root()
        let files = try prepare(root)
        defer { files.remove() }
        let lines = try root.read(files.hosts).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let names = Set(lines.flatMap { $0.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst() })
        #expect(names.isSuperset(of: ["api.push.apple.com", "fcm.googleapis.com", "localhost"]))
        for line in lines { #expect(line.hasPrefix("127.0.0.1\t") || line.hasPrefix("::1\t"), "\(line)") }
        #expect(lines.contains("::1\tapi.push.apple.com"))
        #expect(try !root.read(files.hostsWithoutIPv6).contains("::1"))
    }

    @Test("resolv.conf has only a loopback nameserver; nsswitch.conf keeps every line but hosts, which becomes files dns")
    func resolver() throws {
        let root = try Root()
        try root.write(
            "passwd: files systemd\nhosts:  files mdns4_minimal [NOTFOUND=return] resolve dns myhostname\nnetworks: files\n", "/etc/nsswitch.conf")
        let files = try prepare(root)
        defer { files.remove() }
        let resolv = try #require(files.binds.first { $0.target.hasSuffix("/etc/resolv.conf") })
        let servers = try root.read(resolv.source).split(separator: "\n").filter { $0.hasPrefix("nameserver") }
        #expect(servers == ["nameserver 127.0.0.1"])
        let nsswitch = try #require(files.binds.first { $0.target.hasSuffix("/etc/nsswitch.conf") })
        let lines = try root.read(nsswitch.source).split(separator: "\n").map(String.init)
        #expect(lines == ["passwd: files systemd", "hosts:          files dns", "networks: files"])
    }

    @Test("the proxy variables are removed for the command: inside, the push hosts are reached directly")
    func proxies() throws {
        let root = try Root()
        let files = try prepare(root)
        defer { files.remove() }
        for name in ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "ALL_PROXY"] { #expect(files.environment[name] == .some(nil), "\(name)") }
    }

    @Test("the folder is private and goes with remove()")
    func folder() throws {
        let root = try Root()
        let files = try prepare(root)
        var info = stat()
        #expect(stat(files.folder, &info) == 0 && info.st_mode & 0o077 == 0)
        files.remove()
        #expect(!FileManager.default.fileExists(atPath: files.folder))
    }
}

/// Why exec cannot run, as a code, from what the machine says.
@Suite("pushbox exec where it cannot run: the cause and the other ways")
struct SandboxCauseTests {
    static let plain = HostFacts(
        root: false, unprivilegedUsernsClone: nil, maxUserNamespaces: 1000, apparmorRestrictsUserns: nil, seccompMode: 0, container: false)

    func cause(_ step: SandboxFailure.Step, _ code: Int32, user: Bool = true, _ change: (inout HostFacts) -> Void = { _ in }) -> SandboxCause {
        var facts = Self.plain
        change(&facts)
        return SandboxFailure(step: step, code: code, index: -1, inUserNamespace: user).cause(facts)
    }

    @Test("user namespaces switched off by either sysctl, restricted by AppArmor, forbidden by seccomp, or no privilege in a container")
    func causes() {
        #expect(cause(.userNamespace, ENOSPC) { $0.maxUserNamespaces = 0 } == .userNamespacesDisabled)
        #expect(cause(.userNamespace, EPERM) { $0.unprivilegedUsernsClone = 0 } == .userNamespacesDisabled)
        #expect(cause(.uidMap, EPERM) { $0.apparmorRestrictsUserns = 1 } == .userNamespacesRestricted)
        #expect(cause(.privateMounts, EPERM) { $0.apparmorRestrictsUserns = 1 } == .userNamespacesRestricted)
        #expect(
            cause(.userNamespace, EPERM) {
                $0.seccompMode = 2
                $0.container = true
            } == .seccompForbids)
        #expect(
            cause(.networkNamespace, EPERM, user: false) {
                $0.root = true
                $0.container = true
            } == .notPrivileged)
        #expect(cause(.bindMount, EACCES) == .mountRefused)
        #expect(cause(.listen, EADDRINUSE) == .portInUse)
        #expect(cause(.exec, ENOENT) == .commandNotFound)
        #expect(cause(.exec, EACCES) == .commandNotExecutable)
    }

    @Test("every refusal to make the namespaces names the other ways: host and port, and HTTPS_PROXY")
    func otherWays() {
        for step in [SandboxFailure.Step.userNamespace, .uidMap, .networkNamespace, .mountNamespace, .privateMounts, .loopback, .bindMount] {
            let text = SandboxFailure(step: step, code: EPERM, index: -1, inUserNamespace: true).explanation(Self.plain)
            #expect(text.contains("127.0.0.1:2197") && text.contains("HTTPS_PROXY="), "\(step)")
        }
    }

    @Test("the facts are read from /proc: the sysctls, the seccomp mode, a container's marker")
    func facts() throws {
        let root = "/tmp/pbhf-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for dir in ["/proc/sys/kernel", "/proc/sys/user", "/proc/self"] {
            try FileManager.default.createDirectory(atPath: root + dir, withIntermediateDirectories: true)
        }
        try Data("0\n".utf8).write(to: URL(fileURLWithPath: root + "/proc/sys/user/max_user_namespaces"))
        try Data("1\n".utf8).write(to: URL(fileURLWithPath: root + "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"))
        try Data("Name:\tpushbox\nSeccomp:\t2\nSeccomp_filters:\t1\n".utf8).write(to: URL(fileURLWithPath: root + "/proc/self/status"))
        try Data().write(to: URL(fileURLWithPath: root + "/.dockerenv"))
        let facts = HostFacts.read(root: root)
        #expect(facts.maxUserNamespaces == 0)
        #expect(facts.apparmorRestrictsUserns == 1)
        #expect(facts.unprivilegedUsernsClone == nil)
        #expect(facts.seccompMode == 2)
        #expect(facts.container)
    }
}
