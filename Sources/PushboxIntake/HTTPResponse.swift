import Foundation
import PushboxInbox
import PushboxPayload

/// The answer to a request.
public struct HTTPResponse: Sendable {
    /// The HTTP status.
    public var status: Int {
        get { fields.status }
        _modify {
            unique()
            yield &fields.status
        }
    }
    /// Response headers, in order.
    public var headers: [(String, String)] {
        get { fields.headers }
        _modify {
            unique()
            yield &fields.headers
        }
    }
    /// The body's bytes.
    public var body: [UInt8] {
        get { fields.body }
        _modify {
            unique()
            yield &fields.body
        }
    }
    /// Why pushbox refused, in its own words (which check, which key, how old): for the access
    /// log and the request record, never sent, never the token itself.
    public var cause: String? {
        get { fields.cause }
        _modify {
            unique()
            yield &fields.cause
        }
    }
    /// What became of an accepted push (never sent): for the request record and exec's verdict.
    public var acceptance: Acceptance? {
        get { fields.acceptance }
        _modify {
            unique()
            yield &fields.acceptance
        }
    }
    /// Called once the response was sent (or its connection closed first), by the server that
    /// sent it: an accepted push's arrival is published there, never before its answer.
    public var afterSent: (@Sendable () -> Void)? {
        get { fields.afterSent }
        _modify {
            unique()
            yield &fields.afterSent
        }
    }
    /// The answer is given later, by whoever holds this: the connection is parked until then
    /// (status, headers and body of this response are not sent).
    public var later: LaterAnswer? {
        get { fields.later }
        _modify {
            unique()
            yield &fields.later
        }
    }
    /// The body is written as it comes, after this response's status and headers are sent.
    public var stream: ResponseStream? {
        get { fields.stream }
        _modify {
            unique()
            yield &fields.stream
        }
    }
    /// The chaos rule that made this answer (`#3 fcm 503 UNAVAILABLE`): on record, never sent.
    public var chaos: String? {
        get { fields.chaos }
        _modify {
            unique()
            yield &fields.chaos
        }
    }
    /// Instead of an answer, what the connection does (chaos): GOAWAY, RST_STREAM, a reset.
    public var connectionFault: ConnectionFault? {
        get { fields.connectionFault }
        _modify {
            unique()
            yield &fields.connectionFault
        }
    }
    /// Which message a push request carries, the same for its retries (`RetryVerdict`).
    public var messageKey: String? {
        get { fields.messageKey }
        _modify {
            unique()
            yield &fields.messageKey
        }
    }

    /// The fields behind one reference, copied before a change when shared: an answer is copied
    /// from the route to the connection, the request log and the access log, and one retain is
    /// cheaper than the dozen its headers, body and record fields cost (callgrind).
    private var fields: Fields

    /// The stored fields of an answer; changed only through `unique()`'s own copy, so
    /// no access needs the run-time exclusivity check (which cost more than the retains saved).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var status: Int
        @exclusivity(unchecked) var headers: [(String, String)]
        @exclusivity(unchecked) var body: [UInt8]
        @exclusivity(unchecked) var cause: String? = nil
        @exclusivity(unchecked) var acceptance: Acceptance? = nil
        @exclusivity(unchecked) var afterSent: (@Sendable () -> Void)? = nil
        @exclusivity(unchecked) var later: LaterAnswer? = nil
        @exclusivity(unchecked) var stream: ResponseStream? = nil
        @exclusivity(unchecked) var chaos: String? = nil
        @exclusivity(unchecked) var connectionFault: ConnectionFault? = nil
        @exclusivity(unchecked) var messageKey: String? = nil

        init(status: Int, headers: [(String, String)], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A copy of every field.
        func copy() -> Fields {
            let c = Fields(status: status, headers: headers, body: body)
            c.cause = cause
            c.acceptance = acceptance
            c.afterSent = afterSent
            c.later = later
            c.stream = stream
            c.chaos = chaos
            c.connectionFault = connectionFault
            c.messageKey = messageKey
            return c
        }
    }

    /// Makes `fields` an answer's own before it changes.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
    }

    /// A response.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        fields = Fields(status: status, headers: headers, body: body)
    }
}

/// What a connection does instead of answering one request, when chaos says so. On HTTP/1.1
/// (no streams, no GOAWAY) each of them is the connection closed without an answer.
public enum ConnectionFault: Sendable, Equatable {
    /// GOAWAY with this error code and debug data; `processed`: the request's stream is the last
    /// one processed, otherwise the one before it (the client may send it again).
    case goAway(errorCode: UInt32, debug: String, processed: Bool)
    /// `RST_STREAM` with `REFUSED_STREAM`.
    case refuseStream
    /// The TCP connection reset.
    case reset

    /// The name the request log gives it as a reason.
    public var name: String {
        switch self {
        case .goAway: "GOAWAY"
        case .refuseStream: "REFUSED_STREAM"
        case .reset: "CONNECTION_RESET"
        }
    }
}
