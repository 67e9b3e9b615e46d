import Foundation

/// Paths tests read, found from this source file: the project's samples and the shared corpus beside the project.
public enum ProjectPaths {
    /// The project's folder, from this file's path.
    public static let projectRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    /// The project's `sample-payloads` folder.
    public static let samples = projectRoot + "/sample-payloads"
    /// The bundled sample app.
    public static let sampleApp = samples + "/SampleApp"
    /// `../shared/corpus` beside the project (third-party data; may be absent).
    public static let corpus = projectRoot + "/../shared/corpus"
    /// Whether the corpus is there (tests skip without it).
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
