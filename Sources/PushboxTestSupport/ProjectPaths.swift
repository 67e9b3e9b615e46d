import Foundation

/// Paths tests read, found from this source file: the project's samples and the shared corpus beside the project.
public enum ProjectPaths {
    public static let projectRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    public static let samples = projectRoot + "/sample-payloads"
    public static let sampleApp = samples + "/SampleApp"
    public static let corpus = projectRoot + "/../shared/corpus"
    public static var corpusExists: Bool { FileManager.default.fileExists(atPath: corpus) }

    /// Every file under the corpus with one of the extensions, sorted.
    public static func corpusFiles(_ extensions: Set<String>) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: corpus) else { return [] }
        var out: [String] = []
        while let name = e.nextObject() as? String {
            if extensions.contains((name as NSString).pathExtension) { out.append(corpus + "/" + name) }
        }
        return out.sorted()
    }
}
