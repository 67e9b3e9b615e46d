import PushboxJSON

/// A Swift type a Live Activity's `ContentState` or attributes field has, as the app profile
/// declares it (`"String"`, `"Int?"`, `"[Double]"`, `{"enum": ["a", "b"]}`, a nested object).
public indirect enum SchemaType: Sendable, Equatable {
    case string
    case int
    case double
    case bool
    case date
    case optional(SchemaType)
    case array(SchemaType)
    case structure([SchemaField])
    /// An enum with raw values (`String` or `Int`), its cases' raw values.
    case enumeration([JSONValue])

    /// The type as Swift spells it in a message (`Double`, `[String]`, `Int?`).
    public var swiftName: String {
        switch self {
        case .string: return "String"
        case .int: return "Int"
        case .double: return "Double"
        case .bool: return "Bool"
        case .date: return "Date"
        case .optional(let t): return t.swiftName + "?"
        case .array(let t): return "[\(t.swiftName)]"
        case .structure: return "a struct"
        case .enumeration(let values): return values.first.map { $0.stringValue != nil ? "a String enum" : "an Int enum" } ?? "an enum"
        }
    }

    /// The type a profile names: `"String"`, `"Int"`, `"Double"` (`"Float"`), `"Bool"`, `"Date"`,
    /// `"T?"`, `"[T]"`, or `["T"]`, an object of fields, `{"enum": [raw values]}` (with
    /// `"optional": true` for an optional enum). Nil, with the reason, when it is none of them.
    public static func parse(_ value: JSONValue) -> Result<SchemaType, SchemaError> {
        switch value {
        case .string(let name):
            if name.hasSuffix("?") {
                return parse(.string(String(name.dropLast()))).flatMap { t in
                    if case .optional = t { return .failure(SchemaError(path: "", message: "\(name) is optional twice")) }
                    return .success(.optional(t))
                }
            }
            if name.hasPrefix("["), name.hasSuffix("]") { return parse(.string(String(name.dropFirst().dropLast()))).map { .array($0) } }
            switch name {
            case "String": return .success(.string)
            case "Int", "Int64", "Int32", "UInt": return .success(.int)
            case "Double", "Float", "CGFloat": return .success(.double)
            case "Bool": return .success(.bool)
            case "Date": return .success(.date)
            default:
                return .failure(SchemaError(path: "", message: "\(name) is not a type pushbox knows (String, Int, Double, Bool, Date, T?, [T])"))
            }
        case .array(let items):
            guard items.count == 1 else { return .failure(SchemaError(path: "", message: "an array type names its element once: [\"String\"]")) }
            return parse(items[0]).map { .array($0) }
        case .object(let o):
            if let cases = o["enum"] {
                guard let values = cases.arrayValue, !values.isEmpty,
                    values.allSatisfy({ $0.stringValue != nil }) || values.allSatisfy({ $0.intValue != nil })
                else { return .failure(SchemaError(path: "enum", message: "lists the raw values, all strings or all integers")) }
                let type = SchemaType.enumeration(values)
                return .success(o["optional"] == .bool(true) ? .optional(type) : type)
            }
            var fields: [SchemaField] = []
            for (name, fieldType) in o.entries {
                switch parse(fieldType) {
                case .success(let t): fields.append(SchemaField(name: name, type: t))
                case .failure(let e): return .failure(SchemaError(path: e.path.isEmpty ? name : name + "." + e.path, message: e.message))
                }
            }
            return .success(.structure(fields))
        default:
            return .failure(SchemaError(path: "", message: "a type is a name (\"String\"), [\"T\"], an object of fields or {\"enum\": […]}"))
        }
    }
}

/// One stored property of a struct in a schema.
public struct SchemaField: Sendable, Equatable {
    public var name: String
    public var type: SchemaType

    /// A field: its Swift name (the JSON key, as the default coding keys are) and its type.
    public init(name: String, type: SchemaType) {
        self.name = name
        self.type = type
    }
}

/// What is wrong with a schema in the profile, and where in it.
public struct SchemaError: Error, Sendable, Equatable {
    public var path: String
    public var message: String
}

/// How the app's decoder reads a `Date` (`JSONDecoder.DateDecodingStrategy`); ActivityKit's
/// own decoder uses the default, `deferredToDate`: seconds since 2001-01-01, not 1970.
public enum DateDecoding: String, Sendable, CaseIterable {
    case deferredToDate
    case secondsSince1970
    case millisecondsSince1970
    case iso8601

    /// Seconds between 1970-01-01 and 2001-01-01 (`Date.timeIntervalBetween1970AndReferenceDate`).
    public static let referenceDateOffset = 978_307_200.0
}

/// One `ActivityAttributes` type the app declares: its static attributes, its `ContentState`,
/// the date strategy, and the optional one-line template of its lock-screen line.
public struct ActivityTypeSchema: Sendable, Equatable {
    /// The struct's name: what `attributes-type` must say exactly.
    public var name: String
    /// The static attributes' fields; nil: not declared (not checked).
    public var attributes: SchemaType?
    /// The dynamic `ContentState`'s fields; nil: not declared (not checked).
    public var contentState: SchemaType?
    /// How dates decode.
    public var dates: DateDecoding = .deferredToDate
    /// A line such as `"{attributes.team} {state.score}"` for the lock screen.
    public var template: String?

    /// A type with nothing declared but its name.
    public init(name: String) { self.name = name }
}

extension LiveActivityProfile {

    /// The section's object (`liveActivities`), each bad field named by its path.
    init(_ value: JSONValue?, reader: ProfileReader) throws(AppProfile.LoadError) {
        guard let o = try reader.object(value, "liveActivities", known: ProfileSchema.keys(of: "liveActivities")) else { return }
        if let types = try reader.object(o["types"], "liveActivities.types", known: o["types"]?.objectValue?.keys ?? []) {
            for (name, body) in types.entries {
                let p = "liveActivities.types.\(name)"
                let t = try reader.object(body, p, known: ProfileSchema.keys(of: "liveActivities.types.NAME")) ?? JSONObject()
                var schema = ActivityTypeSchema(name: name)
                for (key, path) in [("attributes", \ActivityTypeSchema.attributes), ("contentState", \ActivityTypeSchema.contentState)] {
                    guard let declared = t[key] else { continue }
                    switch SchemaType.parse(declared) {
                    case .success(let type): schema[keyPath: path] = type
                    case .failure(let e): throw reader.fail(e.path.isEmpty ? "\(p).\(key)" : "\(p).\(key).\(e.path)", e.message)
                    }
                }
                if let d = try reader.string(t["dateDecoding"], "\(p).dateDecoding") {
                    guard let strategy = DateDecoding(rawValue: d) else {
                        throw reader.fail("\(p).dateDecoding", "must be one of \(DateDecoding.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    schema.dates = strategy
                }
                schema.template = try reader.string(t["template"], "\(p).template")
                self.types[name] = schema
            }
        }
        if let b = try reader.object(o["budget"], "liveActivities.budget", known: ProfileSchema.keys(of: "liveActivities.budget")) {
            for (key, path) in [
                ("priority10PerHour", \ActivityBudget.priority10PerHour), ("pushToStartPerHour", \ActivityBudget.pushToStartPerHour),
                ("maxRunning", \ActivityBudget.maxRunning),
            ] {
                guard let v = b[key] else { continue }
                guard let n = v.intValue, n >= 0 else { throw reader.fail("liveActivities.budget.\(key)", "must be a whole number ≥ 0") }
                budget[keyPath: path] = n
            }
        }
    }
}
