import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxLocalization

/// `strings.xml` read as AAPT2 reads it, checked against AAPT2 itself (Debian's `aapt`
/// package): `aapt2 compile` + `link` + `dump resources` on the same files, every string equal.
@Suite("strings.xml against AAPT2", .enabled(if: AAPT2.path != nil, "aapt2 is absent (Debian's aapt package): the AAPT2 oracle is skipped"))
struct AndroidStringsOracleTests {
    /// Planted cases: whitespace, quotes, every escape, spans, xliff:g, CDATA, entities,
    /// references, formatted="false", comments between text runs.
    static let plantedFile = ##"""
        <?xml version="1.0" encoding="utf-8"?>
        <resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2" xmlns:tools="http://schemas.android.com/tools">
          <string name="collapse">  Hello   world
             again  </string>
          <string name="quoted">"  kept   as is  "</string>
          <string name="half">a "b  c" d  e</string>
          <string name="apostrophe_quoted">"It's fine"</string>
          <string name="escapes">It\'s \u00e9\u4e2d \n tab\tx \@ \? \# \\ \"q\" \z</string>
          <string name="short_unicode">end \u41</string>
          <string name="xliff">Hi <xliff:g id="name" example="Ana">%1$s</xliff:g>, you have <xliff:g id="n">%2$d</xliff:g> new</string>
          <string name="spans">  <b>bold</b>   and <i>it</i>  </string>
          <string name="nested_span"><b>a <i>b</i> c</b></string>
          <string name="cdata"><![CDATA[<b>not a tag</b>   x]]></string>
          <string name="entities">&lt;tag&gt; &amp; &quot;quoted&quot; &#65;&#x42; \&apos;</string>
          <string name="reference">@string/collapse</string>
          <string name="escaped_at">\@string/collapse</string>
          <string name="not_formatted" formatted="false">%s and %d</string>
          <string name="positional">%1$s and %2$s</string>
          <string name="untranslatable" translatable="false">Pushbox</string>
          <string name="comment_split">one<!-- a comment -->  two</string>
          <string name="empty"></string>
          <string name="only_space">   </string>
          <string name="trailing_escape">ends with a newline\n</string>
          <string name="tools" tools:ignore="MissingTranslation">tools attribute</string>
          <string name="unicode">Grüße 😀 مرحبا</string>
          <plurals name="items"><item quantity="one">%d item</item><item quantity="other">%d items</item></plurals>
          <string-array name="names"><item>Ana</item><item>"Bo  b"</item></string-array>
        </resources>
        """##

    @Test("every planted string equals what AAPT2 stores")
    func planted() throws {
        try compare(folders: ["values": Self.plantedFile])
    }

    @Test("a translation folder, a BCP 47 folder and a legacy code compile to the same strings AAPT2 gives")
    func folders() throws {
        try compare(folders: [
            "values": #"<resources><string name="a">Hello</string><string name="b">Only default</string></resources>"#,
            "values-ko": #"<resources><string name="a">안녕하세요</string><string name="c">Only in Korean</string></resources>"#,
            "values-b+sr+Latn": #"<resources><string name="a">Zdravo</string></resources>"#,
            "values-iw": #"<resources><string name="a">שלום</string></resources>"#,
            "values-pt-rBR": #"<resources><string name="a">Olá   "  Brasil  "</string></resources>"#,
        ])
    }

    @Test("what AAPT2 refuses, pushbox refuses with the line: an unescaped apostrophe, a bad \\u, broken XML, a duplicate")
    func refusals() throws {
        let cases = [
            ("apostrophe", "<resources>\n<string name=\"a\">It's</string>\n</resources>", 2),
            ("unicode", "<resources>\n\n<string name=\"a\">\\u12G4</string>\n</resources>", 3),
            ("xml", "<resources>\n<string name=\"a\">x</strin>\n</resources>", 2),
            ("duplicate", "<resources>\n<string name=\"a\">x</string>\n<string name=\"a\">y</string>\n</resources>", 3),
            ("entity", "<resources>\n<string name=\"a\">&nbsp;</string>\n</resources>", 2),
        ]
        for (name, text, line) in cases {
            let file = AndroidStringsReader.read(Array(text.utf8), path: "res/values/strings.xml")
            #expect(file.errors.first?.line == line, "\(name): \(file.errors)")
            #expect(file.strings.isEmpty, "\(name): a refused file is dropped whole")
            #expect(try AAPT2.compileFails(["values": text]), "\(name): aapt2 compiled it")
        }
    }

    @Test(
        "every string of every file of the Android corpus equals what AAPT2 stores",
        .enabled(if: FileManager.default.fileExists(atPath: ProjectPaths.corpus + "/android"), "../shared/corpus/android is absent: skipped"))
    func corpus() throws {
        let root = ProjectPaths.corpus + "/android"
        for app in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
            let res = root + "/" + app + "/res"
            guard FileManager.default.fileExists(atPath: res) else { continue }
            var folders: [String: String] = [:]
            for folder in try FileManager.default.contentsOfDirectory(atPath: res) where folder.hasPrefix("values") {
                for file in try FileManager.default.contentsOfDirectory(atPath: res + "/" + folder) where file.hasSuffix(".xml") {
                    folders[folder + "/" + file] = try String(contentsOfFile: res + "/" + folder + "/" + file, encoding: .utf8)
                }
            }
            let checked = try compare(files: folders)
            #expect(checked > 1000, "\(app): only \(checked) strings compared")
        }
    }

    /// `folders` is folder → one strings.xml's text.
    func compare(folders: [String: String]) throws {
        _ = try compare(files: Dictionary(uniqueKeysWithValues: folders.map { ($0.key + "/strings.xml", $0.value) }))
    }

    /// `files` is `folder/file.xml` → text; returns how many values were compared.
    @discardableResult
    func compare(files: [String: String]) throws -> Int {
        let oracle = try AAPT2.dump(files)
        var mine: [AAPT2.Key: AAPT2.Value] = [:]
        for (path, text) in files {
            let folder = String(path.split(separator: "/")[0])
            let config = folder == "values" ? "" : String(folder.dropFirst("values-".count))
            let file = AndroidStringsReader.read(Array(text.utf8), path: path)
            #expect(file.errors.isEmpty, "\(path): \(file.errors)")
            for s in file.strings {
                switch s.value {
                case .text(let t): mine[AAPT2.Key(type: "string", name: s.name, config: config)] = .text(t)
                case .reference(let type, let name, let package):
                    mine[AAPT2.Key(type: "string", name: s.name, config: config)] = .reference(
                        "@" + (package.map { $0 + ":" } ?? "") + type + "/" + name)
                case .null: mine[AAPT2.Key(type: "string", name: s.name, config: config)] = .reference("@null")
                }
            }
            for (name, items) in file.plurals {
                for (quantity, t) in items { mine[AAPT2.Key(type: "plurals/" + quantity, name: name, config: config)] = .text(t) }
            }
        }
        // `aapt2 link` removes a resource with no default value ("without required default value").
        let defaults = Set(mine.keys.filter { $0.config.isEmpty }.map { "\($0.type.split(separator: "/")[0])/\($0.name)" })
        mine = mine.filter { defaults.contains("\($0.key.type.split(separator: "/")[0])/\($0.key.name)") }
        let keys = Set(oracle.keys).union(mine.keys)
        let differing = keys.filter { mine[$0] != oracle[$0] }.sorted { "\($0)" < "\($1)" }
        let shown = differing.prefix(20).map { "\($0): pushbox \(String(describing: mine[$0])), aapt2 \(String(describing: oracle[$0]))" }
        #expect(differing.isEmpty, "\(differing.count) of \(keys.count) differ:\n\(shown.joined(separator: "\n"))")
        return keys.count
    }
}

/// AAPT2, run on files in a temporary folder.
enum AAPT2 {
    static let path = Tools.find("aapt2")

    struct Key: Hashable, CustomStringConvertible {
        var type: String
        var name: String
        var config: String
        var description: String { "\(type)/\(name) (\(config.isEmpty ? "default" : config))" }
    }

    enum Value: Equatable {
        case text(String)
        case reference(String)
    }

    static func folder(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pbaapt-\(UUID().uuidString.prefix(8))").path
        for (path, text) in files {
            let full = dir + "/res/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
        try Data(#"<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="dev.pushbox.oracle"/>"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/AndroidManifest.xml"))
        return dir
    }

    static func compileFails(_ folders: [String: String]) throws -> Bool {
        let dir = try folder(Dictionary(uniqueKeysWithValues: folders.map { ($0.key + "/strings.xml", $0.value) }))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Subprocess.run(path!, ["compile", "--dir", dir + "/res", "-o", dir + "/compiled.zip"])
        return r.status != 0
    }

    /// What AAPT2 stores for each string and plural item of `files`.
    static func dump(_ files: [String: String]) throws -> [Key: Value] {
        let dir = try folder(files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let compiled = try Subprocess.run(path!, ["compile", "--dir", dir + "/res", "-o", dir + "/compiled.zip"])
        try #require(compiled.status == 0, "aapt2 compile: \(compiled.err)")
        let linked = try Subprocess.run(path!, ["link", "-o", dir + "/out.apk", "--manifest", dir + "/AndroidManifest.xml", dir + "/compiled.zip"])
        try #require(linked.status == 0, "aapt2 link: \(linked.err)")
        let dumped = try Subprocess.run(path!, ["dump", "resources", dir + "/out.apk"])
        try #require(dumped.status == 0, "aapt2 dump: \(dumped.err)")
        return parse(dumped.out)
    }

    /// `dump resources`' text: `  type string …`, `    resource 0x… string/NAME`, then per
    /// configuration `      (CONFIG) "VALUE"` (a value may run over several lines),
    /// `(CONFIG) (styled string) "VALUE" spans…`, `(CONFIG) @string/x`; plurals' items are
    /// `        one="VALUE"`.
    static func parse(_ text: String) -> [Key: Value] {
        var out: [Key: Value] = [:]
        var type = ""
        var name = ""
        var pending: (key: Key, text: String, styled: Bool)?
        func finish() {
            guard let p = pending else { return }
            // Empty lines after the closing quote separate entries; those before it are the value's.
            var t = p.text
            while t.hasSuffix("\n") { t.removeLast() }
            if p.styled, let close = t.range(of: "\"", options: .backwards) {
                t = String(t[..<close.lowerBound])
            } else if t.hasSuffix("\"") {
                t.removeLast()
            }
            out[p.key] = .text(t)
            pending = nil
        }
        var config = ""
        for line in text.components(separatedBy: "\n") {
            // A value's later lines are indented as its first: 6 spaces, 8 for a plural's item.
            let indent = pending?.key.type.hasPrefix("plurals/") == true ? "        " : "      "
            let structural = line.hasPrefix("  type ") || line.hasPrefix("    resource 0x") || line.hasPrefix("      (")
            if !structural, pending != nil, line.hasPrefix(indent) || line.isEmpty,
                !(type == "plurals" && line.hasPrefix("        ") && line.contains("=\""))
            {
                pending!.text += "\n" + line.dropFirst(indent.count)
                continue
            }
            finish()
            if line.hasPrefix("  type ") {
                type = String(line.split(separator: " ")[1])
            } else if line.hasPrefix("    resource 0x") {
                name = String(line.split(separator: " ").last!.split(separator: "/").last!)
            } else if line.hasPrefix("      (") {
                guard let close = line.firstIndex(of: ")") else { continue }
                config = String(line[line.index(line.startIndex, offsetBy: 7)..<close])
                var rest = String(line[line.index(after: close)...].dropFirst())
                guard type == "string" else { continue }
                let key = Key(type: "string", name: name, config: config)
                if rest.hasPrefix("@") {
                    out[key] = .reference(rest)
                } else if rest.hasPrefix("(styled string) \"") {
                    rest = String(rest.dropFirst("(styled string) \"".count))
                    pending = (key, rest, true)
                } else if rest.hasPrefix("\"") {
                    pending = (key, String(rest.dropFirst()), false)
                }
            } else if type == "plurals", line.hasPrefix("        "), let eq = line.range(of: "=\"") {
                let quantity = line[..<eq.lowerBound].trimmingCharacters(in: .whitespaces)
                pending = (Key(type: "plurals/" + quantity, name: name, config: config), String(line[eq.upperBound...]), false)
            }
        }
        finish()
        return out
    }
}
