import Foundation
import PushboxFetch
import PushboxInbox
import PushboxIntake
import PushboxLocalization
import PushboxPayload
import PushboxStore
import PushboxTLS
import PushboxTerminal

/// What `pushbox --version` says: the version, the commit it was built from, and the versions of
/// the libraries it runs on, each asked of the library itself.
enum VersionReport {
    static func lines() -> [String] {
        [
            "pushbox \(Pushbox.version)" + (commit().map { " (commit \($0))" } ?? ""), ICUVersion.description + " (the Swift toolchain's)",
            OpenSSLVersion.description, NGHTTP2Version.description, CurlVersion.description, SQLiteVersion.description, NcursesVersion.description,
        ]
    }

    /// The commit: `share/pushbox/commit` of an installed pushbox (written by `make install`),
    /// else the HEAD of the repository the binary was built in.
    static func commit() -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var dir = (exe as NSString).deletingLastPathComponent
        while true {
            if let installed = try? String(contentsOfFile: dir + "/" + ResourceLocator.installedFolder + "/commit", encoding: .utf8) {
                return installed.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if let head = gitHead(dir + "/.git") { return head }
            let parent = (dir as NSString).deletingLastPathComponent
            if parent == dir || parent.isEmpty { return nil }
            dir = parent
        }
    }

    /// The commit `.git/HEAD` names (through its branch ref or packed-refs), abbreviated.
    static func gitHead(_ git: String) -> String? {
        guard let head = try? String(contentsOfFile: git + "/HEAD", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) else {
            return nil
        }
        guard head.hasPrefix("ref: ") else { return String(head.prefix(12)) }
        let ref = String(head.dropFirst(5))
        if let id = try? String(contentsOfFile: git + "/" + ref, encoding: .utf8) { return String(id.prefix(12)) }
        let packed = (try? String(contentsOfFile: git + "/packed-refs", encoding: .utf8)) ?? ""
        return packed.split(separator: "\n").first { $0.hasSuffix(" " + ref) }.map { String($0.prefix(12)) }
    }
}
