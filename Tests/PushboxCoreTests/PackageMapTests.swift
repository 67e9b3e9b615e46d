import Foundation
import PushboxTestSupport
import Testing

/// Package.swift is the map of the modules: each Swift target declares exactly the project
/// modules its files import, so the dependency rule in ARCHITECTURE.md can be read from it.
@Suite("Package.swift matches the imports")
struct PackageMapTests {
    struct Target {
        var name: String, kind: String, dependencies: Set<String>, path: String?
    }

    static func targets(_ manifest: String) throws -> [Target] {
        let pattern = try NSRegularExpression(
            pattern:
                #"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name: "([^"]+)"([^\n]*(?:\n(?!\s*\.(?:target|executableTarget|testTarget|systemLibrary)\()[^\n]*)*)"#
        )
        let text = manifest as NSString
        return pattern.matches(in: manifest, range: NSRange(location: 0, length: text.length)).map { m in
            let rest = text.substring(with: m.range(at: 3))
            let deps = rest.range(of: #"dependencies: \[[^\]]*\]"#, options: .regularExpression).map { String(rest[$0]) } ?? ""
            let names = deps.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            let path = rest.range(of: #"path: "[^"]+""#, options: .regularExpression).map { String(rest[$0].dropFirst(7).dropLast()) }
            return Target(
                name: text.substring(with: m.range(at: 2)), kind: text.substring(with: m.range(at: 1)), dependencies: Set(names), path: path)
        }
    }

    @Test("every Swift target declares the project modules it imports, and no others")
    func declaredIsImported() throws {
        let root = ProjectPaths.projectRoot
        let targets = try Self.targets(try String(contentsOfFile: root + "/Package.swift", encoding: .utf8))
        #expect(targets.count > 30)
        let modules = Set(targets.map(\.name))
        var mismatches: [String] = []
        for target in targets where target.kind != "systemLibrary" {
            let folder = root + "/" + (target.path ?? (target.kind == "testTarget" ? "Tests/" : "Sources/") + target.name)
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            guard !files.contains(where: { $0.hasSuffix(".c") || $0.hasSuffix(".h") }) else { continue }  // C shims
            var imported: Set<String> = []
            for file in files where file.hasSuffix(".swift") {
                for line in try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let i = words.firstIndex(of: "import"), i <= 1, i + 1 < words.count else { continue }
                    let module = String(words[i + 1])
                    if modules.contains(module) { imported.insert(module) }
                }
            }
            let undeclared = imported.subtracting(target.dependencies)
            let unused = target.dependencies.subtracting(imported)
            if !undeclared.isEmpty || !unused.isEmpty {
                mismatches.append("\(target.name): imports undeclared \(undeclared.sorted()), declares unused \(unused.sorted())")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
