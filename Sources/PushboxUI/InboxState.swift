import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxSystem

/// One notification in the inbox, as the UI keeps it.
public struct InboxItem: Sendable, Equatable {
    /// The store's row id.
    public var id: Int64
    /// The apns-id it was answered with.
    public var apnsID: String
    /// When it was taken in.
    public var receivedAt: Date
    /// Where it came from (socket, folder, replay, fcm, local).
    public var source: String
    /// The phone's judgement as stored with the row: its answer, and what the inbox lists of
    /// the payload (`listing`), read once when it arrived.
    public var verdict: Verdict
    /// APNs' status for it.
    public var status: Int { verdict.status }
    /// APNs' reason when refused.
    public var reason: String? { verdict.reason }
    /// Why it was refused, in words.
    public var detail: String? { verdict.detail }
    /// `thread-id`, for grouping.
    public var threadID: String? { verdict.listing?.threadID }
    /// The alert as sent (literal fields, or the loc-key names), for before/after.
    public var sentTitle: String? { verdict.listing?.title }
    /// The body as sent (literal, or the loc-key's name).
    public var sentBody: String? { verdict.listing?.body }
    /// Whether the payload carries `encrypted_data`.
    public var encrypted: Bool { verdict.listing?.encrypted ?? false }
    /// The stored payload, pretty-printed, for the raw view.
    public var rawText: String
    /// The payload's bytes as text, for search (kept for arrivals and the first page; empty for
    /// the rest of a large inbox, whose memory it would double).
    public var payloadText = ""
    /// `threadID` as a small number (0: none), so grouping never hashes strings.
    public let threadKey: Int
    /// The app it was sent to (its `apns-topic` without a push-type suffix), when known.
    public var app: String? { verdict.topic.map(PushType.bundleID(fromTopic:)) }
    /// A banner, a background event (no alert: nothing shown), or a fired local notification.
    public var kind: Kind = .push
    /// Where it stands in delivery when the device was offline as it arrived (nil: delivered).
    public var delivery: DeliveryRecord? = nil
    /// The device token of `/3/device/<token>`, for search.
    public var deviceToken: String? = nil

    /// What kind of notification a row is.
    public enum Kind: Sendable, Equatable {
        case push, background, local
    }

    /// A row of the inbox judged as `verdict`.
    public init(id: Int64, apnsID: String, receivedAt: Date, source: String, verdict: Verdict, rawText: String = "") {
        self.id = id
        self.apnsID = apnsID
        self.receivedAt = receivedAt
        self.source = source
        self.verdict = verdict
        self.rawText = rawText
        threadKey = verdict.listing?.threadID.map(ThreadKeys.key) ?? 0
    }

    /// A row of the inbox with this answer and listing.
    public init(
        id: Int64, apnsID: String, receivedAt: Date, source: String, status: Int, reason: String? = nil, detail: String? = nil,
        threadID: String? = nil, sentTitle: String? = nil, sentBody: String? = nil, encrypted: Bool = false, rawText: String = "",
        app: String? = nil
    ) {
        let listing = PayloadListing(
            title: sentTitle, body: sentBody, threadID: threadID, background: false, encrypted: encrypted, firedAt: nil)
        self.init(
            id: id, apnsID: apnsID, receivedAt: receivedAt, source: source,
            verdict: Verdict(status: status, reason: reason, detail: detail, topic: app, listing: listing), rawText: rawText)
    }

    /// Whether APNs refused it.
    public var isRejected: Bool { status != 200 }
}

/// Thread ids interned as numbers 1, 2, 3, … for the life of the process.
public enum ThreadKeys {
    private static let keys = Locked<[String: Int]>([:])

    /// The number of `thread`, given on first sight.
    public static func key(_ thread: String) -> Int {
        keys.withLock { keys in
            if let k = keys[thread] { return k }
            let k = keys.count + 1
            keys[thread] = k
            return k
        }
    }

    /// The largest key handed out so far.
    public static var count: Int { keys.withLock { $0.count } }
}

