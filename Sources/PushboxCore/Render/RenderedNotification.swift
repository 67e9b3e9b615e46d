import PushboxText
/// How the notification reached the screen: the `delivered` field of `render --json`.
public enum Delivery: String, Sendable {
    /// The service extension changed the content.
    case modified
    /// The extension ran out of time and handed over its best attempt.
    case bestAttempt = "best-attempt"
    /// Shown as sent (no extension ran, or it failed with the `original` fallback).
    case original
    /// Not delivered: refused by validation, or not meant for this device.
    case rejected
}

/// One step of processing, with its duration.
public struct TraceEntry: Sendable, Equatable {
    public var step: String
    public var ms: Double
    public var outcome: String
    public var detail: String

    public init(step: String, ms: Double, outcome: String, detail: String) {
        self.step = step
        self.ms = ms
        self.outcome = outcome
        self.detail = detail
    }
}

/// A file attached to the notification.
public struct RenderedAttachment: Sendable, Equatable {
    public var path: String
    /// MIME type, from the bytes.
    public var type: String
    public var bytes: Int
    public var width: Int?
    public var height: Int?
    /// The URL it came from.
    public var source: String

    public init(path: String, type: String, bytes: Int, width: Int?, height: Int?, source: String) {
        self.path = path
        self.type = type
        self.bytes = bytes
        self.width = width
        self.height = height
        self.source = source
    }
}

/// An action button of the notification's category, as the device shows it.
public struct RenderedAction: Sendable, Equatable {
    public var identifier: String
    public var title: String
    public var options: [String]

    public init(identifier: String, title: String, options: [String]) {
        self.identifier = identifier
        self.title = title
        self.options = options
    }
}

/// A notification as the device shows it: the contract of `pushbox render`.
public struct RenderedNotification: Sendable {
    public var file: String?
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var language: String?
    public var attachments: [RenderedAttachment] = []
    public var category: String?
    public var actions: [RenderedAction] = []
    public var threadId: String?
    public var badge: Int?
    public var sound: String?
    public var interruptionLevel: String?
    public var delivered: Delivery
    /// The HTTP status APNs would answer (200 when accepted).
    public var status: Int = 200
    /// APNs' reason when rejected (null otherwise).
    public var reason: String?
    /// Why, in words, when rejected or not meant for this device.
    public var detail: String?
    public var warnings: [String] = []
    public var trace: [TraceEntry] = []

    public init(delivered: Delivery) {
        self.delivered = delivered
    }

    /// The object `render --json` prints (README, "pushbox render"), keys in a fixed order.
    public var json: JSONValue {
        .object(JSONObject([
            ("file", .optionalString(file)),
            ("title", .optionalString(title)),
            ("subtitle", .optionalString(subtitle)),
            ("body", .optionalString(body)),
            ("language", .optionalString(language)),
            ("attachments", .array(attachments.map { a in
                .object(JSONObject([
                    ("path", .string(a.path)), ("type", .string(a.type)), ("bytes", .optionalInt(a.bytes)),
                    ("width", .optionalInt(a.width)), ("height", .optionalInt(a.height)), ("source", .string(a.source)),
                ]))
            })),
            ("category", .optionalString(category)),
            ("actions", .array(actions.map { a in
                .object(JSONObject([("identifier", .string(a.identifier)), ("title", .string(a.title)), ("options", .array(a.options.map { .string($0) }))]))
            })),
            ("threadId", .optionalString(threadId)),
            ("badge", .optionalInt(badge)),
            ("sound", .optionalString(sound)),
            ("interruptionLevel", .optionalString(interruptionLevel)),
            ("delivered", .string(delivered.rawValue)),
            ("status", .optionalInt(status)),
            ("reason", .optionalString(reason)),
            ("detail", .optionalString(detail)),
            ("warnings", .array(warnings.map { .string($0) })),
            ("trace", .array(trace.map { t in
                .object(JSONObject([
                    ("step", .string(t.step)), ("ms", .number(formatMilliseconds(t.ms))),
                    ("outcome", .string(t.outcome)), ("detail", .string(t.detail)),
                ]))
            })),
        ]))
    }
}

/// Milliseconds with at most three decimals, as JSON number text.
func formatMilliseconds(_ ms: Double) -> String {
    let rounded = (ms * 1000).rounded() / 1000
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    return String(rounded)
}
