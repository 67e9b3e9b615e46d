import Foundation
import PushboxPayload

/// Finds the bundled samples wherever pushbox is started from: beside the executable (walking
/// up from `.build/<triple>/release/`), then from the working directory upward.
/// `PUSHBOX_SAMPLES` overrides both.
public enum ResourceLocator {
    /// The bundled samples' folder, beside the binary or in the project.
    public static let samplesFolderName = "sample-payloads"
    /// The sample app's folder inside it.
    public static let sampleAppFolderName = "SampleApp"
    /// Where `make install` puts the samples, themes and build facts, under the prefix.
    public static let installedFolder = "share/pushbox"

    /// The `sample-payloads` folder, or nil when it cannot be found.
    public static func samplesDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let override = environment["PUSHBOX_SAMPLES"], !override.isEmpty { return override }
        var starts: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append((exe as NSString).deletingLastPathComponent)
        }
        starts.append(FileManager.default.currentDirectoryPath)
        for start in starts {
            var dir = start
            while true {
                // In the project, or installed: PREFIX/bin/pushbox beside PREFIX/share/pushbox/.
                for candidate in [(dir as NSString).appendingPathComponent(samplesFolderName), dir + "/" + installedFolder + "/" + samplesFolderName]
                where FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent(sampleAppFolderName)) {
                    return candidate
                }
                let parent = (dir as NSString).deletingLastPathComponent
                if parent == dir || parent.isEmpty { break }
                dir = parent
            }
        }
        return nil
    }

    /// The bundled sample app folder (the default `--app`).
    public static func sampleAppDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        samplesDirectory(environment: environment).map { ($0 as NSString).appendingPathComponent(sampleAppFolderName) }
    }

    /// The sample payload files (`.json`, `.apns`) at the top of the samples folder, sorted.
    public static func samplePayloadFiles(in directory: String) -> [String] {
        (try? PayloadFile.paths(in: directory)) ?? []
    }
}
