import Foundation

/// Byte counts for people: "1.5 kB".
enum ByteFormat {
    static func describe(_ n: Int) -> String {
        if n < 1000 { return "\(n) B" }
        if n < 1_000_000 { return String(format: "%.1f kB", Double(n) / 1000) }
        return String(format: "%.1f MB", Double(n) / 1_000_000)
    }
}
