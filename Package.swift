// swift-tools-version:6.0
// pushbox: a terminal inbox that shows push notifications the way an iPhone would.
// Dependency rule: PushboxJSON <- PushboxLocalization <- PushboxPayload <- PushboxCLI <- pushbox; no outside Swift packages.
import PackageDescription

let package = Package(
    name: "pushbox",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pushbox", targets: ["pushbox"]),
        .executable(name: "pushbox-bench", targets: ["pushbox-bench"]),
    ],
    targets: [
        // Strict JSON (ordered objects, line:column errors), UTF-8 byte checks, and the Diagnostic and
        // file-error text every reader of a file gives.
        .target(name: "PushboxJSON", exclude: ["DESIGN.md"]),
        // A value several threads share behind a pthread mutex (Locked), the XDG directories.
        .target(name: "PushboxSystem", exclude: ["DESIGN.md"]),
        // Plural rules, locale number formatting and character widths behind a header with no ICU
        // types, from the Swift toolchain's own ICU (lib_FoundationICU, newer CLDR than Debian's).
        .target(name: "CICUWrap", linkerSettings: [.linkedLibrary("_FoundationICU")]),
        // .strings/.stringsdict/.xcstrings readers, language matching, the format engine,
        // plural rules, pseudolanguages, lint. Plain Swift; ICU only through CICUWrap.
        .target(name: "PushboxLocalization", dependencies: ["PushboxSystem", "PushboxJSON", "CICUWrap"], exclude: ["DESIGN.md"]),
        // OpenSSL libcrypto from Debian (libssl-dev): AES-256-GCM, SHA-256, random bytes.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // AES-256-GCM sealing/opening, key files (refused when group or others can read them), hashes.
        .target(name: "PushboxCrypto", dependencies: ["CCrypto"], exclude: ["DESIGN.md"]),
        // OpenSSL libssl (and the certificate, PEM and ECDSA parts of libcrypto), with macro shims.
        .systemLibrary(name: "CSSL", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
        // TLS for the TCP port: the local certificate authority (name-constrained), certificates per
        // SNI name, ALPN, non-blocking TLS streams, ES256 signatures of APNs provider tokens.
        .target(name: "PushboxTLS", dependencies: ["CSSL", "PushboxJSON"], exclude: ["DESIGN.md"]),
        // libnghttp2 from Debian: HTTP/2 framing without I/O.
        .systemLibrary(name: "CNGHTTP2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        // libcurl's variadic setopt as typed C functions.
        .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("curl")]),
        // stb_image (libstb-dev), for image headers.
        .systemLibrary(name: "CStb", providers: [.apt(["libstb-dev"])]),
        // Attachment downloads (libcurl: deadline, size caps, protocol allowlist, redirects),
        // media type sniffing, image pixel sizes, the content-addressed attachment cache.
        .target(
            name: "PushboxFetch", dependencies: ["PushboxSystem", "CCurlShim", "CStb", "PushboxPayload", "PushboxCrypto", "PushboxJSON"],
            exclude: ["DESIGN.md"]),
        // Payload model, APNs/FCM validation, provider tokens and OAuth assertions, the app's profile, the
        // rendered model and the vocabulary of a judgement (delivery record, Live Activity outcome). No device
        // state, no curl, no OpenSSL.
        .target(name: "PushboxPayload", dependencies: ["PushboxJSON", "PushboxLocalization"], exclude: ["DESIGN.md"]),
        // What the phone shows: the renderer (localization, the service extension's steps with their
        // downloads and decryption, Android's resources), local requests' attachments.
        .target(
            name: "PushboxRendering",
            dependencies: [
                "PushboxSystem", "PushboxPayload", "PushboxDevice", "PushboxJSON", "PushboxLocalization", "PushboxCrypto", "PushboxFetch",
            ], exclude: ["DESIGN.md"]),
        // Every linter: localizations (.strings, .stringsdict, .xcstrings), the payloads that use
        // them, and Android's strings.xml beside the iOS app.
        .target(
            name: "PushboxLint", dependencies: ["PushboxPayload", "PushboxRendering", "PushboxLocalization", "PushboxJSON"], exclude: ["DESIGN.md"]),
        // The command table, argument parsing, subcommands and their output.
        .target(
            name: "PushboxCLI",
            dependencies: [
                "PushboxSystem",
                "PushboxPayload", "PushboxJSON", "PushboxLocalization", "PushboxCrypto", "PushboxFetch", "PushboxStore", "PushboxDevice",
                "PushboxIntake", "PushboxUI", "PushboxTerminal", "PushboxThumbnail", "PushboxTLS", "PushboxSandbox", "PushboxLint",
                "PushboxRendering", "PushboxInbox",
            ], exclude: ["DESIGN.md"]),
        // SQLite from Debian, with a shim for the SQLITE_TRANSIENT macro.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The inbox: SQLite in WAL mode, a versioned schema, raw payloads committed before any answer.
        .target(
            name: "PushboxStore", dependencies: ["PushboxSystem", "CSQLite", "PushboxPayload", "PushboxDevice", "PushboxJSON", "PushboxCrypto"],
            exclude: ["DESIGN.md"]),
        // The simulated phone, knowing no store: the one judgement of every payload (Phone.judge, live
        // or dry run, giving a Verdict), its registration beside the inbox (installed, online, tokens,
        // subscriptions, languages, a change counter), offline storage, its topics, Live Activities, the
        // clock and pending local notifications, the files they are kept in.
        .target(
            name: "PushboxDevice", dependencies: ["PushboxSystem", "CPosix", "PushboxPayload", "PushboxLocalization", "PushboxJSON"],
            exclude: ["DESIGN.md"]),
        // libc functions the Glibc module hides (gettid, for per-thread priority).
        .systemLibrary(name: "CPosix"),
        // libmicrohttpd's variadic start as a fixed C function.
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
        // The inbox's application layer: the one path every payload takes in (IntakeService: judged by
        // the phone, committed, answered, published once), the arrival feed, the one owner of every
        // rendering, the local notifications' scheduler.
        .target(
            name: "PushboxInbox",
            dependencies: [
                "PushboxSystem", "CPosix", "PushboxPayload", "PushboxDevice", "PushboxRendering", "PushboxStore", "PushboxJSON",
                "PushboxLocalization",
            ], exclude: ["DESIGN.md"]),
        // Intake: APNs-shaped HTTP on a Unix socket (libmicrohttpd) and on one TCP port (TLS, HTTP/2
        // through nghttp2, HTTP/1.1 through libmicrohttpd), provider tokens, the folder watch
        // (inotify), the APNs, FCM and pushbox routes: transport, handing each payload to the inbox.
        .target(
            name: "PushboxIntake",
            dependencies: [
                "PushboxSystem",
                "CMicroHTTPD", "CPosix", "CNGHTTP2", "PushboxTLS", "PushboxPayload", "PushboxDevice", "PushboxInbox", "PushboxStore", "PushboxJSON",
                "PushboxCrypto",
            ], exclude: ["DESIGN.md"]),
        // The inbox UI as values: state, messages, update, keymaps, themes, view → Screen. No curses.
        .target(
            name: "PushboxUI", dependencies: ["PushboxSystem", "PushboxPayload", "PushboxDevice", "PushboxLocalization", "PushboxJSON"],
            exclude: ["DESIGN.md"]),
        // libchafa (libchafa-dev, libglib2.0-dev) for pkg-config flags; only CThumbnail's .c includes it.
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // chafa behind a plain-C header: RGBA in, symbols and palette colours per cell out.
        .target(name: "CThumbnail", dependencies: ["CChafa"]),
        // Thumbnails of image attachments (stb_image decodes, chafa draws), cached per file and size.
        .target(name: "PushboxThumbnail", dependencies: ["CThumbnail", "PushboxFetch", "PushboxSystem", "PushboxUI"], exclude: ["DESIGN.md"]),
        // ncursesw (libncursesw5-dev) behind a shim with the wide-character defines and getters.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncursesw5-dev"])]),
        // Screen → ncursesw (only changed cells), keys/mouse/resize → messages. The only curses user.
        .target(
            name: "PushboxTerminal", dependencies: ["PushboxSystem", "CNcursesw", "PushboxUI", "PushboxJSON", "PushboxLocalization"],
            exclude: ["DESIGN.md"]),
        // An HTTP server on 127.0.0.1 for tests and benchmarks (slow, huge, redirecting, lying responses).
        .target(name: "PushboxLoopback", dependencies: ["PushboxSystem", "PushboxJSON"]),
        // posix_spawn with every descriptor above 2 closed in the child (hidden from Swift's Glibc).
        .target(name: "CSpawn"),
        // Linux namespaces for `pushbox exec`: unshare, uid maps, loopback up, bind mounts, listeners
        // made inside and handed back over SCM_RIGHTS, then exec — in the forked child, system calls only.
        .target(name: "CNamespace"),
        // `pushbox exec`'s namespaces: the files bound over the system's (hosts, CA bundles, Java's
        // truststore), the child, the relay from the listeners inside to pushbox's port socket.
        .target(name: "PushboxSandbox", dependencies: ["CNamespace"], exclude: ["DESIGN.md"]),
        // Paths and a subprocess runner for the test targets.
        .target(name: "PushboxTestSupport", dependencies: ["PushboxSystem", "CSpawn", "PushboxJSON", "PushboxFetch"]),
        // Thin executable: hands argv to PushboxCLI.
        .executableTarget(name: "pushbox", dependencies: ["PushboxCLI"]),
        // The cheapest durable intake (libmicrohttpd + one SQLite insert per request), in C: the
        // yardstick `pushbox-bench intake` measures pushbox serve against.
        .executableTarget(name: "pushbox-anchor", linkerSettings: [.linkedLibrary("microhttpd"), .linkedLibrary("sqlite3")]),
        // Keep-alive HTTP/1.1 clients on a Unix socket at C speed, for pushbox-bench intake.
        .target(name: "CLoadGen"),
        // One fuzz target per parser, plain Swift: libFuzzer runs them (make fuzz) and the suite
        // replays every kept input.
        .target(
            name: "PushboxFuzzTargets",
            dependencies: [
                "PushboxPayload", "PushboxJSON", "PushboxLocalization", "PushboxDevice", "PushboxIntake", "PushboxStore", "PushboxRendering",
                "PushboxInbox", "PushboxFetch",
            ]),
        // The fuzz targets in one executable: libFuzzer's with -DPUSHBOX_FUZZ, a replayer otherwise.
        .executableTarget(name: "pushbox-fuzz", dependencies: ["PushboxFuzzTargets"]),
        // Benchmarks, printed as figures and ratios against a baseline in the same run.
        .executableTarget(
            name: "pushbox-bench",
            dependencies: [
                "PushboxPayload", "PushboxJSON", "PushboxLocalization", "PushboxFetch", "PushboxLoopback", "PushboxStore", "PushboxIntake",
                "PushboxRendering", "PushboxTerminal", "PushboxTLS", "PushboxTestSupport", "CLoadGen", "PushboxInbox", "PushboxDevice",
                "PushboxSystem",
            ]),
        .testTarget(name: "PushboxFuzzTests", dependencies: ["PushboxFuzzTargets", "PushboxTestSupport"]),
        .testTarget(name: "PushboxJSONTests", dependencies: ["PushboxSystem", "PushboxJSON", "PushboxPayload"]),
        .testTarget(
            name: "PushboxLocalizationTests", dependencies: ["PushboxLocalization", "PushboxJSON", "PushboxTestSupport"],
            exclude: ["Java", "AndroidRuntime"]),
        .testTarget(name: "PushboxCryptoTests", dependencies: ["PushboxCrypto"]),
        .testTarget(name: "PushboxTLSTests", dependencies: ["PushboxSystem", "PushboxTLS", "PushboxJSON"]),
        .testTarget(name: "PushboxFetchTests", dependencies: ["PushboxFetch", "PushboxLoopback", "PushboxPayload"]),
        .testTarget(name: "PushboxStoreTests", dependencies: ["PushboxSystem", "PushboxStore", "PushboxPayload", "PushboxDevice", "PushboxJSON"]),
        .testTarget(
            name: "PushboxIntakeTests",
            dependencies: [
                "PushboxSystem",
                "PushboxIntake", "PushboxDevice", "PushboxTLS", "PushboxStore", "PushboxPayload", "PushboxFetch", "PushboxJSON", "PushboxTestSupport",
                "PushboxRendering", "PushboxInbox",
            ]),
        .testTarget(
            name: "PushboxUITests", dependencies: ["PushboxUI", "PushboxPayload", "PushboxDevice", "PushboxLocalization", "PushboxJSON"],
            exclude: ["Snapshots"]),
        .testTarget(name: "PushboxThumbnailTests", dependencies: ["PushboxThumbnail", "PushboxUI"]),
        .testTarget(
            name: "PushboxInboxTests",
            dependencies: [
                "PushboxSystem",
                "PushboxInbox", "PushboxPayload", "PushboxDevice", "PushboxLocalization", "PushboxRendering", "PushboxStore", "PushboxJSON",
                "PushboxTestSupport",
            ]),
        .testTarget(
            name: "PushboxDeviceTests",
            dependencies: [
                "PushboxSystem", "PushboxDevice", "PushboxPayload", "PushboxJSON", "PushboxLocalization", "PushboxRendering", "PushboxTestSupport",
            ]),
        .testTarget(name: "PushboxLintTests", dependencies: ["PushboxLint", "PushboxLocalization", "PushboxPayload", "PushboxJSON"]),
        .testTarget(name: "PushboxSandboxTests", dependencies: ["PushboxSandbox"]),
        .testTarget(name: "PushboxTerminalTests", dependencies: ["PushboxTerminal", "PushboxUI", "PushboxLocalization"]),
        .testTarget(
            name: "PushboxRenderingTests",
            dependencies: [
                "PushboxRendering", "PushboxPayload", "PushboxJSON", "PushboxLocalization", "PushboxFetch", "PushboxCrypto", "PushboxLoopback",
                "PushboxTestSupport",
            ]),
        .testTarget(
            name: "PushboxPayloadTests",
            dependencies: ["PushboxPayload", "PushboxDevice", "PushboxJSON", "PushboxLocalization", "PushboxTestSupport", "PushboxRendering"]),
        .testTarget(
            name: "PushboxCLITests",
            dependencies: [
                "PushboxSystem",
                "PushboxCLI", "PushboxPayload", "PushboxDevice", "PushboxJSON", "PushboxFetch", "PushboxIntake", "PushboxTerminal", "PushboxUI",
                "PushboxStore",
                "PushboxTestSupport", "PushboxInbox", "PushboxLoopback",
            ], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
