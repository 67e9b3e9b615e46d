/// Every command-line option of pushbox, declared once: its name, its value's placeholder, whether
/// it repeats, and its usual help. Command tables list these (with `with(help:)` where a command
/// says more), and commands read values back through the same declarations
/// (`args.value(Options.app)`): a misspelt option is a compile error, and `--help`, parsing and
/// reading cannot disagree.
enum Options {
    // Output and help
    static let help = OptionSpec("--help", help: "Show this help.")
    static let json = OptionSpec("--json", help: "Print JSON, one object per line.")
    static let version = OptionSpec("--version", help: "Print the version.")
    static let text = OptionSpec("--text", help: "Print the bundled samples as text instead of opening the inbox.")

    // The simulated device and app
    static let app = OptionSpec("--app", value: "DIR", help: "The app folder (localizations, pushbox.json).")
    static let lang = OptionSpec("--lang", value: "L1,L2,…", help: "The device's preferred languages, most preferred first. Default en-US.")

    // Payload input (validate, render, send)
    static let header = OptionSpec("--header", value: "NAME:VALUE", repeatable: true, help: "An APNs request header, e.g. apns-push-type:alert.")
    static let token = OptionSpec("--token", value: "HEX", help: "The device token, checked as APNs checks /3/device/<token>.")
    static let topic = OptionSpec("--topic", value: "ID", help: "apns-topic for payloads that have none. Default: the bundle id of --app.")

    // The service extension and attachments (render, serve, the TUI)
    static let noExtension = OptionSpec("--no-extension", help: "Do not run the service extension.")
    static let noCache = OptionSpec(
        "--no-cache", help: "Download every attachment again instead of reading one fetched before from the cache (a slow image stays slow).")
    static let key = OptionSpec("--key", value: "FILE", help: "The key file (required).")
    static let timeLimit = OptionSpec("--time-limit", value: "SECONDS", help: "The service extension's time limit. Default: the recipe's, else 30.")
    static let allowFiles = OptionSpec(
        "--allow-files", value: "DIR", repeatable: true,
        help: "A folder file:// media URLs may point into (the app folder and sample-payloads always may).")
    static let cache = OptionSpec("--cache", value: "DIR", help: "Where attachments are saved. Default $XDG_CACHE_HOME/pushbox/attachments.")

    // The intake (serve, the TUI and the commands that talk to them)
    static let socket = OptionSpec(
        "--socket", value: "PATH", help: "The Unix socket. Default $XDG_RUNTIME_DIR/pushbox/pushbox.sock (or /tmp/pushbox-UID/).")
    static let database = OptionSpec("--db", value: "PATH", help: "The inbox database. Default $XDG_DATA_HOME/pushbox/inbox.sqlite.")
    static let watch = OptionSpec("--watch", value: "DIR", repeatable: true, help: "Ingest .json/.apns files written or moved into this folder.")
    static let poll = OptionSpec("--poll", help: "Poll watched folders instead of using inotify.")
    static let quiet = OptionSpec("--quiet", help: "Do not log each payload taken in.")
    static let refused = OptionSpec("--refused", help: "Only the refused requests (status 400 and up).")
    static let allRequests = OptionSpec("--all", help: "pushbox's own reads of its request log (pushbox requests, exec's summary) too.")
    static let idleTimeout = OptionSpec("--idle-timeout", value: "SECONDS", help: "Close connections idle this long (APNs' IdleTimeout). Default 30.")
    static let noSocket = OptionSpec(
        "--no-socket", help: "Do not open the socket, nor the port unless --listen is given (another pushbox may be serving).")

    // The TCP port and provider authentication
    static let listen = OptionSpec(
        "--listen", value: "HOST:PORT|off",
        help: "The TCP port for every client (TLS or clear, HTTP/2 or HTTP/1.1). Default \(PortOptions.defaultListen); off turns it off.")
    static let listenAny = OptionSpec("--listen-any", help: "Allow --listen on a non-loopback address.")
    static let tlsCert = OptionSpec(
        "--tls-cert", value: "FILE", help: "Serve this PEM certificate (chain) on the port instead of one from pushbox's CA (with --tls-key).")
    static let tlsKey = OptionSpec("--tls-key", value: "FILE", help: "The private key of --tls-cert (mode 0600).")
    static let providerKey = OptionSpec(
        "--provider-key", value: "FILE", repeatable: true, help: "An APNs .p8 key whose tokens are verified: AuthKey_KEYID.p8, or KEYID=FILE.")
    static let teamID = OptionSpec("--team-id", value: "ID", help: "The team id of the --provider-key keys (default: any team).")
    static let keyID = OptionSpec("--key-id", value: "ID", help: "The key's 10-character id. Default: from the file name AuthKey_KEYID.p8.")
    static let project = OptionSpec("--project", value: "ID", help: "The Firebase project id. Default pushbox-sample.")
    static let fcmTokens = OptionSpec(
        "--fcm-tokens", value: "MODE",
        help:
            "How FCM token and fid targets are judged: any (every well-formed one is this device's; the default) or strict (404 UNREGISTERED unless it is the device's own, as FCM answers). Default: the profile's fcmTokens, else any."
    )
    static let apnsTokens = OptionSpec(
        "--apns-tokens", value: "MODE",
        help:
            "How APNs device tokens that no device of the inbox owns are taken: any (the default device's; the default) or strict (400 BadDeviceToken, as APNs answers a token it does not know). pushbox device list prints every device's token."
    )
    static let device = OptionSpec(
        "--device", value: "NAME", help: "The device of the inbox's fleet (pushbox device list). Default: phone, the inbox's own.")
    static let fcmProject = OptionSpec(
        "--fcm-project", value: "ID",
        help:
            "The Firebase project the device's FCM token belongs to. Default: the app profile's fcmProject, else the first project that sends to it.")
    static let apnsEnvironment = OptionSpec(
        "--apns-environment", value: "ENV",
        help:
            "The APNs environment of the device's token: development (an Xcode debug build) or production (TestFlight, the App Store); a push sent to the other environment's host is 400 BadDeviceToken. Default: the profile's apsEnvironment, else development."
    )
    static let path = OptionSpec("--path", help: "Print only the CA certificate's path, for scripts.")

