/// APNs' answer to a push it refuses: the HTTP status and the `reason` string Apple documents
/// in "Handling notification responses from APNs" (or FCM's `INVALID_ARGUMENT` for a malformed FCM message), plus
/// pushbox's own explanation for the person who sent it.
public struct Rejection: Error, Sendable, Equatable {
    /// APNs' reason (`BadDeviceToken`), or FCM's `INVALID_ARGUMENT`.
    public var reason: APNsReason
    /// What exactly was wrong, in words.
    public var detail: String
    /// For FCM's refusals, the field at fault as FCM names it (`message.data[0].value`), for
    /// the `google.rpc.BadRequest` field violation.
    public var field: String?
    /// Which of the bodies APNs answers `PayloadEmpty` for this was.
    public var cause: EmptyCause?
    /// For `Unregistered`: when the token stopped being valid, in milliseconds since 1970 (APNs
    /// answers it as `timestamp`).
    public var timestamp: Int64?

    /// The bodies APNs refuses with `PayloadEmpty`: it has no reason of its own for most of them
    /// (the legacy binary API's "missing payload" became PayloadEmpty in HTTP/2).
    public enum EmptyCause: String, Sendable, CaseIterable {
        /// No bytes at all.
        case empty
        /// Only spaces, tabs and line breaks.
        case whitespace
        /// Not valid JSON (its line and column are in the detail).
        case notJSON = "not-json"
        /// Not valid UTF-8.
        case notUTF8 = "not-utf8"
        /// A NUL byte in the body.
        case nulByte = "nul-byte"
        /// Nested deeper than the parser's limit.
        case tooDeep = "too-deep"
        /// JSON, but not an object.
        case notAnObject = "not-an-object"
        /// An object without `aps`.
        case noAps = "no-aps"
        /// `aps` that is not a dictionary.
        case apsNotADictionary = "aps-not-a-dictionary"
    }

    /// The HTTP status answered with it.
    public var status: Int { reason.status }

    /// A refusal for `reason`, explained; `field` for FCM's, `cause` for PayloadEmpty's.
    public init(_ reason: APNsReason, _ detail: String, field: String? = nil, cause: EmptyCause? = nil) {
        self.reason = reason
        self.detail = detail
        self.field = field
        self.cause = cause
    }
}

/// The reasons APNs gives, with the status each comes with (and FCM's one refusal of a message
/// that never reaches APNs, `INVALID_ARGUMENT`).
public enum APNsReason: String, Sendable, CaseIterable, CustomStringConvertible {
    case badCollapseId = "BadCollapseId"
    /// Broadcast (iOS 18): the reasons a third-party client lists; unconfirmed against Apple's table.
    case badChannelId = "BadChannelId"
    case channelNotRegistered = "ChannelNotRegistered"
    case missingChannelId = "MissingChannelId"
    case missingPushType = "MissingPushType"
    case cannotCreateChannelConfig = "CannotCreateChannelConfig"
    case badDeviceToken = "BadDeviceToken"
    case badExpirationDate = "BadExpirationDate"
    case badMessageId = "BadMessageId"
    case badPriority = "BadPriority"
    case badTopic = "BadTopic"
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    case duplicateHeaders = "DuplicateHeaders"
    case idleTimeout = "IdleTimeout"
    case invalidPushType = "InvalidPushType"
    case missingDeviceToken = "MissingDeviceToken"
    case missingTopic = "MissingTopic"
    case payloadEmpty = "PayloadEmpty"
    case topicDisallowed = "TopicDisallowed"
    case badPath = "BadPath"
    case methodNotAllowed = "MethodNotAllowed"
    case payloadTooLarge = "PayloadTooLarge"
    case tooManyRequests = "TooManyRequests"
    case internalServerError = "InternalServerError"
    case serviceUnavailable = "ServiceUnavailable"
    /// The server is shutting down (sent with GOAWAY).
    case shutdown = "Shutdown"
    // Provider authentication on the TCP port (the Unix socket needs none).
    case missingProviderToken = "MissingProviderToken"
    case invalidProviderToken = "InvalidProviderToken"
    case expiredProviderToken = "ExpiredProviderToken"
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    case badCertificate = "BadCertificate"
    /// FCM's answer to a message it refuses itself (HTTP 400, `google.rpc` status INVALID_ARGUMENT).
    case invalidArgument = "INVALID_ARGUMENT"
    /// The device token is no longer active for the topic (the app was uninstalled): 410, with
    /// the time it stopped being valid.
    case unregistered = "Unregistered"
    /// FCM's answer for a registration token that is no longer valid: 404 `NOT_FOUND` with
    /// `FcmError` `UNREGISTERED`.
    case fcmUnregistered = "UNREGISTERED"
    /// FCM's answer for a registration token of another Firebase project than the one the
    /// message was sent to: 403 `PERMISSION_DENIED` with `FcmError` `SENDER_ID_MISMATCH`
    /// (firebase-admin's `SenderIdMismatchError`).
    case fcmSenderIDMismatch = "SENDER_ID_MISMATCH"

    /// The reason as APNs (or FCM) writes it.
    public var description: String { rawValue }

    /// The HTTP status APNs answers with this reason.
    public var status: Int {
        switch self {
        case .missingProviderToken, .invalidProviderToken, .expiredProviderToken, .badCertificate: return 403
        case .tooManyProviderTokenUpdates: return 429
        case .shutdown: return 503
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .payloadTooLarge: return 413
        case .unregistered: return 410
        case .fcmUnregistered: return 404
        case .fcmSenderIDMismatch: return 403
        case .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable: return 503
        default: return 400
        }
    }
}
