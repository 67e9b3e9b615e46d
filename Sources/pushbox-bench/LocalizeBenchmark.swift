import Foundation
import PushboxJSON
import PushboxLocalization

/// `pushbox-bench localize`: the format engine against Foundation's `String(format:)` and the
/// seed's approach (an NSRegularExpression per `%n$@`), and the `.strings` reader against
/// PropertyListSerialization on every corpus `.strings` file.
enum LocalizeBenchmark {
    static let formats: [(String, [String])] = [
        ("%1$@ and %2$@ have invited you to play Monopoly", ["Shelly", "Rick"]),
        ("%2$@에서 %1$@ 님이 글을 올렸습니다. 탭하여 읽어 보세요.", ["Mina", "Busan"]),
        ("%3$@, %1$@ y %2$@ te han invitado", ["Ana", "Luis", "Marta"]),
        ("%2$@から%1$@さんが投稿しました。%3$@件の新着", ["さくら", "東京", "12"]),
        ("%4$@ · %1$@ shared %2$@ with %3$@", ["Zoë", "3 photos", "you", "Today"]),
        ("نشر %1$@ من %2$@. اضغط لقراءته.", ["محمد", "دبي"]),
        ("%1$@ опубликовал(а) пост из города %2$@ в %3$@", ["Андрей", "Казань", "10:30"]),
        ("%1$@ 和 %2$@ 邀请你玩%3$@，还有%4$@人在等", ["李雷", "韩梅梅", "大富翁", "3"]),
    ]

    /// The seed's approach: one regular expression per argument, replacing `%n$@` in turn.
    static func regexApproach(_ format: String, _ args: [String]) -> String {
        var result = format
        for (i, arg) in args.enumerated() {
            guard let regex = try? NSRegularExpression(pattern: "%\(i + 1)\\$@") else { continue }
            result = regex.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result),
                withTemplate: NSRegularExpression.escapedTemplate(for: arg))
        }
        return result
    }

    static func run(iterations: Int, corpus: String?) {
        let renderer = FormatRenderer()
        // All three must agree before they are timed.
        for (f, a) in formats {
            var w: [Diagnostic] = []
            let ours = renderer.render(f, a, warnings: &w)
            let foundation = String(format: f, arguments: a.map { $0 as CVarArg })
            guard ours == foundation, ours == regexApproach(f, a) else {
                print("error: outputs differ for \(f): \(ours) / \(foundation) / \(regexApproach(f, a))")
                exit(1)
            }
        }
        let n = iterations
        var sink = 0
        let ours = best(of: 3) {
            var warnings: [Diagnostic] = []
            for i in 0..<n {
                let (f, a) = formats[i % formats.count]
                sink &+= renderer.render(f, a, warnings: &warnings).utf8.count
            }
        }
        let foundation = best(of: 3) {
            for i in 0..<n {
                let (f, a) = formats[i % formats.count]
                sink &+= String(format: f, arguments: a.map { $0 as CVarArg }).utf8.count
            }
        }
        let regexN = max(n / 10, 1)
        let regex = best(of: 3) {
            for i in 0..<regexN {
                let (f, a) = formats[i % formats.count]
                sink &+= regexApproach(f, a).utf8.count
            }
        }
        let oursNs = ours / Double(n) * 1e9
        let foundationNs = foundation / Double(n) * 1e9
        let regexNs = regex / Double(regexN) * 1e9
        print("pushbox-bench localize: \(formats.count) formats with 2–4 %n$@ arguments, \(n) renders each way (regex: \(regexN))")
        print(String(format: "  pushbox FormatRenderer      %8.0f ns per string   1.00×", oursNs))
        print(
            String(
                format: "  Foundation String(format:)  %8.0f ns per string   %5.2f× pushbox's time (target ≥ 2)", foundationNs, foundationNs / oursNs)
        )
        print(String(format: "  seed's NSRegularExpression  %8.0f ns per string   %5.2f× pushbox's time (target ≥ 10)", regexNs, regexNs / oursNs))

        guard let corpus else {
            print("  .strings parsing: ../shared/corpus not found, skipped")
            return
        }
        var files: [Data] = []
        if let e = FileManager.default.enumerator(atPath: corpus) {
            while let name = e.nextObject() as? String {
                if name.hasSuffix(".strings"), let d = FileManager.default.contents(atPath: corpus + "/" + name) { files.append(d) }
            }
        }
        let bytes = files.map { Array($0) }
        let megabytes = Double(files.reduce(0) { $0 + $1.count }) / 1e6
        let oursParse = best(of: 5) {
            for b in bytes { sink &+= ((try? StringsFileReader.readStrings(b, file: "f"))?.table.count ?? 0) }
        }
        let plist = best(of: 5) {
            for d in files { sink &+= ((try? PropertyListSerialization.propertyList(from: d, format: nil)) as? [String: Any])?.count ?? 0 }
        }
        print(String(format: "  .strings parsing: %d corpus files, %.2f MB", files.count, megabytes))
        print(String(format: "  pushbox StringsFileReader   %8.1f MB/s   1.00×", megabytes / oursParse))
        print(String(format: "  PropertyListSerialization   %8.1f MB/s   %5.2f× pushbox's time (target ≥ 2)", megabytes / plist, plist / oursParse))
        if sink == 42 { print("") }
    }
}
