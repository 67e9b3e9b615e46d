import Foundation

/// Where a payload came from.
public enum PayloadSource: String, Sendable, Codable, CaseIterable {
    case socket, folder, send, replay
    /// An APNs request over TLS: the TCP port, or `pushbox exec`'s tunnel, as an APNs client
    /// library sends it (the socket's are `socket`).
    case tls
    /// An FCM HTTP v1 request to `/v1/projects/{id}/messages:send`.
    case fcm
    case commandLine = "command-line"
    /// A local notification request that fired on the (simulated) clock.
    case local
}

/// The APNs request headers of one push, as sent (strings, unvalidated).
///
/// Names are matched case-insensitively, as HTTP/2 header names are lowercase on the wire.
public struct PushHeaders: Sendable, Equatable {
    /// `apns-push-type`.
    public static let pushType = "apns-push-type"
    /// `apns-id`.
    public static let id = "apns-id"
    /// `apns-expiration`.
    public static let expiration = "apns-expiration"
    /// `apns-priority`.
    public static let priority = "apns-priority"
    /// `apns-topic`.
    public static let topic = "apns-topic"
    /// `apns-collapse-id`.
    public static let collapseID = "apns-collapse-id"
    /// Headers APNs knows; other `apns-*` names draw a warning.
    public static let known: [String] = [pushType, id, expiration, priority, topic, collapseID, channelID]
    /// `apns-channel-id`: a broadcast's channel (iOS 18), on `/4/broadcasts/apps/<bundle>`.
    public static let channelID = "apns-channel-id"

    /// Every header in the order given, names lowercased.
    public private(set) var fields: [(name: String, value: String)] = []

    /// No headers.
    public init() {}

    /// Headers in order (names lowercased).
    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name, value) }
    }

    /// Equal when the same fields come in the same order.
    public static func == (lhs: PushHeaders, rhs: PushHeaders) -> Bool {
        lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    /// Adds a field (a repeat stays, as on the wire).
    public mutating func add(_ name: String, _ value: String) {
        fields.append((Self.lowered(name), value))
    }

    /// Sets a header, replacing any earlier value of it.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every value of a header.
    public mutating func remove(_ name: String) {
        let lower = Self.lowered(name)
        fields.removeAll { $0.name == lower }
    }

    /// The value of a header (the last one given).
    public subscript(name: String) -> String? {
        let lower = Self.lowered(name)
        return fields.last { $0.name == lower }?.value
    }

    /// A header name in lower case, without making a new string when it already is (every name
    /// pushbox asks for, and what HTTP/2 clients send).
    public static func lowered(_ name: String) -> String {
        var name = name
        // Over the contiguous bytes (no copy for a native string): every request asks for many names.
        let upper = name.withUTF8 { bytes in bytes.contains { $0 &- UInt8(ascii: "A") < 26 || $0 >= 0x80 } }
        return upper ? name.lowercased() : name
    }

    /// Whether a (lower-case) header name starts with `apns-`, read from its bytes:
    /// `String.hasPrefix` walked characters, some 600 instructions a name, five names a push.
    public static func isAPNsName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            bytes.count >= 5 && bytes[0] == UInt8(ascii: "a") && bytes[1] == UInt8(ascii: "p") && bytes[2] == UInt8(ascii: "n")
                && bytes[3] == UInt8(ascii: "s") && bytes[4] == UInt8(ascii: "-")
        }
    }

    /// Names given more than once (APNs answers DuplicateHeaders).
    public var duplicateNames: [String] {
        // A request has a handful of headers: comparing pairs beats hashing every name.
        var repeated: [String] = []
        for i in fields.indices.dropFirst() {
            let name = fields[i].name
            if !repeated.contains(name), fields[..<i].contains(where: { $0.name == name }) { repeated.append(name) }
        }
        return repeated
    }

    /// Whether an `apns-id` is a canonical UUID (8-4-4-4-12 hex digits).
    public static func isCanonicalUUID(_ s: String) -> Bool { HeaderRules.isCanonicalUUID(s) }

    /// Parses `NAME:VALUE` as given to `--header`; nil when there is no colon or no name.
    public static func parseField(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : (name, value)
    }
}

