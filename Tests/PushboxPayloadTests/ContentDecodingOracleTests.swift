import Foundation
import PushboxJSON
import Testing

@testable import PushboxPayload

/// `ContentDecoder` against Foundation's own `JSONDecoder` decoding the same struct: for each
/// input, both succeed, or both fail with the same `DecodingError` case at the same path.
@Suite("Content-state decoding agrees with Foundation's JSONDecoder")
struct ContentDecodingOracleTests {
    enum Period: String, Decodable {
        case first, second
    }

    struct Courier: Decodable {
        let name: String
        let rating: Double?
    }

    /// The struct the schema below declares, as an app writes it.
    struct State: Decodable {
        let score: Int
        let ratio: Double
        let live: Bool
        let period: Period
        let note: String?
        let stops: [Int]
        let courier: Courier
        let eta: Date
    }

    static let schema = SchemaType.structure([
        SchemaField(name: "score", type: .int), SchemaField(name: "ratio", type: .double), SchemaField(name: "live", type: .bool),
        SchemaField(name: "period", type: .enumeration([.string("first"), .string("second")])),
        SchemaField(name: "note", type: .optional(.string)), SchemaField(name: "stops", type: .array(.int)),
        SchemaField(
            name: "courier", type: .structure([SchemaField(name: "name", type: .string), SchemaField(name: "rating", type: .optional(.double))])),
        SchemaField(name: "eta", type: .date),
    ])

    static let valid = #"{"score": 1, "ratio": 0.5, "live": true, "period": "first", "stops": [1, 2], "courier": {"name": "Kim"}, "eta": 1000}"#

    /// Inputs: the valid state with one field replaced (a JSON fragment) or removed (nil).
    static let variants: [(String, String?)] = [
        ("score", "1.0"), ("score", "1e2"), ("score", "1.5"), ("score", "\"1\""), ("score", "true"), ("score", "null"), ("score", nil),
        ("score", "9223372036854775807"), ("score", "9223372036854775808"), ("score", "-9223372036854775808"),
        ("ratio", "1"), ("ratio", "\"0.5\""), ("ratio", "1e400"), ("ratio", "1e-400"), ("ratio", "null"),
        ("live", "1"), ("live", "\"true\""), ("live", "false"),
        ("period", "\"third\""), ("period", "1"), ("period", "\"second\""),
        ("note", "null"), ("note", "7"), ("note", nil), ("note", "\"fine\""),
        ("stops", "[]"), ("stops", "[1, \"x\"]"), ("stops", "[1, null]"), ("stops", "{}"), ("stops", "3"),
        ("courier", "{}"), ("courier", "{\"name\": 3}"), ("courier", "{\"name\": \"a\", \"rating\": \"x\"}"), ("courier", "[]"),
        ("eta", "\"2026-12-01T10:00:00Z\""), ("eta", "1.5"), ("extra", "{\"ignored\": true}"),
    ]

    /// The valid state with `key` replaced by `fragment` (nil: removed).
    static func input(_ key: String, _ fragment: String?) throws -> String {
        var o = try #require(try JSONParser.parse(Array(valid.utf8)).objectValue)
        o[key] = try fragment.map { try JSONParser.parse(Array($0.utf8)) }
        return JSONWriter.compact(.object(o))
    }

    /// Foundation's verdict: nil when it decodes, else the case and the coding path as
    /// `ContentDecoder` writes it (`state.stops[1]`).
    static func foundation(_ json: String) -> (kind: String, path: String)? {
        do {
            _ = try JSONDecoder().decode(State.self, from: Data(json.utf8))
            return nil
        } catch let error as DecodingError {
            func path(_ keys: [CodingKey]) -> String {
                keys.reduce("state") { p, k in
                    if let i = k.intValue { return p + "[\(i)]" }
                    return p + "." + k.stringValue
                }
            }
            switch error {
            case .keyNotFound(let key, let c): return ("keyNotFound", path(c.codingPath + [key]))
            case .valueNotFound(_, let c): return ("valueNotFound", path(c.codingPath))
            case .typeMismatch(_, let c): return ("typeMismatch", path(c.codingPath))
            case .dataCorrupted(let c): return ("dataCorrupted", path(c.codingPath))
            @unknown default: return ("unknown", "")
            }
        } catch {
            return ("other", "\(error)")
        }
    }

    /// pushbox's verdict in the same terms.
    static func pushbox(_ json: String) throws -> (kind: String, path: String)? {
        switch ContentDecoder.decode(try JSONParser.parse(Array(json.utf8)), as: schema, root: "state", dates: .deferredToDate) {
        case .success: return nil
        case .failure(let f):
            switch f.kind {
            case .keyNotFound: return ("keyNotFound", f.path)
            case .valueNotFound: return ("valueNotFound", f.path)
            case .typeMismatch: return ("typeMismatch", f.path)
            case .numberDoesNotFit, .invalidEnumValue, .badDate: return ("dataCorrupted", f.path)
            }
        }
    }

    @Test("each variant: the same success or the same DecodingError case at the same path")
    func agreesWithFoundation() throws {
        #expect(Self.foundation(Self.valid) == nil)
        for (key, fragment) in Self.variants {
            let json = try Self.input(key, fragment)
            let theirs = Self.foundation(json)
            let ours = try Self.pushbox(json)
            #expect(
                theirs?.kind == ours?.kind,
                "\(key) = \(fragment ?? "removed"): Foundation \(String(describing: theirs)), pushbox \(String(describing: ours))")
            // Foundation on Linux reports a number that does not fit at the top (its parser
            // refuses it); pushbox names the field, as Darwin's Foundation does.
            if let theirs, let ours, !(theirs.kind == "dataCorrupted" && theirs.path == "state") {
                #expect(theirs.path == ours.path, "\(key) = \(fragment ?? "removed")")
            }
        }
    }
}
