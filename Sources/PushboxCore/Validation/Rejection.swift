/// APNs' answer to a push it refuses: the HTTP status and the `reason` string Apple documents
/// in "Handling notification responses from APNs" (or FCM's `INVALID_ARGUMENT` for a malformed FCM message), plus
/// pushbox's own explanation for the person who sent it.
public struct Rejection: Error, Sendable, Equatable {
    /// The HTTP status APNs answers.
    public var status: Int
    /// APNs' reason (`BadDeviceToken`).
    public var reason: String
    /// What exactly was wrong, in words.
    public var detail: String
    /// For FCM's refusals, the field at fault as FCM names it (`message.data[0].value`), for
    /// the `google.rpc.BadRequest` field violation.
    public var field: String?

    /// A refusal with its status, reason and explanation.
    public init(status: Int, reason: String, detail: String, field: String? = nil) {
        self.status = status
        self.reason = reason
        self.detail = detail
        self.field = field
    }

    /// A refusal with APNs' status for `reason`.
    public init(_ reason: APNsReason, _ detail: String) {
        self.init(status: reason.status, reason: reason.rawValue, detail: detail)
    }
}

/// The reasons APNs gives, with the status each comes with.
public enum APNsReason: String, Sendable, CaseIterable {
    case badCollapseId = "BadCollapseId"
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

    /// The HTTP status APNs answers with this reason.
    public var status: Int {
        switch self {
        case .missingProviderToken, .invalidProviderToken, .expiredProviderToken, .badCertificate: return 403
        case .tooManyProviderTokenUpdates: return 429
        case .shutdown: return 503
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .payloadTooLarge: return 413
        case .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable: return 503
        default: return 400
        }
    }
}

