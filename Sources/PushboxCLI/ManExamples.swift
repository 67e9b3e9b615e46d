/// What the man pages say beyond the option table: examples for each command (each parsed
/// against its command's table by the tests, so none names an option that is gone), the exit
/// statuses, the environment and the files pushbox reads and writes.
enum ManExamples {
    /// Each command's examples: the command line after `pushbox`, and what it does.
    static let examples: [String: [(line: String, what: String)]] = [
        "": [
            ("--app MyApp --lang ko-KR,en", "the inbox on a terminal, with your app's localizations, the device in Korean"),
            ("--text", "the bundled samples as text, as a pipe gets them"),
        ],
        "validate": [
            ("push.json", "what APNs would answer, with every finding and its code"),
            ("--json --header apns-push-type:background push.json", "the same for a background push, as JSON"),
        ],
        "render": [
            ("--lang ko-KR,en push.json", "what the device shows in Korean, with the trace"),
            ("--platform both --json fcm-message.json", "an FCM message on an iPhone and on Android, as JSON"),
        ],
        "lint": [("--app MyApp", "every localization of the app checked against the development language")],
        "serve": [
            ("--app MyApp --lang ja-JP", "take pushes on the socket and the TLS port, without the inbox's screen"),
            ("--watch pushes --listen off", "render every payload file dropped into pushes/, no TCP port"),
        ],
        "send": [("push.json", "send a payload file to the running pushbox over its socket")],
        "list": [("--json --limit 20", "the inbox's last 20 notifications, one JSON object a line")],
        "replay": [("--speed 0", "send everything the inbox received again, at once")],
        "export": [("simulator-pushes", "the inbox's pushes as .apns files for xcrun simctl push")],
        "schedule": [
            ("alarms.json", "local notifications into the running pushbox"),
            ("--dry-run --clock 2026-12-07T06:09:50 --tz Asia/Seoul alarms.json", "the pending set they would give"),
        ],
        "pending": [("--json", "the running pushbox's pending local notifications and its device clock")],
        "cancel": [("alarm-*", "remove the pending requests whose identifier starts with alarm-")],
        "keygen": [("payload.key", "a new AES-256-GCM key file for encrypted payloads")],
        "encrypt": [("--key payload.key push.json", "seal the alert into encrypted_data, as a backend would")],
        "cert": [("--path", "where pushbox's local certificate authority is")],
        "provider-key": [("AuthKey_TEST.p8", "a new APNs-style provider key")],
        "provider-token": [("AuthKey_TEST.p8 --key-id ABC123DEFG --team-id DEF123GHIJ", "a provider token for curl's authorization header")],
        "fcm-credentials": [("service-account.json --project my-project", "credentials an unchanged Firebase Admin SDK sends to pushbox with")],
        "device": [
            ("", "the device's app, languages, tokens, topics, and whether it is online"),
            ("offline", "the device goes offline: pushes are kept as APNs keeps them"),
            ("subscribe news", "the app subscribes the device to the FCM topic news"),
        ],
        "requests": [
            ("--retries", "the verdict on the backend's retries after the failures it met"),
            ("--refused", "the running pushbox's recent refused requests, each with why"),
        ],
        "exec": [("--fail-on rejected,refused -- npm test", "run a backend's tests with the push hosts pointing at pushbox")],
        "snapshot": [
            ("--golden notifications --record --lang en-US,ko-KR pushes", "record the cards as golden files"),
            ("--golden notifications --lang en-US,ko-KR --junit snapshot.xml pushes", "verify them in CI"),
            ("--golden notifications --record --png --lang en-US pushes", "also each card as a PNG, drawn in headless Chromium"),
        ],
        "activities": [("--json", "the device's Live Activities, each push applied or dropped with why")],
        "activity": [("start --type MatchActivity --attributes match.json", "start a Live Activity as Activity.request does")],
        "chaos": [
            ("add 'fcm 503 UNAVAILABLE retry-after=5 next=2'", "FCM answers the next two messages 503 with Retry-After: 5"),
            (
                "add 'apns 500 InternalServerError probability=0.3 seed=7'",
                "APNs fails about a third of the pushes, the same ones on every run with seed 7"
            ),
            ("add 'goaway Shutdown' 'max-streams 1'", "GOAWAY instead of an answer; one stream at a time on every HTTP/2 connection"),
            ("add 'fcm 503 UNAVAILABLE accepted next=1'", "delivered, then answered 503: does the backend's retry make a duplicate?"),
            ("list", "the rules, each with how often it fired"),
            ("clear", "answer as the services do again"),
        ],
        "clear": [
            ("", "empty the inbox; a running inbox follows within a second"),
            ("device:ja", "delete only what the query matches (quote a query of several terms)"),
        ],
        "wait": [("--timeout 10 lang:ko", "wait until a notification shown in Korean is stored; exit 1 after 10 s")],
        "health": [("", "exit 0 once the running pushbox is ready, as a CI job waits for it")],
        "web": [("--no-open", "print the address of the inbox in a browser, e.g. http://127.0.0.1:2197/")],
        "man": [("render", "the man page of pushbox render, for man -l -")],
        "docs": [("--output docs/reference", "write the reference pages generated from pushbox's tables (what make docs runs)")],
        "completions": [("bash", "bash's completions: source <(pushbox completions bash)")],
    ]

    /// EXIT STATUS, shared by every command.
    static let exitStatus: [(code: String, meaning: String)] = [
        ("0", "Done, and nothing was refused or found wrong."),
        (
            "1",
            "Done, and something was: a payload refused, a golden that differs, a finding at the level asked for, a file that could not be read or written, no running pushbox to ask."
        ),
        ("2", "The command line was wrong (an unknown option, a missing value, a file that names no inbox); nothing was done."),
    ]

    /// ENVIRONMENT: the variables pushbox reads.
    static let environment: [(name: String, meaning: String)] = [
        ("XDG_DATA_HOME", "The inbox's default folder: $XDG_DATA_HOME/pushbox (else ~/.local/share/pushbox)."),
        ("XDG_CACHE_HOME", "Downloaded attachments: $XDG_CACHE_HOME/pushbox/attachments (else ~/.cache/pushbox/attachments)."),
        ("XDG_CONFIG_HOME", "Themes: $XDG_CONFIG_HOME/pushbox/themes (else ~/.config/pushbox/themes)."),
        ("XDG_RUNTIME_DIR", "The socket: $XDG_RUNTIME_DIR/pushbox/pushbox.sock (else a private /tmp/pushbox-UID/)."),
        ("PUSHBOX_SAMPLES", "The bundled sample-payloads folder, when pushbox cannot find it beside its binary."),
        ("PUSHBOX_TEXT", "Set: pushbox with no command prints the samples as text even on a terminal."),
        ("NO_COLOR", "Set: the inbox draws without colours, with attributes only."),
        ("TERM", "The terminal the inbox draws on."),
    ]

    /// FILES: what pushbox keeps.
    static let files: [(path: String, meaning: String)] = [
        ("~/.local/share/pushbox/inbox.sqlite", "The inbox (SQLite, WAL): every payload as received, with the device's judgement of it."),
        ("~/.local/share/pushbox/inbox.device.json", "The device beside the inbox: its app, languages, registration, topics and state."),
        ("~/.local/share/pushbox/inbox.activities.json", "The device's Live Activities beside the inbox."),
        ("~/.cache/pushbox/attachments/", "Attachments downloaded by the service extension."),
        ("~/.config/pushbox/themes/", "Your themes, by name."),
        ("APP/pushbox.json", "An app folder's profile: bundle id, topics, categories, the extension's recipe, Live Activities."),
    ]
}