/// A window over the inbox.
public enum Overlay: Sendable, Equatable {
    case help
    case languagePicker(selection: Int)
    /// The search box, editing `InboxList.search`.
    case search
    case matrix
    /// What the app receives for a tap or an action button.
    case response(AppResponse)
    /// The pending local notifications, the clock, and what was dropped.
    case scheduled
    /// The HTTP requests on record, newest first.
    case requests
    /// The simulated device: its tokens, state and FCM topics with who set each.
    case device
    /// The device's Live Activities, each with its timeline of pushes.
    case activities
    /// The selected push on every device of the fleet, side by side.
    case fleet
    /// The chaos rules: each with how often it fired; switched on and off, added, removed.
    case chaos
}

/// What the footer says after an action, as a value; the view words it.
public enum StatusNote: Sendable, Equatable {
    /// The key's action cannot be done now.
    case unavailable(Unavailable)
    /// The lock-screen preview was switched on or off.
    case preview(PreviewProfile?)
    /// The theme now in use.
    case theme(String)
    /// The list's filter now.
    case filter(Filter)
    /// The device language now.
    case language(String)
    /// What was typed in the language picker is no language tag.
    case notALanguageTag(String)
    /// `X` was pressed once: how many notifications a second `X` deletes.
    case clearAsked(Int)
    /// What the runtime reported: a replay's answer, an export's file, a failure.
    case message(String)
    /// The device of the fleet now shown, and its language.
    case device(String, String)
}

/// What the header says about the intake.
public struct IntakeStatus: Sendable, Equatable {
    /// The Unix socket's path.
    public var socket: String?
    /// Watched folders.
    public var watched: [String]
    /// `HOST:PORT` of the TCP port (TLS, HTTP/2, HTTP/1.1), when it listens.
    public var port: String?

    /// What the header says the intake listens on.
    public init(socket: String? = nil, watched: [String] = [], port: String? = nil) {
        self.socket = socket
        self.watched = watched
        self.port = port
    }
}

/// The whole UI as a value: `update` changes it, `view` draws it. Each component keeps its own
/// model (`InboxList`, `CardModel`, `DeviceLanguages`); what several of them read — the
/// renderings, the screen's size, the clock — lives here.
public struct InboxState: Sendable {
    /// The app's name, shown in the header and searched.
    public var appName: String
    /// The device's languages and the picker's choices.
    public var device: DeviceLanguages
    /// The inbox list: notifications, search, filter, threads, selection.
    public var list = InboxList()
    /// The selected notification's card.
    public var card = CardModel()
    /// The window open over the inbox, if any.
    public var overlay: Overlay? { didSet { if oldValue != overlay { overlayScroll = 0 } } }
    /// The last notification deleted with `d`, for `u` to bring back.
    public var lastDeleted: InboxItem?
    /// A language tag being typed in the language picker (`/`); nil while none is.
    public var typedLanguage: String?
    /// `X` was pressed once: the next `X` clears the inbox, any other key forgets it.
    public var clearAsked = false
    /// How many lines of the open overlay are scrolled past (j/k, PgDn/PgUp).
    public var overlayScroll = 0
    /// Renderings for the current language list, by notification id.
    public var renders: [Int64: RenderedNotification] = [:] { didSet { rendersVersion &+= 1 } }
    /// Counts changes to `renders`, for the rows cache's key (rows depend on renderings only when
    /// the filter or the search reads them).
    public private(set) var rendersVersion = 0
    /// Thumbnails by the request the card made for them (`InboxView.thumbnailRequest`).
    public var thumbnails: [ThumbnailRequest: Thumbnail] = [:]
    /// The terminal's palette for thumbnails: 256, 16 or 8 colours; 0 draws none.
    public var palette = 0
    /// The matrix: language → rendering of the selected notification.
    public var matrix: [(language: String, note: RenderedNotification)] = []
    /// The running instance's local notifications and device clock (nil: none kept).
    public var scheduled: ScheduledInfo?
    /// The HTTP requests on record as the runtime last reported them, newest first.
    public var requests: [RequestLine] = []
    /// The device's Live Activities as the runtime last reported them (nil: none kept).
    public var activities: ActivitiesInfo?
    /// The chaos rules as the runtime last reported them; the header says "chaos on" while any is.
    public var chaos = ChaosPanel()
    /// Whether the device's app is installed (`U` uninstalls and installs it: APNs then answers
    /// 410 Unregistered, FCM 404 UNREGISTERED).
    public var appInstalled = true
    /// Whether the device is online (`O` takes it offline and back: the push service keeps
    /// what it accepts meanwhile, and delivers it from storage).
    public var deviceOnline = true
    /// Whether right-to-left text is put in visual order here (the Unicode Bidirectional
    /// Algorithm); off for terminals that reorder by themselves (`--bidi off`).
    public var bidi = true
    /// The device's registration as its file last said (tokens, topics subscribed since).
    public var registration = DeviceRegistration()
    /// The app profile's FCM topics (`fcmTopics`), for the Device view's "who set each".
    public var profileTopics: [String] = []
    /// What the header says the intake listens on.
    public var intake = IntakeStatus()
    /// The theme names `t` cycles through; the first is the one chosen at start.
    public var themes: [String] = ["dark"]
    /// The theme in use, as an index into `themes`.
    public var themeIndex = 0
    /// The footer's message after an action, until the next key.
    public var status: StatusNote?
    /// The terminal's size in cells.
    public var width = 80
    /// Rows.
    public var height = 24
    /// The clock and zone the view shows times in: set by the loop before each frame (fixed in
    /// tests); with no clock, cards show no age.
    public var now: Date?