/// Everything known about a push besides its body.
public struct Envelope: Sendable, Equatable {
    /// Where the payload came from.
    public var source: PayloadSource {
        get { fields.source }
        _modify {
            unique()
            yield &fields.source
        }
    }
    /// When it was taken in.
    public var receivedAt: Date {
        get { fields.receivedAt }
        _modify {
            unique()
            yield &fields.receivedAt
        }
    }
    /// Its `apns-*` headers.
    public var headers: PushHeaders {
        get { fields.headers }
        _modify {
            unique()
            yield &fields.headers
        }
    }
    /// The device token from `/3/device/<token>` (or `--token`), as sent.
    public var deviceToken: String? {
        get { fields.deviceToken }
        _modify {
            unique()
            yield &fields.deviceToken
        }
    }
    /// The file the payload was read from, when it came from one.
    public var fileName: String? {
        get { fields.fileName }
        _modify {
            unique()
            yield &fields.fileName
        }
    }
    /// The listener, protocol, client and authentication, when it came through the HTTP API.
    public var arrival: Arrival? {
        get { fields.arrival }
        _modify {
            unique()
            yield &fields.arrival
        }
    }
    /// The device clock's time when it arrived, when that clock is not the wall clock
    /// (`--clock`, `--speed`, moved from the inbox); nil: `receivedAt`.
    public var deviceAt: Date? {
        get { fields.deviceAt }
        _modify {
            unique()
            yield &fields.deviceAt
        }
    }
    /// The device's time zone when it arrived (an identifier, `Asia/Seoul`); nil: not known.
    public var deviceZone: String? {
        get { fields.deviceZone }
        _modify {
            unique()
            yield &fields.deviceZone
        }
    }
    /// The body's length as sent when it was longer than the bytes kept (a body far over the
    /// limit keeps only its first bytes); nil when every byte was kept.
    public var bodyLength: Int? {
        get { fields.bodyLength }
        _modify {
            unique()
            yield &fields.bodyLength
        }
    }

    /// The fields behind one reference, copied before a change when shared: a payload's
    /// envelope is copied with it into every batch, judgement and row on its way to the store,
    /// and one retain is cheaper than the dozen its strings and arrays cost (callgrind).
    private var fields: Fields

    /// The stored fields of an envelope; changed only through `unique()`'s own copy, so
    /// no access needs the run-time exclusivity check (which cost more than the retains saved).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var source: PayloadSource
        @exclusivity(unchecked) var receivedAt: Date
        @exclusivity(unchecked) var headers: PushHeaders
        @exclusivity(unchecked) var deviceToken: String?
        @exclusivity(unchecked) var fileName: String?
        @exclusivity(unchecked) var arrival: Arrival?
        @exclusivity(unchecked) var deviceAt: Date?
        @exclusivity(unchecked) var deviceZone: String?
        @exclusivity(unchecked) var bodyLength: Int?

        init(source: PayloadSource, receivedAt: Date, headers: PushHeaders, deviceToken: String?, fileName: String?, arrival: Arrival?) {
            self.source = source
            self.receivedAt = receivedAt
            self.headers = headers
            self.deviceToken = deviceToken
            self.fileName = fileName
            self.arrival = arrival
        }

        /// A copy of every field.
        func copy() -> Fields {
            let c = Fields(source: source, receivedAt: receivedAt, headers: headers, deviceToken: deviceToken, fileName: fileName, arrival: arrival)
            c.deviceAt = deviceAt
            c.deviceZone = deviceZone
            c.bodyLength = bodyLength
            return c
        }
    }

    /// Makes `fields` this envelope's own before it changes.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
    }

    /// An envelope from where the payload came and what came with it.
    public init(
        source: PayloadSource, receivedAt: Date = Date(), headers: PushHeaders = PushHeaders(),
        deviceToken: String? = nil, fileName: String? = nil, arrival: Arrival? = nil
    ) {
        fields = Fields(source: source, receivedAt: receivedAt, headers: headers, deviceToken: deviceToken, fileName: fileName, arrival: arrival)
    }

    /// Equal when every field is.
    public static func == (a: Envelope, b: Envelope) -> Bool {
        a.fields === b.fields
            || (a.source == b.source && a.receivedAt == b.receivedAt && a.headers == b.headers && a.deviceToken == b.deviceToken
                && a.fileName == b.fileName && a.arrival == b.arrival && a.deviceAt == b.deviceAt && a.deviceZone == b.deviceZone
                && a.bodyLength == b.bodyLength)
    }
}

/// A payload exactly as received: the bytes are kept untouched so nothing is ever lost.
public struct RawPayload: Sendable, Equatable {
    /// The payload's bytes as they arrived.
    public var bytes: [UInt8]
    /// What came with them.
    public var envelope: Envelope

    /// A payload's untouched bytes with its envelope.
    public init(bytes: [UInt8], envelope: Envelope) {
        self.bytes = bytes
        self.envelope = envelope
    }
}
