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
        case empty
        case whitespace
        case notJSON = "not-json"
        case notUTF8 = "not-utf8"
        case nulByte = "nul-byte"
        case tooDeep = "too-deep"
        case notAnObject = "not-an-object"
        case noAps = "no-aps"
        case apsNotADictionary = "aps-not-a-dictionary"

        /// What the body was, in one line (for the reference page).
        public var meaning: String {
            switch self {
            case .empty: "No bytes at all."
            case .whitespace: "Only spaces, tabs and line breaks."
            case .notJSON: "Not valid JSON (its line and column are in the detail)."
            case .notUTF8: "Not valid UTF-8."
            case .nulByte: "A NUL byte in the body."
            case .tooDeep: "Nested deeper than the parser's limit."
            case .notAnObject: "JSON, but not an object."
            case .noAps: "An object without `aps`."
            case .apsNotADictionary: "`aps` that is not a dictionary."
            }
        }
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

    /// What the reason means, in one line (Apple's table, "Handling notification responses from
    /// APNs", and FCM's `ErrorCode`): the reference page `docs/reference/reasons.md` is made from it.
    public var meaning: String {
        switch self {
        case .badCollapseId: "The `apns-collapse-id` is longer than 64 bytes."
        case .badChannelId: "The broadcast channel id is not valid."
        case .channelNotRegistered: "No such broadcast channel for this app."
        case .missingChannelId: "A broadcast push without `apns-channel-id`."
        case .missingPushType: "A broadcast request without `apns-push-type`."
        case .cannotCreateChannelConfig: "The channel's settings cannot be made (its storage policy)."
        case .badDeviceToken: "The token is not a device token, or not one of the environment the request was sent to."
        case .badExpirationDate: "`apns-expiration` is not a UNIX time."
        case .badMessageId: "`apns-id` is not a UUID."
        case .badPriority: "`apns-priority` is not 1, 5 or 10 (or not one the push type takes)."
        case .badTopic: "`apns-topic` is not the app's bundle id (with its push type's suffix)."
        case .deviceTokenNotForTopic: "The token is not of the app `apns-topic` names."
        case .duplicateHeaders: "A header was given twice."
        case .idleTimeout: "The connection was idle too long (sent with GOAWAY)."
        case .invalidPushType: "`apns-push-type` is not one APNs knows."
        case .missingDeviceToken: "The path names no device token."
        case .missingTopic: "No `apns-topic`, where the provider token or certificate covers several topics."
        case .payloadEmpty: "The body is empty, or not a JSON object with `aps` (the cause says which)."
        case .topicDisallowed: "Pushes to this topic are not allowed."
        case .badPath: "No such path."
        case .methodNotAllowed: "Only POST is taken there."
        case .payloadTooLarge: "The body is over the push type's limit (4 KB; 5 KB for VoIP)."
        case .tooManyRequests: "Too many requests to the same device token."
        case .internalServerError: "APNs failed; retry."
        case .serviceUnavailable: "APNs is unavailable; retry after a while."
        case .shutdown: "The server is shutting down (sent with GOAWAY)."
        case .missingProviderToken: "No provider token and no client certificate."
        case .invalidProviderToken: "The provider token is not signed by a known key, or is malformed."
        case .expiredProviderToken: "The provider token is older than an hour."
        case .tooManyProviderTokenUpdates: "The provider token changed too often (more than once in 20 minutes)."
        case .badCertificate: "The client certificate is not valid."
        case .invalidArgument: "FCM: the message is malformed (the `google.rpc.BadRequest` names the field)."
        case .unregistered: "The token is no longer active: the app was uninstalled (with the time it stopped)."
        case .fcmUnregistered: "FCM: the registration token or installation id is no longer valid (404 `NOT_FOUND`)."
        case .fcmSenderIDMismatch: "FCM: the token belongs to another Firebase project (403 `PERMISSION_DENIED`)."
        }
    }

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
