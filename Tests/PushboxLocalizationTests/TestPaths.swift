import Foundation

enum TestPaths {
    static let projectRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let samples = projectRoot + "/sample-payloads"
    static let sampleApp = samples + "/SampleApp"
    static let corpus = projectRoot + "/../shared/corpus"
    static var corpusExists: Bool { FileManager.default.fileExists(atPath: corpus) }

    /// Every file under the corpus with one of the extensions, sorted.
    static func corpusFiles(_ extensions: Set<String>) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: corpus) else { return [] }
        var out: [String] = []
        while let name = e.nextObject() as? String {
            if extensions.contains((name as NSString).pathExtension) { out.append(corpus + "/" + name) }
        }
        return out.sorted()
    }
}
