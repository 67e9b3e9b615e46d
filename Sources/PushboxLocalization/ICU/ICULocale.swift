import Foundation

/// ICU locale ids from BCP 47 tags: `pt-BR` → `pt_BR`, `zh-Hans` → `zh_Hans`.
enum ICULocale {
    static func identifier(for tag: String) -> String {
        tag.replacingOccurrences(of: "-", with: "_")
    }
}