    /// The rendering of `item` as the device has it now: with where it stands in delivery
    /// (stored while offline, delivered from storage, discarded) applied.
    /// With previews hidden (never, or when unlocked while the card shows the lock screen), the
    /// category's placeholder stands for the content, as the phone shows it.
    public func shown(_ item: InboxItem) -> RenderedNotification? {
        guard let found = renders[item.id] else { return nil }
        var r = found.presenting(item.verdict.presentation)
        if let preview = r.presentation?.preview, preview == "hidden" || (preview == "when-unlocked" && card.lockScreen) {
            r = (stackWording ?? StackWording(appName: appName, categories: [], localizer: nil)).hidingPreview(
                r, count: list.threadSize(of: item), preferred: device.languages)
        }
        guard let delivery = item.delivery else { return r }
        return r.delivering(delivery, receivedAt: item.receivedAt, now: now ?? item.receivedAt)
    }
    /// The zone times are shown in.
    public var timeZone: TimeZone = .current
    /// An empty inbox for the app, the device's languages, and the languages `L` cycles through.
    /// The device of the fleet whose notifications the inbox shows (`phone`: the default one).
    public var shownDevice = FleetDevice.defaultName
    /// The default device's languages while another device is shown.
    public var ownLanguages: [String]?
    /// The fleet view's content (nil while it is being made).
    public var fleet: FleetSummary?
    /// How the app's stacks and hidden previews are worded (its categories and strings); nil:
    /// iOS's own wording.
    public var stackWording: StackWording?

    public init(appName: String, languages: [String], languageChoices: [String]) {
        self.appName = appName
        device = DeviceLanguages(languages: languages, choices: languageChoices)
    }

    /// The name of the theme in use.
    public var theme: String { themes.isEmpty ? "dark" : themes[themeIndex % themes.count] }

    /// The list's lines (cached between changes).
    public var rows: [Row] { list.rows(renders: renders, rendersVersion: rendersVersion, appName: appName) }

    /// The notification on the selected row, if it is one.
    public var selectedItem: InboxItem? {
        let r = rows
        guard list.selected >= 0, list.selected < r.count, case .item(let i) = r[list.selected] else { return nil }
        return list.items[i]
    }

    /// Rows the list pane has room for.
    var listHeight: Int { max(1, height - 2) }
}

