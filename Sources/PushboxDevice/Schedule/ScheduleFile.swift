import Foundation
import PushboxJSON
import PushboxPayload

/// A local notification request, named after UserNotifications' API so iOS engineers read it
/// at sight: `{"identifier", "content": {…}, "trigger": {…}}`.
public struct LocalRequest: Sendable, Equatable {
    /// The request's identifier (a new request with it replaces the old).
    public var identifier: String
    /// `title`, `subtitle`, `body`, `titleLocKey`/`titleLocArgs`, `subtitleLocKey`/`subtitleLocArgs`,
    /// `bodyLocKey`/`bodyLocArgs`, `badge`, `sound`, `userInfo`, `categoryIdentifier`,
    /// `threadIdentifier`, `attachments` ([{"identifier", "file"}]), kept as written.
    public var content: JSONObject
    /// When it fires (nil: at once).
    public var trigger: Trigger?

    /// A request from its parts.
    public init(identifier: String, content: JSONObject, trigger: Trigger?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
    }
}

/// When a request fires: after an interval, on matching date components, or now (nil trigger).
public enum Trigger: Sendable, Equatable {
    case timeInterval(seconds: Double, repeats: Bool)
    /// Date components as `DateComponents` names them (`weekday` 1 = Sunday).
    case dateMatching(DateComponents, repeats: Bool)

    /// Whether the trigger fires again.
    public var repeats: Bool {
        switch self {
        case .timeInterval(_, let r), .dateMatching(_, let r): return r
        }
    }
}

/// A schedule file: `{"requests": [ … ]}`. Every wrong field is named by its path.
public enum ScheduleFile {
    /// What is wrong with a schedule file, at which field.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The key path at fault.
        public var path: String
        /// What is wrong, in words.
        public var message: String
        /// `path: message`.
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    static let componentNames = ["year", "month", "day", "weekday", "hour", "minute", "second", "weekOfYear", "weekOfMonth", "weekdayOrdinal"]

    /// The requests of a schedule file, or the first field that is wrong.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> [LocalRequest] {
        let root: JSONObject
        do {
            guard let o = try JSONParser.parse(bytes).objectValue else {
                throw ParseError(path: "", message: "a schedule is a JSON object with \"requests\"")
            }
            root = o
        } catch let e as JSONParseError { throw ParseError(path: "", message: e.description) } catch let e as ParseError { throw e } catch {
            throw ParseError(path: "", message: "\(error)")
        }
        guard let list = root["requests"]?.arrayValue else { throw ParseError(path: "requests", message: "required: an array of requests") }
        var out: [LocalRequest] = []
        for (i, value) in list.enumerated() {
            let p = "requests[\(i)]"
            guard let r = value.objectValue else { throw ParseError(path: p, message: "must be an object") }
            guard let id = r["identifier"]?.stringValue, !id.isEmpty else {
                throw ParseError(path: "\(p).identifier", message: "required: a non-empty string")
            }
            guard let content = r["content"]?.objectValue else { throw ParseError(path: "\(p).content", message: "required: an object") }
            try checkContent(content, path: "\(p).content")
            out.append(LocalRequest(identifier: id, content: content, trigger: try trigger(r["trigger"], path: "\(p).trigger")))
        }
        return out
    }

    /// The JSON a content field takes, and how an error names it.
    enum FieldType {
        case string, strings, integer, number, object, array

        func fits(_ value: JSONValue) -> Bool {
            switch self {
            case .string: return value.stringValue != nil
            case .strings: return value.arrayValue?.allSatisfy { $0.stringValue != nil || $0.doubleValue != nil } ?? false
            case .integer: return value.intValue != nil
            case .number: return value.doubleValue != nil
            case .object: return value.objectValue != nil
            case .array: return value.arrayValue != nil
            }
        }

        var expected: String {
            switch self {
            case .string: return "a string"
            case .strings: return "an array of strings"
            case .integer: return "a whole number"
            case .number: return "a number"
            case .object: return "an object"
            case .array: return "an array"
            }
        }
    }

    /// `UNNotificationContent`'s properties as the file names them, with the JSON type each takes.
    static let contentFields: [(name: String, type: FieldType)] = [
        ("title", .string), ("subtitle", .string), ("body", .string),
        ("titleLocKey", .string), ("titleLocArgs", .strings), ("subtitleLocKey", .string), ("subtitleLocArgs", .strings),
        ("bodyLocKey", .string), ("bodyLocArgs", .strings), ("badge", .integer), ("sound", .string),
        ("userInfo", .object), ("categoryIdentifier", .string), ("threadIdentifier", .string),
        ("interruptionLevel", .string), ("attachments", .array),
        // Kept as written; pushbox does not model them.
        ("launchImageName", .string), ("targetContentIdentifier", .string), ("relevanceScore", .number),
        ("filterCriteria", .string), ("summaryArgument", .string), ("summaryArgumentCount", .integer),
    ]

    /// A misspelt or mistyped content field is an error with its path: a silently ignored
    /// `titleLockey` would cost an afternoon.
    static func checkContent(_ content: JSONObject, path: String) throws(ParseError) {
        for (name, value) in content.entries {
            guard let type = contentFields.first(where: { $0.name == name })?.type else {
                let near = contentFields.map(\.name).filter { $0.lowercased() == name.lowercased() }
                throw ParseError(
                    path: "\(path).\(name)",
                    message: near.isEmpty
                        ? "unknown content field (known: \(contentFields.map(\.name).joined(separator: ", ")))"
                        : "unknown content field; did you mean \(near[0])?")
            }
            if !type.fits(value) {
                throw ParseError(path: "\(path).\(name)", message: "must be \(type.expected), not \(value.typeDescription)")
            }
        }
    }

    /// A trigger from its JSON (nil: deliver now), errors naming `path`.
    public static func trigger(_ value: JSONValue?, path: String) throws(ParseError) -> Trigger? {
        guard let value, value != .null else { return nil }
        guard let t = value.objectValue else { throw ParseError(path: path, message: "must be an object") }
        let repeats = t["repeats"] == .bool(true)
        if let interval = t["timeInterval"] {
            guard let seconds = interval.doubleValue else { throw ParseError(path: "\(path).timeInterval", message: "must be a number of seconds") }
            return .timeInterval(seconds: seconds, repeats: repeats)
        }
        if let matching = t["dateMatching"] {
            guard let m = matching.objectValue else {
                throw ParseError(path: "\(path).dateMatching", message: "must be an object of date components")
            }
            var c = DateComponents()
            for (name, v) in m.entries {
                guard componentNames.contains(name) else {
                    throw ParseError(
                        path: "\(path).dateMatching.\(name)", message: "unknown component (known: \(componentNames.joined(separator: ", ")))")
                }
                guard let n = v.intValue else { throw ParseError(path: "\(path).dateMatching.\(name)", message: "must be a whole number") }
                switch name {
                case "year": c.year = n
                case "month": c.month = n
                case "day": c.day = n
                case "weekday":
                    guard (1...7).contains(n) else { throw ParseError(path: "\(path).dateMatching.weekday", message: "1 (Sunday) to 7 (Saturday)") }
                    c.weekday = n
                case "hour": c.hour = n
                case "minute": c.minute = n
                case "second": c.second = n
                case "weekOfYear": c.weekOfYear = n
                case "weekOfMonth": c.weekOfMonth = n
                default: c.weekdayOrdinal = n
                }
            }
            return .dateMatching(c, repeats: repeats)
        }
        throw ParseError(path: path, message: "give timeInterval or dateMatching (or leave the trigger out to deliver now)")
    }
}
