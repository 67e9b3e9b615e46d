import Foundation
import PushboxTestSupport
import Testing

/// ARCHITECTURE.md is the map, and a map that is wrong is worse than none: every module it
/// names, every C library it puts in brackets and every dependency its diagram draws is checked
/// against Package.swift, and every feature folder's DESIGN.md is linked from it.
@Suite("ARCHITECTURE.md matches Package.swift")
struct ArchitectureDocTests {
    static let root = ProjectPaths.projectRoot
    static func text() throws -> String { try String(contentsOfFile: root + "/ARCHITECTURE.md", encoding: .utf8) }
    static func targets() throws -> [String: PackageMapTests.Target] {
        let list = try PackageMapTests.targets(try String(contentsOfFile: root + "/Package.swift", encoding: .utf8))
        return Dictionary(list.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The section under `## title`, up to the next `## `.
    static func section(_ text: String, _ title: String) throws -> String {
        let start = try #require(text.range(of: "\n## \(title)\n"), "ARCHITECTURE.md has no section \(title)")
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// Names in `[A, B]` after a module: `Store` → `PushboxStore`, `CSSL` stays.
    static func bracketed(_ list: Substring) -> Set<String> {
        Set(
            list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }.filter { !$0.isEmpty }
                .map { $0.hasPrefix("C") && $0.first?.isUppercase == true && $0.dropFirst().first?.isUppercase == true ? $0 : "Pushbox" + $0 })
    }

    @Test("it is a map, not a manual: under 3,000 words")
    func short() throws {
        #expect(try Self.text().split(whereSeparator: { $0.isWhitespace }).count < 3000)
    }

    @Test("the modules table names every library module of Package.swift, each with the C libraries it links, and links its DESIGN.md")
    func modulesTable() throws {
        let targets = try Self.targets()
        let table = try Self.section(try Self.text(), "Modules")
        let rows = table.split(separator: "\n").compactMap {
            $0.firstMatch(of: /^\| `(Pushbox\w+)` \| (.*) \| \[DESIGN\]\((Sources\/\w+\/DESIGN\.md)\) \|$/)
        }
        let named = Set(rows.map { String($0.1) })
        let libraries = Set(
            targets.values.filter { $0.kind == "target" && $0.name.hasPrefix("Pushbox") }.map(\.name)
                .filter { !["PushboxTestSupport", "PushboxFuzzTargets", "PushboxLoopback"].contains($0) })
        #expect(named == libraries)
        for row in rows {
            let name = String(row.1)
            let cLibraries = Set(targets[name]?.dependencies.filter { !$0.hasPrefix("Pushbox") } ?? [])
            let said = row.2.firstMatch(of: /\[(`C[^\]]*)\]/).map { Self.bracketed($0.1) } ?? []
            #expect(said == cLibraries, "\(name): the table says \(said.sorted()), Package.swift \(cLibraries.sorted())")
            #expect(FileManager.default.fileExists(atPath: Self.root + "/" + row.3), "\(row.3) is missing")
            #expect(row.3 == "Sources/\(name)/DESIGN.md")
        }
        // Every DESIGN.md in Sources is on the map.
        let designs = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/Sources").filter {
            FileManager.default.fileExists(atPath: Self.root + "/Sources/\($0)/DESIGN.md")
        }
        #expect(Set(designs) == named)
    }

    @Test("each DESIGN.md is short and says what it must: what, data flow, main types, where to change what, what not to do")
    func designNotes() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.root + "/Sources") {
            let path = Self.root + "/Sources/\(name)/DESIGN.md"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect((10...40).contains(lines), "\(name)/DESIGN.md has \(lines) lines")
            for heading in ["## Data flow", "## Main types", "## Where to change what", "## What not to do"] {
                #expect(text.contains("\n\(heading)\n"), "\(name)/DESIGN.md lacks \(heading)")
            }
        }
    }

    @Test("the dependency diagram draws exactly the dependencies Package.swift declares between the modules")
    func diagram() throws {
        let targets = try Self.targets()
        let section = try Self.section(try Self.text(), "The dependency rule")
        let open = try #require(section.range(of: "```\n"))
        let body = section[open.upperBound...]
        let diagram = body[..<(try #require(body.range(of: "```")).lowerBound)]
        var seen: [String] = []
        for entry in diagram.matches(of: /(Pushbox\w+)(?: \[([^\]]*)\])?/) {
            let name = String(entry.1)
            let declared = Set(targets[name]?.dependencies.filter { $0.hasPrefix("Pushbox") } ?? [])
            #expect(targets[name] != nil, "the diagram names \(name), which Package.swift has not")
            if let list = entry.2, list.contains("all of the above") {
                #expect(declared.isSubset(of: Set(seen)), "\(name) depends on \(declared.subtracting(seen).sorted()), not above it")
            } else {
                let drawn = entry.2.map(Self.bracketed) ?? []
                #expect(drawn == declared, "\(name): the diagram draws \(drawn.sorted()), Package.swift declares \(declared.sorted())")
            }
            seen.append(name)
        }
        #expect(seen.count >= 17)
    }
}