    static let platform = OptionSpec(
        "--platform", value: "ios|android|both",
        help:
            "Which phone: ios, android (an FCM message as the FCM Android SDK shows it, from the app's strings.xml), or both. Default: ios for APNs payloads, both for FCM messages."
    )

    // Golden files (snapshot)
    static let golden = OptionSpec("--golden", value: "DIR", help: "The folder of golden files (required).")
    static let record = OptionSpec("--record", help: "Write the golden files instead of verifying them; says how many changed.")
    static let allowApps = OptionSpec(
        "--allow-apps", value: "BUNDLE,…", help: "With focus on: the apps the Focus lets through (bundle ids).")
    static let allowPeople = OptionSpec(
        "--allow-people", value: "HANDLE,…",
        help: "With focus on: the people the Focus lets through (a communication notification's sender, by handle or name).")
    static let focusFilter = OptionSpec(
        "--filter", value: "NAME",
        help:
            "With focus on: the app's Focus filter in effect (SetFocusFilterIntent); of an allowed app, only notifications whose filter-criteria is NAME show. Empty: none."
    )
    static let allowTimeSensitive = OptionSpec(
        "--allow-time-sensitive", value: "yes|no", help: "With focus on: whether time-sensitive notifications break through (iOS's default: yes).")
    static let summaryTimes = OptionSpec(
        "--times", value: "HH:MM,…", help: "With summary on: when the scheduled summary is shown, on the device clock. Default 08:00,18:00.")
    static let retries = OptionSpec(
        "--retries",
        help:
            "Instead of the requests: the verdict on the backend's retries — each message that met a failure, its attempts and their spacing against Retry-After, and retried-permanent, no-backoff, ignored-retry-after, gave-up, duplicate."
    )
    static let chaos = OptionSpec(
        "--chaos", value: "RULE", repeatable: true,
        help:
            "Start with this chaos rule (see pushbox chaos --help): e.g. --chaos 'fcm 503 UNAVAILABLE next=2'. Repeatable; the rules live as long as this pushbox."
    )
    static let png = OptionSpec(
        "--png",
        help:
            "Also each card as a PNG (NAME.png), drawn by the browser inbox's page in headless Chromium (PUSHBOX_CHROMIUM, else chromium or chromium-browser); verified within 0.1% of pixels. Skipped with a message when there is no Chromium."
    )
    static let allLanguages = OptionSpec(
        "--all-languages", help: "Every language of the app (its iOS localizations and Android folders) instead of --lang.")
    static let width = OptionSpec("--width", value: "N", help: "The card's width in columns. Default 44.")
    static let junit = OptionSpec("--junit", value: "FILE", help: "Also write a JUnit XML report, one test case per golden file.")
    static let fromInbox = OptionSpec(
        "--from-inbox", help: "Snapshot what the inbox received (--db), in arrival order, as inbox-001…: what a backend's test run sent.")

    // Documentation and shell integration
    static let output = OptionSpec("--output", value: "DIR", help: "Write every page into this folder instead of printing one.")

    // pushbox exec
    static let check = OptionSpec("--check", help: "Say whether exec can run here (namespaces, mounts, the files it binds) and why not; run nothing.")
    static let failOn = OptionSpec(
        "--fail-on", value: "WHAT,…",
        help:
            "Exit 3 when the command succeeded but sent pushes APNs or FCM would refuse: rejected (refused for what they are), refused (credentials), not-targeted (FCM messages for other devices), discarded (dropped for an offline device); and, with devices added to the inbox (pushbox device add), the fleet's findings in the run taken as one campaign: duplicate (a device got two of its notifications), missed (a device got none while others did), wrong-language (a device was shown a message in another language than its own); and the verdict on the command's retries (pushbox requests --retries): retried-permanent, no-backoff, ignored-retry-after, gave-up, and duplicate (a message delivered twice after a failure answered for it)."
    )
    static let jsonSummary = OptionSpec("--json-summary", value: "FILE", help: "Also write the summary as JSON to FILE, for scripts.")

