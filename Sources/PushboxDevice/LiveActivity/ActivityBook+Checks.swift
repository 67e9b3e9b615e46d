import Foundation
import PushboxJSON
import PushboxPayload

/// The checks a Live Activity push's content meets, and how the trace words times.
extension ActivityBook {
    /// A content state checked, or the outcome of refusing it.
    enum StateCheck {
        case checked(JSONValue)
        case refused(LiveActivityOutcome)
    }

    /// The content state checked: decodable with the schema, within 4 KB.
    func checkState(_ state: JSONValue, schema: ActivityTypeSchema?, notes: inout [String]) -> StateCheck {
        switch check(state, schema?.contentState, root: "state", dates: schema?.dates ?? .deferredToDate) {
        case .failure(let f):
            var o = LiveActivityOutcome(event: "", applied: false, drop: .stateDoesNotDecode, detail: f.message)
            o.notes = ["decoding: \(f.kind.rawValue)"]
            return .refused(o)
        case .success(let (value, note)):
            notes += note
            let size = LiveActivityPush.encodedSize(value)
            if size > LiveActivityPush.maxEncodedBytes {
                return .refused(
                    LiveActivityOutcome(
                        event: "", applied: false, drop: .stateTooLarge,
                        detail: "the content state is \(size) bytes once encoded; the limit is 4,096"))
            }
            let inflated = LiveActivityPush.inflatedSize(value)
            if inflated > LiveActivityPush.maxEncodedBytes {
                notes.append(
                    "\(size) bytes as sent, but \(inflated) if its fractional numbers are written with 17 digits, as some iOS versions re-encode them (1.91 → 1.9099999999999999): it may be refused on a device"
                )
            }
            return .checked(value)
        }
    }

    /// A value checked against its schema; without one it is taken as sent, and the notes say so.
    func check(_ value: JSONValue, _ type: SchemaType?, root: String, dates: DateDecoding) -> Result<(JSONValue, [String]), DecodingFailure> {
        guard let type else {
            return .success((value, ["\(root): the app profile declares no schema for it, so pushbox could not check that it decodes"]))
        }
        return ContentDecoder.decode(value, as: type, root: root, dates: dates).map { decoded in
            (decoded.encoded, decoded.dates.map { "\($0.path) decodes to \(Self.clock($0.date.timeIntervalSince1970)) (\(dates.rawValue))" })
        }
    }

    /// A note when the content is stale from the start.
    func staleNote(_ d: ActivityDelivery) -> [String] {
        guard let stale = d.push.staleDate, stale <= d.now else { return [] }
        return ["its stale-date \(Self.clock(stale)) is already past: the activity is stale at once"]
    }

    /// The alert a push lights, in a few words.
    static func alertSummary(_ alert: JSONValue?) -> String? {
        guard let alert else { return nil }
        if let s = alert.stringValue { return s }
        guard let o = alert.objectValue else { return nil }
        func part(_ v: JSONValue?) -> String? { v?.stringValue ?? v?.objectValue?["loc-key"]?.stringValue }
        let parts = [part(o["title"]), part(o["body"])].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " — ")
    }

    /// A device-clock time as the trace writes it (UTC, ISO 8601).
    static func clock(_ t: Double) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date(timeIntervalSince1970: t))
    }

    /// A span in hours and minutes.
    static func hours(_ s: Double) -> String {
        // A timestamp years ahead is said in hours all the same, never converted past Int's range.
        guard s.isFinite, s < 1e12 else { return "more than \(Int(1e12 / 3600)) h" }
        let m = Int(s / 60)
        return "\(m / 60) h \(m % 60) min"
    }
}
