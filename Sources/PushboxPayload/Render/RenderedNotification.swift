import PushboxJSON

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
    /// Not delivered yet: the push service keeps it while the device is offline.
    case stored
    /// Never delivered: the push service threw it away (expired, or replaced by a newer one).
    case discarded
}

/// One step of what happened to a notification, with how long it took: the trace the card's
/// Trace tab and `render --json` show. Steps and outcomes are named values (`.validate`,
/// `.rejected`) that the UI and tests match on; `detail` is the sentence for people.
public struct TraceEntry: Sendable, Equatable {
    /// What was done. Open-ended, like `Notification.Name`: an extension recipe names its steps.
    public struct Step: RawRepresentable, Hashable, Sendable {
        /// The step's name, as `render --json` writes it.
        public let rawValue: String
        /// A step by its name (a recipe's own, or one read back from JSON).
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Taken in over a listener (outcome: the protocol).
        public static let receive = Step(rawValue: "receive")
        /// Validated as APNs validates (accepted or rejected).
        public static let validate = Step(rawValue: "validate")
        /// An FCM message mapped to the APNs payload it becomes.
        public static let fcm = Step(rawValue: "fcm")
        /// FCM's targeting: whether the message reaches this device.
        public static let target = Step(rawValue: "target")
        /// The system's localization of `*-loc-key` fields.
        public static let localize = Step(rawValue: "localize")
        /// The service extension as a whole (started, finished, expired).
        public static let `extension` = Step(rawValue: "extension")
        /// The extension's decryption of `encrypted_data`.
        public static let decrypt = Step(rawValue: "decrypt")
        /// The extension's localization of the app's own keys.
        public static let localizeCustom = Step(rawValue: "localize-custom")
        /// The extension's download of a media attachment.
        public static let attach = Step(rawValue: "attach")
        /// The extension's 30-second budget ran out.
        public static let deadline = Step(rawValue: "deadline")
        /// A local notification request fired on the device clock.
        public static let schedule = Step(rawValue: "schedule")
        /// A background push: the app woken, nothing shown.
        public static let background = Step(rawValue: "background")
        /// What the app received for a tap or an action button.
        public static let response = Step(rawValue: "response")
        /// The device took the notification, or did not (Apple's delivery-log vocabulary:
        /// delivered, stored — device offline, discarded — token unregistered).
        public static let deliver = Step(rawValue: "deliver")
    }

    /// How a step ended. Open-ended too: `receive` ends with the protocol's name.
    public struct Outcome: RawRepresentable, Hashable, Sendable {
        /// The outcome's name, as `render --json` writes it.
        public let rawValue: String
        /// An outcome by its name (one read back from JSON).
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Validation passed.
        public static let accepted = Outcome(rawValue: "accepted")
        /// Validation refused the payload (APNs' reason in the detail).
        public static let rejected = Outcome(rawValue: "rejected")
        /// An FCM message became its APNs payload.
        public static let mapped = Outcome(rawValue: "mapped")
        /// FCM's targeting reached this device.
        public static let delivered = Outcome(rawValue: "delivered")
        /// FCM's targeting missed this device.
        public static let notTargeted = Outcome(rawValue: "not-targeted")
        /// Every key was found.
        public static let localized = Outcome(rawValue: "localized")
        /// Some keys were missing (shown as the key itself).
        public static let missingKeys = Outcome(rawValue: "missing-keys")
        /// Localized on the device when shown (not in the extension).
        public static let atDelivery = Outcome(rawValue: "at-delivery")
        /// The extension did not run (and why, in the detail).
        public static let notRun = Outcome(rawValue: "not-run")
        /// The extension began.
        public static let started = Outcome(rawValue: "started")
        /// The extension handed over in time.
        public static let finished = Outcome(rawValue: "finished")
        /// A step failed.
        public static let failed = Outcome(rawValue: "failed")
        /// The extension's time ran out.
        public static let expired = Outcome(rawValue: "expired")
        /// A step did what it set out to.
        public static let ok = Outcome(rawValue: "ok")
        /// A step had nothing to do.
        public static let skipped = Outcome(rawValue: "skipped")
        /// The device threw the notification away (why: the cause).
        public static let discarded = Outcome(rawValue: "discarded")
        /// The push service keeps it until the device is online.
        public static let stored = Outcome(rawValue: "stored")
        /// A request was dropped (over the pending limit, or refused).
        public static let dropped = Outcome(rawValue: "dropped")
        /// A step was stopped by the deadline.
        public static let timeout = Outcome(rawValue: "timeout")
        /// A step was cancelled because the extension gave up.
        public static let cancelled = Outcome(rawValue: "cancelled")
        /// A local request fired.
        public static let fired = Outcome(rawValue: "fired")
        /// An attachment was added.
        public static let attached = Outcome(rawValue: "attached")
        /// A background push woke the app.
        public static let woken = Outcome(rawValue: "woken")
        /// Nothing is shown (a background push, or no alert).
        public static let noBanner = Outcome(rawValue: "no-banner")
        /// The notification itself was tapped.
        public static let tap = Outcome(rawValue: "tap")
        /// An action button was chosen.
        public static let action = Outcome(rawValue: "action")

