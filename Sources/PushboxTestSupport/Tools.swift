import Foundation

/// The tools on this machine that tests drive or use as oracles, found once.
public enum Tools {
    /// `name` on PATH (then /usr/local/bin, /usr/bin, /bin), or nil.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin"] where !dir.isEmpty {
            let candidate = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// `java` when it can run a source file (a JDK: the jdk.compiler module is there).
    public static let javaRunningSource: String? = {
        guard let java = find("java"), let r = try? Subprocess.run(java, ["--list-modules"], timeout: 60), r.out.contains("jdk.compiler") else {
            return nil
        }
        return java
    }()
}
