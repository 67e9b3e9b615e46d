import Dispatch
import Synchronization
import Testing

@testable import PushboxLocalization

/// ICU's plural rules and number formatters are C objects behind a lock (`@unchecked Sendable`);
/// the renderer's threads share them. Same answers from 8 threads as from one.
@Suite("Plural rules and number formats shared by many threads")
struct PluralThreadsTests {
    @Test("categories and formatted numbers from 8 threads at once equal the ones computed alone")
    func sameAnswers() {
        let languages = ["en", "ar", "ru", "pl", "fr", "ja", "hi", "cy"]
        let numbers: [Double] = [0, 1, 2, 3, 5, 11, 21, 101, 1234.5, 1_000_000]
        @Sendable func answers(_ language: String) -> [String] {
            let rules = PluralRules.forLanguage(language)
            let formatter = NumberFormatterICU.forLanguage(language)
            return numbers.map { "\(rules.category(for: $0).rawValue) \(formatter.format($0) ?? "nil")" }
        }
        let alone = Dictionary(uniqueKeysWithValues: languages.map { ($0, answers($0)) })
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for round in 0..<20 {
                let language = languages[(t + round) % languages.count]
                if answers(language) != alone[language] { mismatches.add(1, ordering: .relaxed) }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(alone["ar"]?.first == "zero 0")
    }
}