        /// `receive`'s outcome: the protocol the push came over (`h2`, `http/1.1`).
        public static func received(over protocolName: String) -> Outcome { Outcome(rawValue: protocolName) }

        /// Whether the step failed or was refused (shown in the error colour).
        public var isFailure: Bool { self == .failed || self == .rejected || self == .expired }
    }

    /// What was done.
    public var step: Step
    /// How long it took, in milliseconds.
    public var ms: Double
    /// How it ended.
    public var outcome: Outcome
    /// What happened, in a sentence for people.
    public var detail: String
    /// Why it ended so, as a stable code, where the outcome alone does not say (which failure,
    /// why the extension did not run): what tests, the UI and scripts match on.
    public var cause: Cause?

    /// Why a step ended as it did: an open set like `Step`.
    public struct Cause: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The cause as `render --json` writes it.
        public let rawValue: String
        /// A cause by its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// The extension did not run: `mutable-content` is not 1.
        public static let noMutableContent = Cause(rawValue: "no-mutable-content")
        /// The extension did not run: the alert has nothing visible.
        public static let nothingVisible = Cause(rawValue: "nothing-visible")
        /// The extension did not run: switched off for this run (`--no-extension`).
        public static let switchedOff = Cause(rawValue: "switched-off")
        /// The token is no longer the device's: the app was uninstalled, or the token unregistered.
        public static let tokenUnregistered = Cause(rawValue: "token-unregistered")
        /// The device was offline: the push service kept the notification.
        public static let deviceOffline = Cause(rawValue: "device-offline")
        /// Its expiration passed (or was 0) while the device was offline.
        public static let expired = Cause(rawValue: "expired")
        /// A newer notification for the same app or collapse key took its place in storage.
        public static let replaced = Cause(rawValue: "replaced")
        /// Kept while the device was offline, delivered when it came back.
        public static let fromStorage = Cause(rawValue: "from-storage")
        /// The extension's time limit ran out.
        public static let timeLimit = Cause(rawValue: "time-limit")
        /// A critical step failed, so the fallback applied.
        public static let criticalStepFailed = Cause(rawValue: "critical-step-failed")
        /// Decryption: the value is not base64.
        public static let badBase64 = Cause(rawValue: "bad-base64")
        /// Decryption: shorter than a nonce and a tag.
        public static let truncated = Cause(rawValue: "truncated")
        /// Decryption: wrong key, or the data or its tag was altered.
        public static let authenticationFailed = Cause(rawValue: "authentication-failed")
        /// Decryption: the key is not 32 bytes.
        public static let keyLength = Cause(rawValue: "key-length")
        /// Decryption: the key file is readable by group or others.
        public static let keyFilePermissions = Cause(rawValue: "key-file-permissions")
        /// Decryption: the key file cannot be read.
        public static let keyFileUnreadable = Cause(rawValue: "key-file-unreadable")
        /// Decryption: no key was given.
        public static let noKey = Cause(rawValue: "no-key")
        /// Decryption: the value or its plaintext is not what the step reads.
        public static let badValue = Cause(rawValue: "bad-value")
        /// OpenSSL refused.
        public static let openssl = Cause(rawValue: "openssl")
    }

    /// A trace entry.
    public init(step: Step, ms: Double, outcome: Outcome, cause: Cause? = nil, detail: String) {
        self.step = step
        self.ms = ms
        self.outcome = outcome
        self.detail = detail
        self.cause = cause
    }
}

/// A file attached to the notification.
public struct RenderedAttachment: Sendable, Equatable {
    /// Where the file is (the attachment cache, or the request's own file).
    public var path: String
    /// MIME type, from the bytes.
    public var type: String
    /// Its size.
    public var bytes: Int
    /// Its width in pixels, for images.
    public var width: Int?
    /// Its height in pixels, for images.
    public var height: Int?
    /// The URL it came from.
    public var source: String
    /// Whether it was read from the attachment cache instead of downloaded (a slow image is
    /// fast the second time: the trace and `render` say so).
    public var fromCache: Bool

