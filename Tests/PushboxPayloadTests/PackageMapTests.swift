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

    @Test("the model and the UI reach no network or cryptography library: only the renderer and the intake link libcurl and OpenSSL")
    func modelLinksNoCurlOrOpenSSL() throws {
        let targets = try Self.targets(try String(contentsOfFile: ProjectPaths.projectRoot + "/Package.swift", encoding: .utf8))
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func closure(_ name: String) -> Set<String> {
            var seen: Set<String> = []
            var todo = [name]
            while let next = todo.popLast() {
                for d in byName[next]?.dependencies ?? [] where seen.insert(d).inserted { todo.append(d) }
            }
            return seen
        }
        let system: Set<String> = ["CCurlShim", "CCrypto", "CSSL"]
        for model in ["PushboxPayload", "PushboxUI", "PushboxLocalization"] {
            #expect(closure(model).isDisjoint(with: system), "\(model) reaches \(closure(model).intersection(system).sorted())")
        }
        // The check can fail: the renderer does reach them.
        #expect(closure("PushboxRendering").isSuperset(of: ["CCurlShim", "CCrypto"]))
    }

    /// The names a Swift module declares: every one when `all` (what `@testable import` sees),
    /// else those it makes public (and the cases of its enums, used as `.name` without the type).
    static func declaredNames(_ folder: String, all: Bool) throws -> Set<String> {
        let modifiers =
            #"(?:(?:static|final|mutating|convenience|override|nonisolated|indirect|private|fileprivate|internal|public|package|@\w+)\s+)*"#
        let kinds = #"(?:class|struct|enum|protocol|typealias|actor|func|var|let|case|subscript)\s+`?([A-Za-z_][A-Za-z0-9_]*)"#
        let declaration = try NSRegularExpression(pattern: (all ? #"(?:^|\s)"# + modifiers : #"public\s+"# + modifiers) + kinds)
        let enumCase = try NSRegularExpression(pattern: #"^\s*case\s+([a-z][A-Za-z0-9_]*)"#, options: .anchorsMatchLines)
        var names: Set<String> = []
        for file in FileManager.default.enumerator(atPath: folder)?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let range = NSRange(location: 0, length: (text as NSString).length)
            for regex in [declaration, enumCase] {
                for m in regex.matches(in: text, range: range) { names.insert((text as NSString).substring(with: m.range(at: 1))) }
            }
        }
        return names
    }

    @Test("no Swift file imports a project module it uses nothing of")
    func everyImportIsUsed() throws {
        let root = ProjectPaths.projectRoot
        let targets = try Self.targets(try String(contentsOfFile: root + "/Package.swift", encoding: .utf8))
        func folder(_ t: Target) -> String { root + "/" + (t.path ?? (t.kind == "testTarget" ? "Tests/" : "Sources/") + t.name) }
        // Swift library modules only: a C module's names come from headers.
        let swiftModules = targets.filter { t in
            t.kind == "target" && !(FileManager.default.enumerator(atPath: folder(t))?.contains { ($0 as? String)?.hasSuffix(".c") == true } ?? false)
        }
        var publicNames: [String: Set<String>] = [:]
        var allNames: [String: Set<String>] = [:]
        for t in swiftModules {
            publicNames[t.name] = try Self.declaredNames(folder(t), all: false)
            allNames[t.name] = try Self.declaredNames(folder(t), all: true)
        }
        #expect(publicNames["PushboxDevice"]?.contains("Phone") == true && allNames["PushboxInbox"]?.contains("FIFO") == true)
        let identifier = try NSRegularExpression(pattern: #"[A-Za-z_][A-Za-z0-9_]*"#)
        var unused: [String] = []
        for t in targets where t.kind != "systemLibrary" {
            for file in FileManager.default.enumerator(atPath: folder(t))?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
                let lines = try String(contentsOfFile: folder(t) + "/" + file, encoding: .utf8).split(separator: "\n")
                var imports: [(module: String, testable: Bool)] = []
                var code = ""
                for line in lines {
                    let words = line.split(separator: " ")
                    if let i = words.firstIndex(of: "import"), i <= 1, i + 1 < words.count {
                        imports.append((String(words[i + 1]), words.first == "@testable"))
                    } else if !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                        code += line + "\n"
                    }
                }
                let used = Set(
                    identifier.matches(in: code, range: NSRange(location: 0, length: (code as NSString).length)).map {
                        (code as NSString).substring(with: $0.range)
                    })
                for i in imports {
                    guard let names = (i.testable ? allNames : publicNames)[i.module] else { continue }
                    if used.isDisjoint(with: names) { unused.append("\(t.name)/\(file): import \(i.module)") }
                }
            }
        }
        #expect(unused.isEmpty, "\(unused.joined(separator: "\n"))")
    }
}
