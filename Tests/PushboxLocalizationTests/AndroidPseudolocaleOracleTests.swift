import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxLocalization

/// en-XA and ar-XB as `aapt2 compile --pseudo-localize` makes them, string for string.
@Suite(
    "Android pseudo-locales against AAPT2", .enabled(if: AAPT2.path != nil, "aapt2 is absent (Debian's aapt package): the AAPT2 oracle is skipped"))
struct AndroidPseudolocaleOracleTests {
    static let planted = ##"""
        <resources>
          <string name="a">Hello world</string>
          <string name="b">%1$s and %2$s invited you to play Monopoly</string>
          <string name="c">Hi</string>
          <string name="d">A much longer sentence with several words in it, to see how expansion grows with the length of the text.</string>
          <string name="e">Tap to open {name} now, {count, plural, one {# item} other {# items}}</string>
          <string name="f">100%% sure? Yes! $5 a day, it\'s "quoted"</string>
          <string name="g">Grüße aus Köln — 😀</string>
          <string name="h">Tab\there and a new\nline</string>
          <string name="i">%1$tY in %2$d days, %3$-10s|</string>
          <string name="j">&lt;b&gt;not a tag&lt;/b&gt; &amp; more</string>
          <string name="k" xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">Hi <xliff:g id="n">%1$s</xliff:g>, you have <xliff:g id="c">%2$d</xliff:g> new</string>
        </resources>
        """##

    @Test("every planted string, accented and bidi, equals AAPT2's")
    func planted() throws { try compare(["values/strings.xml": Self.planted]) }

    @Test(
        "every default string of the Android corpus, accented and bidi, equals AAPT2's",
        .enabled(if: FileManager.default.fileExists(atPath: ProjectPaths.corpus + "/android"), "../shared/corpus/android is absent: skipped"))
    func corpus() throws {
        let root = ProjectPaths.corpus + "/android"
        for app in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
            let values = root + "/" + app + "/res/values"
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: values) else { continue }
            var texts: [String: String] = [:]
            for f in files where f.hasSuffix(".xml") { texts["values/" + f] = try String(contentsOfFile: values + "/" + f, encoding: .utf8) }
            try compare(texts)
        }
    }

    func compare(_ files: [String: String]) throws {
        let dir = try AAPT2.folder(files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let compiled = try Subprocess.run(AAPT2.path!, ["compile", "--pseudo-localize", "--dir", dir + "/res", "-o", dir + "/c.zip"])
        try #require(compiled.status == 0, "\(compiled.err)")
        let linked = try Subprocess.run(AAPT2.path!, ["link", "-o", dir + "/o.apk", "--manifest", dir + "/AndroidManifest.xml", dir + "/c.zip"])
        try #require(linked.status == 0, "\(linked.err)")
        let oracle = AAPT2.parse(try Subprocess.run(AAPT2.path!, ["dump", "resources", dir + "/o.apk"]).out)
        var differing: [String] = []
        var compared = 0
        for (path, text) in files {
            let file = AndroidStringsReader.read(Array(text.utf8), path: path)
            for s in file.strings where s.translatable && !s.styled {
                guard let t = s.text else { continue }
                for (config, method) in [("en-rXA", AndroidPseudolocalizer.Method.accent), ("ar-rXB", .bidi)] {
                    let theirs = oracle[AAPT2.Key(type: "string", name: s.name, config: config)]
                    let mine = AAPT2.Value.text(AndroidPseudolocalizer.localize(t, method, untranslatable: s.untranslatable))
                    compared += 1
                    if theirs != mine { differing.append("\(s.name) \(config): pushbox \(mine), aapt2 \(String(describing: theirs))") }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) of \(compared) differ:\n\(differing.prefix(10).joined(separator: "\n"))")
    }
}