    /// An attachment as shown.
    public init(path: String, type: String, bytes: Int, width: Int?, height: Int?, source: String, fromCache: Bool = false) {
        self.path = path
        self.type = type
        self.bytes = bytes
        self.width = width
        self.height = height
        self.source = source
        self.fromCache = fromCache
    }
}

extension RenderedAttachment {
    /// The attachment as `render --json`, `list --json` and `GET /inbox` write it.
    public var json: JSONValue {
        .object(
            JSONObject(
                [
                    ("path", .string(path)), ("type", .string(type)), ("bytes", .optionalInt(bytes)),
                    ("width", .optionalInt(width)), ("height", .optionalInt(height)), ("source", .string(source)),
                ] + (fromCache ? [("fromCache", .bool(true))] : [])))
    }
}

/// An action button of the notification's category, as the device shows it.
public struct RenderedAction: Sendable, Equatable {
    /// The action's identifier, as the app receives it.
    public var identifier: String
    /// The button's title, localized for the device.
    public var title: String
    /// How the device treats it (opens the app, drawn in red, needs unlocking).
    public var options: [ActionOption]

    /// An action button as shown.
    public init(identifier: String, title: String, options: [ActionOption]) {
        self.identifier = identifier
        self.title = title
        self.options = options
    }
}

/// A notification as the device shows it: the contract of `pushbox render`.
public struct RenderedNotification: Sendable {
    /// The payload file it came from, when it came from one.
    public var file: String?
    /// The bold first line.
    public var title: String?
    /// The line under the title.
    public var subtitle: String?
    /// The text; a string alert is the body.
    public var body: String?
    /// The localization the texts are in (`ko` for a `ko-KR` device).
    public var language: String?
    /// The files the extension or the request attached.
    public var attachments: [RenderedAttachment] = []
    /// `aps.category`, whose actions are shown.
    public var category: String?
    /// The category's buttons.
    public var actions: [RenderedAction] = []
    /// `aps.thread-id`: notifications with one are grouped.
    public var threadId: String?
    /// `aps.badge`.
    public var badge: Int?
    /// The sound's name (`default`, a file, or a critical sound).
    public var sound: String?
    /// `passive`, `active`, `time-sensitive` or `critical`.
    public var interruptionLevel: String?
    /// How the notification reached the screen.
    public var delivered: Delivery
    /// The HTTP status APNs would answer (200 when accepted).
    public var status: Int = 200
    /// APNs' reason when rejected (null otherwise).
    public var reason: String?
    /// Why, in words, when rejected or not meant for this device.
    public var detail: String?
    /// What a notification that was not shown (rejected, not for this device) would have shown,
    /// so a script and a person can tell which message it was: localized when it was accepted,
    /// the payload's own texts when it was refused.
    public var intended: AlertContent?
    /// For an FCM message, to whom it was addressed: its token or installation and whether it
    /// is the device's own, its topic, or its condition.
    public var addressedTo: String?
    /// What the device would do differently than meant, from validation, localization, the
    /// extension and rendering.
    public var warnings: [Diagnostic] = []
    /// Every step with its outcome and duration.
    public var trace: [TraceEntry] = []
    /// For an FCM message, the same message on the Android phone (nil for APNs payloads).
    public var android: AndroidRendering?
    /// For a Live Activity push: what the device did with it.
    public var liveActivity: LiveActivityOutcome?
    /// How the device presented it when it arrived (Focus, the scheduled summary, the level).
    public var presentation: Presentation?
    /// A communication notification's sender, group and avatar (the extension's `communicate` step).
    public var communication: Communication?

    /// An empty notification delivered as `delivered`; the renderer fills it.
    public init(delivered: Delivery) {
        self.delivered = delivered
    }

    /// The object `render --json` prints (docs/reference/render-json.md): every field of `fields`, in order.
    public var json: JSONValue {
        .object(
            JSONObject(
                Self.fields.compactMap { f in f.written(self).map { (f.key, $0) } }))
    }
}

/// Milliseconds with at most three decimals, as JSON number text.
func formatMilliseconds(_ ms: Double) -> String {
    let rounded = (ms * 1000).rounded() / 1000
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    return String(rounded)
}
