import Foundation
import PushboxTestSupport
import Testing

@testable import PushboxLocalization

/// Android's own resource runtime as the oracle for step 2 of the locale resolution: Debian's
/// libandroidfw (the Android 10 sources, installed with aapt) compiled into a small program
/// (`AndroidRuntime/resolve.cpp`) that asks `ResTable_config::match` and `isBetterThan`, as
/// AssetManager2 does, which folder serves a request.
@Suite(
    "Android's locale resolution against libandroidfw",
    .enabled(
        if: AndroidRuntime.available,
        "libandroidfw (Debian's android-libandroidfw, installed with aapt) or a C++ compiler is absent: the runtime oracle is skipped"))
struct AndroidRuntimeOracleTests {
    /// Device locales: legacy codes, macro-regions and their children, scripts, US and
    /// international English, Tagalog and Filipino.
    static let requests = [
        "he-IL", "he", "iw", "id-ID", "id", "in", "yi", "ji", "es-AR", "es-US", "es-CO", "es-MX", "es-419", "es-ES", "es", "zh-Hant",
        "zh-TW", "zh-HK", "zh-MO", "zh-Hans", "zh-CN", "zh-SG", "zh", "en-US", "en", "en-AU", "en-GB", "en-IN", "en-CA", "en-150", "en-DE",
        "fil-PH", "fil", "tl", "pt-BR", "pt-PT", "pt-AO", "pt", "sr-Latn-RS", "sr-RS", "sr", "ar-EG", "ar", "de-AT", "fr-CA", "ko-KR",
        "nb-NO", "no",
    ]

    /// Apps' folder sets, as real apps ship them.
    static let apps = [
        "values values-he", "values values-iw", "values values-he values-iw", "values values-id values-in", "values values-yi values-ji",
        "values values-es values-es-rMX values-es-rUS values-b+es+419", "values values-es-rCO values-es-rMX", "values values-es-rES values-es-rUS",
        "values values-es-rAR values-es-rCL values-es", "values values-zh-rHK values-zh-rTW values-zh-rCN", "values values-b+zh+Hant values-zh",
        "values values-zh-rHK values-zh-rMO", "values values-en-rGB values-en-rAU values-en-rIN", "values values-en values-en-rGB",
        "values values-tl values-fil", "values values-tl", "values values-pt values-pt-rPT values-pt-rBR", "values values-pt-rBR",
        "values values-sr values-b+sr+Latn", "values values-ar values-ar-rEG", "values values-de values-fr values-ko values-nb",
        "values values-b+en+001 values-en-rCA",
    ]

    @Test("every device locale against every app's folders: the folder pushbox reads is the one libandroidfw reads")
    func agrees() throws {
        var lines: [String] = []
        var cases: [(String, String)] = []
        for app in Self.apps {
            for request in Self.requests {
                lines.append("\(request) \(app)")
                cases.append((request, app))
            }
        }
        let runtime = try AndroidRuntime()
        let run = try Subprocess.run(runtime.path, [], stdin: lines.joined(separator: "\n") + "\n")
        let oracle = run.out.split(separator: "\n").map(String.init)
        try #require(oracle.count == cases.count, "the oracle answered \(oracle.count) of \(cases.count): \(run.err)")
        var differing: [String] = []
        for ((request, app), expected) in zip(cases, oracle) {
            let folders = app.split(separator: " ").compactMap { AndroidValuesFolder(name: String($0)) }
            let mine = AndroidLocaleResolver.folder(for: AndroidLocale(tag: request), among: folders)?.folder.name ?? "-"
            if mine != expected { differing.append("\(request) in [\(app)]: pushbox \(mine), Android \(expected)") }
        }
        #expect(differing.isEmpty, "\(differing.count) of \(cases.count) differ:\n\(differing.prefix(25).joined(separator: "\n"))")
    }

    @Test("the rules the issue named, each as Android decides it")
    func named() throws {
        let oracle = try AndroidRuntime()
        let named: [(String, String, String)] = [
            ("he-IL", "values values-he", "values"), ("he-IL", "values values-iw", "values-iw"), ("id-ID", "values values-id", "values"),
            ("yi", "values values-ji", "values-ji"), ("es-AR", "values values-es-rCO values-es-rMX", "values-es-rMX"),
            ("zh-Hant", "values values-zh-rHK values-zh-rTW", "values-zh-rTW"), ("fil", "values values-tl values-fil", "values-fil"),
        ]
        let run = try Subprocess.run(oracle.path, [], stdin: named.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n")
        #expect(run.out.split(separator: "\n").map(String.init) == named.map(\.2), "the oracle itself: \(run.err)")
        for (request, app, expected) in named {
            let folders = app.split(separator: " ").compactMap { AndroidValuesFolder(name: String($0)) }
            #expect(AndroidLocaleResolver.folder(for: AndroidLocale(tag: request), among: folders)?.folder.name == expected, "\(request) in \(app)")
        }
    }
}

/// The oracle program, compiled from `AndroidRuntime/resolve.cpp` against the installed
/// libandroidfw into a folder of its own, removed with it.
struct AndroidRuntime {
    static let library = "/usr/lib/x86_64-linux-gnu/android/libandroidfw.so.0"
    static let compiler = Tools.find("g++") ?? Tools.find("c++") ?? Tools.find("clang++")
    static var available: Bool { FileManager.default.fileExists(atPath: library) && compiler != nil }

    let folder = TemporaryFolder("pushbox-androidfw")
    var path: String { folder.path + "/resolve" }

    init() throws {
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let source = ProjectPaths.projectRoot + "/Tests/PushboxLocalizationTests/AndroidRuntime/resolve.cpp"
        let dir = (Self.library as NSString).deletingLastPathComponent
        let built = try Subprocess.run(try #require(Self.compiler), ["-O1", "-o", path, source, Self.library, "-Wl,-rpath," + dir], timeout: 120)
        try #require(built.status == 0, "the oracle did not compile: \(built.err)")
    }
}