    // The device clock and local notifications
    static let clock = OptionSpec("--clock", value: "DATE", help: "Start the device clock here, e.g. 2026-12-07T06:09:50 (in --tz). Default: now.")
    static let timeZone = OptionSpec("--tz", value: "ZONE", help: "The device's time zone, e.g. Europe/Berlin. Default: the system's.")
    static let speed = OptionSpec("--speed", value: "X", help: "Simulated seconds per real second, e.g. 60. Default 1.")
    static let schedule = OptionSpec(
        "--schedule", value: "FILE", repeatable: true, help: "Schedule this file's local notifications at start (as `pushbox schedule FILE` would).")
    static let dryRun = OptionSpec("--dry-run", help: "Print the pending set instead of scheduling into a running pushbox.")

    // Live Activities (activity start, activities)
    static let activityType = OptionSpec("--type", value: "NAME", help: "The ActivityAttributes type's name, as the app's struct is named.")
    static let attributes = OptionSpec("--attributes", value: "FILE", help: "The activity's static attributes, a JSON file.")
    static let state = OptionSpec("--state", value: "FILE", help: "Its first content state, a JSON file. Default {}.")
    static let relevance = OptionSpec("--relevance", value: "N", help: "Its relevance score: the highest is the Dynamic Island's. Default 0.")
    static let staleDate = OptionSpec("--stale-date", value: "DATE", help: "When its content goes stale, e.g. 2026-12-07T09:30:00 (in --tz).")
    static let noToken = OptionSpec("--no-token", help: "Ask for no push token (pushType nil): only the app updates it.")
    static let channel = OptionSpec("--channel", value: "ID", help: "Subscribe it to this broadcast channel (pushType: .channel(ID), iOS 18).")

    // The inbox (list, export)
    static let limit = OptionSpec("--limit", value: "N", help: "At most N notifications.")
    static let timeout = OptionSpec("--timeout", value: "SECONDS", help: "How long to wait. Default 30, at most 120.")
    static let webhook = OptionSpec(
        "--webhook", value: "URL", repeatable: true,
        help:
            "POST each stored notification's list item (as GET /api/v1/notifications gives it) as JSON to URL: never retried, 5 s at most, each delivery in the request log. On this machine only, unless --webhook-any."
    )
    static let noOpen = OptionSpec("--no-open", help: "Only print the address; open no browser.")
    static let webhookAny = OptionSpec(
        "--webhook-any", help: "Let --webhook name a URL on another machine (the inbox's notifications then leave this one).")
    static let webhookRate = OptionSpec(
        "--webhook-rate", value: "N",
        help: "Deliveries a second to each webhook, at most (default 20): those beyond are dropped and counted, never queued.")
    static let after = OptionSpec(
        "--after", value: "CURSOR",
        help:
            "Count the notifications stored after this cursor (a `cursor` of the API's items; 0: every one in the inbox, as after pushbox clear) instead of only those from now."
    )
    static let query = OptionSpec(
        "--query", value: "Q",
        help:
            "Only the notifications Q matches: free words and \"phrases\" (title, subtitle, body as shown), field:value terms (title: subtitle: body: topic: token: device: platform: lang: category: thread: collapse: status: reason: delivery: source: type: has:attachment has:warning before: after:, times as 2026-12-04T09:30 or 10m), -term to negate; every term must match."
    )
    static let history = OptionSpec("--history", help: "Every notification, oldest first, collapsed ones included.")
    static let bundleID = OptionSpec("--bundle-id", value: "ID", help: "The bundle id to use for every file.")

    // Encryption (encrypt)
    static let field = OptionSpec("--field", value: "NAME", help: "The top-level field to write. Default encrypted_data.")
    static let placeholder = OptionSpec("--placeholder", value: "TEXT", help: "The body shown if decryption fails. Default \"New message\".")

    // Lint
    static let payloads = OptionSpec("--payloads", value: "DIR", help: "Also check the loc-keys used by the .json/.apns payloads in this folder.")
    static let table = OptionSpec("--table", value: "NAME", help: "The strings table to check. Default Localizable.")

    // The TUI
    static let previewProfile = OptionSpec(
        "--profile", value: "NAME",
        help:
            "The presentation the text is judged under: banner (1 title line, 2 body lines, 2 actions), lock-screen (1 and 4; the default) or expanded (all), on a regular iPhone, or NAME:small / NAME:large for the other widths. Apple documents no limits: these are approximate, and a cut is a truncated finding."
    )
    static let bidi = OptionSpec(
        "--bidi", value: "on|off",
        help:
            "on: right-to-left text is put in visual order by the Unicode Bidirectional Algorithm (the default); off: for terminals that reorder by themselves (VTE, Konsole, mlterm). Default: the config file's bidi, else on."
    )
    static let theme = OptionSpec(
        "--theme", value: "NAME|PATH", help: "dark, light, high-contrast, ios, a theme file, or one in $XDG_CONFIG_HOME/pushbox/themes.")
}