/// What the Live Activities view shows, as the runtime last reported it.
public struct ActivitiesInfo: Sendable, Equatable {
    /// The activities and what reached none.
    public var book: ActivityBook
    /// The device clock, UNIX seconds, when it was read.
    public var now: Double
    /// The device clock as the header words it.
    public var clock: String
    /// Each type's lock-screen template (the profile's).
    public var templates: [String: String]
    /// The device's time zone, in which times are shown.
    public var timeZone: TimeZone

    /// The view's contents.
    public init(book: ActivityBook, now: Double, clock: String, templates: [String: String], timeZone: TimeZone) {
        self.book = book
        self.now = now
        self.clock = clock
        self.templates = templates
        self.timeZone = timeZone
    }
}

/// What the Scheduled view shows, as the runtime last reported it.
public struct ScheduledInfo: Sendable, Equatable {
    /// One pending request: next fire time (as the device clock shows it), identifier, trigger.
    public struct Pending: Sendable, Equatable {
        /// When it fires next, as the device clock shows it.
        public var fire: String
        /// The request's identifier.
        public var identifier: String
        /// Its trigger, in words.
        public var trigger: String

        /// A pending request as the Scheduled view lists it.
        public init(fire: String, identifier: String, trigger: String) {
            self.fire = fire
            self.identifier = identifier
            self.trigger = trigger
        }
    }

    /// "Mon 2026-12-07 06:09:52 ×60".
    public var clock: String
    /// Whether the clock differs from the wall clock (then the header shows it).
    public var simulated: Bool
    /// Pending requests, soonest first.
    public var pending: [Pending]
    /// How many may be pending (64 on iOS).
    public var limit: Int
    /// "identifier: reason" for requests dropped over the limit or refused.
    public var dropped: [String]
    /// How many fired so far.
    public var delivered: Int

    /// The Scheduled view's contents.
    public init(clock: String, simulated: Bool, pending: [Pending], limit: Int, dropped: [String], delivered: Int) {
        self.clock = clock
        self.simulated = simulated
        self.pending = pending
        self.limit = limit
        self.dropped = dropped
        self.delivered = delivered
    }
}

/// One HTTP request as the Requests view lists it.
/// The chaos view's content: the rules, the one selected, a rule being typed.
public struct ChaosPanel: Sendable, Equatable {
    /// One rule as the view shows it.
    public struct Rule: Sendable, Equatable {
        public var id: Int
        public var text: String
        public var active: Bool
        public var spent: Bool
        public var matched: Int
        public var fired: Int

        public init(id: Int, text: String, active: Bool, spent: Bool, matched: Int, fired: Int) {
            self.id = id
            self.text = text
            self.active = active
            self.spent = spent
            self.matched = matched
            self.fired = fired
        }
    }

    public var rules: [Rule] = []
    /// Whether any rule is on (pushes meet chaos).
    public var armed = false
    /// The selected rule's index.
    public var selection = 0
    /// A rule being typed (`a`); nil while none is.
    public var typed: String?

    public init(rules: [Rule] = [], armed: Bool = false) {
        self.rules = rules
        self.armed = armed
    }
}

public struct RequestLine: Sendable, Equatable {
    /// When it was answered (`12:40:01`).
    public var time: String
    /// The status answered.
    public var status: Int
    /// APNs' reason or Google's status, when refused.
    public var reason: String?
    /// `POST /3/device/…`.
    public var request: String
    /// How it came: protocol and listener.
    public var via: String
    /// pushbox's cause for a refusal.
    public var cause: String?
    /// The chaos rule that made the answer, when one did.
    public var chaos: String? = nil

    /// A line of the view.
    public init(time: String, status: Int, reason: String?, request: String, via: String, cause: String?, chaos: String? = nil) {
        self.time = time
        self.status = status
        self.reason = reason
        self.request = request
        self.via = via
        self.cause = cause
        self.chaos = chaos
    }

    /// Whether pushbox refused it.
    public var refused: Bool { status >= 400 }
}
