import Foundation

/// The files `pushbox exec` binds over the system's inside its mount namespace, and the
/// variables it sets, written into a private folder of the host that goes when the run ends.
/// The host's own files are never written.
public struct SandboxFiles: Sendable {
    /// One file bound over a system file.
    public struct Bind: Sendable, Equatable {
        /// The prepared file.
        public var source: String
        /// The system file it covers inside.
        public var target: String
    }

    /// The private folder everything was written in.
    public let folder: String
    /// Files bound over system files (CA bundles, resolv.conf, nsswitch.conf, Java's truststore).
    public let binds: [Bind]
    /// The hosts file with the stood-in names on 127.0.0.1 and ::1, and the same without ::1
    /// (bound instead when ::1 does not exist inside).
    public let hosts: String
    public let hostsWithoutIPv6: String
    /// Variables set for the command (and the proxy variables it must not inherit, as nil).
    public let environment: [String: String?]
    /// What could not be prepared, in words (a Java truststore keytool could not make).
    public let notes: [String]

    /// System CA bundles, by distribution: Debian/Ubuntu (and Alpine, Arch), Fedora/RHEL,
    /// Alpine's and OpenSSL's `cert.pem`, openSUSE, OpenELEC.
    public static let caBundlePaths = [
        "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "/etc/ssl/cert.pem", "/etc/ssl/ca-bundle.pem",
        "/etc/pki/tls/cacert.pem",
    ]
    /// Variables naming a CA bundle, for clients that carry their own (Python's requests and
    /// certifi users, curl, OpenSSL-based clients, gRPC).
    public static let bundleVariables = ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH"]
    /// Proxy variables the command does not inherit: inside there is no proxy to reach, and the
    /// push hosts are reached directly.
    public static let proxyVariables = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"]
    /// The password of the JDK's truststores, kept for the copy.
    public static let javaStorePassword = "changeit"

    /// Writes the files for `hostNames` and the CA in `caFile` into a new private folder under
    /// `temporaryRoot`; the Java truststore is cached under `cacheFolder`.
    public static func prepare(
        hostNames: [String], caFile: String, temporaryRoot: String, cacheFolder: String, environment: [String: String],
        systemRoot: String = ""
    ) throws -> SandboxFiles {
        let folder = try makePrivateFolder(in: temporaryRoot)
        let ca = try String(contentsOfFile: caFile, encoding: .utf8)
        var binds: [Bind] = []
        var seen: Set<String> = []
        var bundles: [String] = []
        for path in caBundlePaths {
            let real = (systemRoot + path as NSString).resolvingSymlinksInPath
            guard FileManager.default.fileExists(atPath: real), seen.insert(real).inserted,
                let system = FileManager.default.contents(atPath: real)
            else { continue }
            let combined = folder + "/ca-bundle-\(bundles.count).pem"
            try write(String(decoding: system, as: UTF8.self) + (system.last == 0x0A ? "" : "\n") + ca, to: combined)
            bundles.append(combined)
            binds.append(Bind(source: combined, target: systemRoot + path))
        }
        let bundle = bundles.first ?? folder + "/ca-bundle.pem"
        if bundles.isEmpty { try write(ca, to: bundle) }
        try write(ca, to: folder + "/pushbox-ca.pem")
        // Names fail at once: the only nameserver is loopback, where nothing answers on 53.
        try write(
            "# pushbox exec: no DNS; the names pushbox stands in for are in /etc/hosts\nnameserver 127.0.0.1\noptions timeout:1 attempts:1\n",
            to: folder + "/resolv.conf")
        binds.append(Bind(source: folder + "/resolv.conf", target: systemRoot + "/etc/resolv.conf"))
        if let nsswitch = try? String(contentsOfFile: systemRoot + "/etc/nsswitch.conf", encoding: .utf8) {
            try write(filesThenDNS(nsswitch), to: folder + "/nsswitch.conf")
            binds.append(Bind(source: folder + "/nsswitch.conf", target: systemRoot + "/etc/nsswitch.conf"))
        }
        var variables: [String: String?] = [:]
        for name in bundleVariables { variables[name] = bundle }
        variables["NODE_EXTRA_CA_CERTS"] = folder + "/pushbox-ca.pem"
        for name in proxyVariables { variables[name] = .some(nil) }
        var notes: [String] = []
        switch JavaTrustStore.make(caFile: folder + "/pushbox-ca.pem", cacheFolder: cacheFolder, environment: environment) {
        case .none: break
        case .failure(let why): notes.append(why)
        case .made(let store, let systemStore):
            let options = [
                "-Djavax.net.ssl.trustStore=\(store)", "-Djavax.net.ssl.trustStorePassword=\(javaStorePassword)",
                "-Djavax.net.ssl.trustStoreType=PKCS12",
            ].joined(separator: " ")
            variables["JAVA_TOOL_OPTIONS"] = [environment["JAVA_TOOL_OPTIONS"], options].compactMap { $0 }.joined(separator: " ")
            if let systemStore { binds.append(Bind(source: store, target: systemStore)) }
        }
        let hostname = ProcessInfo.processInfo.hostName
        return SandboxFiles(
            folder: folder, binds: binds, hosts: try hostsFile(hostNames, hostname: hostname, ipv6: true, in: folder),
            hostsWithoutIPv6: try hostsFile(hostNames, hostname: hostname, ipv6: false, in: folder), environment: variables, notes: notes)
    }

    /// The hosts file: localhost and this machine's name, and each stood-in name, on loopback only.
    static func hostsText(_ names: [String], hostname: String, ipv6: Bool) -> String {
        var lines = ["# pushbox exec: the push hosts pushbox stands in for; every other name fails.", "127.0.0.1\tlocalhost \(hostname)"]
        if ipv6 { lines.append("::1\tlocalhost ip6-localhost ip6-loopback") }
        for name in names {
            lines.append("127.0.0.1\t\(name)")
            if ipv6 { lines.append("::1\t\(name)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func hostsFile(_ names: [String], hostname: String, ipv6: Bool, in folder: String) throws -> String {
        let path = folder + (ipv6 ? "/hosts" : "/hosts-ipv4")
        try write(hostsText(names, hostname: hostname, ipv6: ipv6), to: path)
        return path
    }

    /// nsswitch.conf with its `hosts:` line made `files dns`: no resolver service outside the
    /// namespace (systemd-resolved, mDNS) answers for a name.
    static func filesThenDNS(_ text: String) -> String {
        var lines = text.components(separatedBy: "\n").map { line -> String in
            line.trimmingCharacters(in: .whitespaces).hasPrefix("hosts:") ? "hosts:          files dns" : line
        }
        if !lines.contains(where: { $0.hasPrefix("hosts:") }) { lines.append("hosts:          files dns") }
        return lines.joined(separator: "\n")
    }

    /// Removes the folder and what is in it.
    public func remove() { try? FileManager.default.removeItem(atPath: folder) }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
    }

    static func makePrivateFolder(in root: String) throws -> String {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var template = Array((root + "/exec-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw SandboxError.files("cannot make a folder in \(root): \(String(cString: strerror(errno)))")
        }
        // 0700: inside a user namespace its owner is the command's root, so the command reads it.
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// What went wrong preparing the files.
public enum SandboxError: Error, CustomStringConvertible {
    case files(String)
    public var description: String {
        switch self {
        case .files(let why): why
        }
    }
}
