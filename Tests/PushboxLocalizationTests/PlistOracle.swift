import Foundation

@testable import PushboxLocalization

/// CoreFoundation's own property-list parser, as the oracle: swift-corelibs-foundation's
/// `PropertyListSerialization` runs `CFPropertyList.c` and `CFOldStylePList.c`, the code a
/// device reads strings files with (tests only; pushbox never calls it).
enum PlistOracle {
    /// What CoreFoundation reads from `bytes`, or nil when it refuses them.
    static func read(_ bytes: [UInt8]) -> Any? {
        try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
    }

    /// Whether pushbox's value is the one CoreFoundation read.
    static func equal(_ ours: PlistValue, _ theirs: Any) -> Bool {
        switch ours {
        case .string(let s): return (theirs as? String) == s
        case .integer(let i): return (theirs as? NSNumber)?.int64Value == i
        case .real(let r): return (theirs as? NSNumber).map { $0.doubleValue == r || (r.isNaN && $0.doubleValue.isNaN) } ?? false
        case .bool(let b): return (theirs as? NSNumber)?.boolValue == b
        case .date(let t): return (theirs as? Date)?.timeIntervalSinceReferenceDate == t
        case .data(let d): return (theirs as? Data).map(Array.init) == d
        case .array(let a):
            guard let t = theirs as? [Any], t.count == a.count else { return false }
            return zip(a, t).allSatisfy { equal($0, $1) }
        case .dict(let d):
            guard let t = theirs as? [String: Any], t.count == d.count else { return false }
            return d.allSatisfy { k, v in t[k].map { equal(v, $0) } ?? false }
        }
    }

    /// How pushbox's reading of `bytes` differs from CoreFoundation's, or nil when they agree
    /// (both refuse, or both read the same dictionary).
    static func disagreement(_ bytes: [UInt8]) -> String? {
        let theirs = read(bytes).flatMap { $0 as? [String: Any] }
        let ours = try? StringsFileReader.readPlist(bytes, file: "T")
        switch (ours, theirs) {
        case (nil, nil): return nil
        case (let ours?, nil): return "pushbox reads \(ours.dict), CoreFoundation refuses"
        case (nil, let theirs?): return "CoreFoundation reads \(theirs), pushbox refuses: \(refusal(bytes))"
        case (let ours?, let theirs?): return equal(.dict(ours.dict), theirs) ? nil : "pushbox reads \(ours.dict), CoreFoundation \(theirs)"
        }
    }

    private static func refusal(_ bytes: [UInt8]) -> String {
        do {
            _ = try StringsFileReader.readPlist(bytes, file: "T")
            return ""
        } catch { return error.description }
    }
}
