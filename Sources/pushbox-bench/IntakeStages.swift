import Foundation
import PushboxDevice
import PushboxInbox
import PushboxIntake
import PushboxLocalization
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxTestSupport

/// `pushbox-bench intake-stages`: where the socket intake's time goes, as throughput. The same
/// load as `intake` at 16 clients, on the anchor, `pushbox serve`, and servers that take each
/// push only so far before answering — read, validated, judged by the device, stored — then
/// through serve's router and intake service, without and with the renderings. Each stage's
/// server is this program (`stage-server`, a child process) on serve's HTTP/1.1 server, with
/// serve's router deciding every head and logging every answer, and the bundled sample app's
/// device set up as serve sets it up, so consecutive rows differ by one stage's work.
enum IntakeStages {
    /// How far a stage server takes a push before it answers.
    enum Stage: String, CaseIterable {
        /// Read and answered 200: libmicrohttpd, the batch hand-over, the router, the request log.
        case answer
        /// Validated as APNs validates, with the device's context.
        case validate
        /// Judged by the device (validation included): its registration, targeting, presentation.
        case judge
        /// Judged and its row committed.
        case store
        /// Through serve's router and intake service, with no renderings: the route, the chaos
        /// key, the row's device clock, rows announced to the group commit, serve's answer.
        case routed
        /// Through serve's router and intake, with the renderings: each arrival published to
        /// them once answered, as serve does.
        case full

        /// Whether it keeps what it acknowledges.
        var stores: Bool { self == .store || self == .routed || self == .full }

        /// The row's name.
        var label: String {
            switch self {
            case .answer: "answered"
            case .validate: "+ validated"
            case .judge: "+ judged"
            case .store: "+ stored"
            case .routed: "+ routed"
            case .full: "+ rendering"
            }
        }
    }

    /// The clients of every run: the issue's common case.
    static let clients = 16

    /// Runs `rounds` rounds of every server alternated, prints each round and the medians, and
    /// writes the medians into `markdown`'s `intake-stages` block when given.
    static func run(total: Int, rounds: Int, markdown: String?) {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
        let (pushbox, anchor, bench) = (bin + "/pushbox", bin + "/pushbox-anchor", bin + "/pushbox-bench")
        for tool in [pushbox, anchor, bench] where !FileManager.default.isExecutableFile(atPath: tool) {
            print("error: \(tool) is missing; build it first (swift build -c release)")
            exit(1)
        }
        let payloads = (0..<total).map { Array(SyntheticPayloads.make($0).utf8) }
        print("pushbox-bench intake-stages: \(total) different payloads of about \(payloads[0].count) bytes per run, \(clients) keep-alive clients")
        print("  on the Unix socket; the anchor, pushbox serve, and stage servers that take a push only so far before answering;")
        print("  \(rounds) rounds, the servers alternated in each")
        var servers = [
            IntakeBenchmark.anchorServer(anchor),
            IntakeBenchmark.Server(name: "pushbox serve") { socket, db in try IntakeBenchmark.serve(pushbox, socket: socket, db: db) },
        ]
        for stage in Stage.allCases {
            servers.append(
                IntakeBenchmark.Server(name: stage.label, stores: stage.stores, renders: stage == .full) { socket, db in
                    try Subprocess.Child(bench, ["stage-server", stage.rawValue, socket, db])
                })
        }
        let (medians, ratios, lost) = IntakeBenchmark.alternate(servers, total: total, clients: clients, payloads: payloads, rounds: rounds)
        var rows: [[String]] = []
        for (i, server) in servers.enumerated() {
            // What the stage adds to the one before it, in CPU a push (the first two rows stand alone).
            let added = i > 2 ? String(format: "+%.0f µs", medians[i].cpuMicros - medians[i - 1].cpuMicros) : "—"
            rows.append([
                server.name, BenchReport.rate(medians[i].rate, p99: medians[i].p99), String(format: "%.2f×", ratios[i]),
                String(format: "%.0f µs", medians[i].cpuMicros), added,
            ])
        }
        let summary =
            "Each row the median of \(rounds) round\(rounds == 1 ? "" : "s") at \(clients) clients; the ratio is to the anchor in the same round. The stage servers before \"+ stored\" keep nothing they acknowledge."
        print("  " + summary)
        if let markdown {
            writeBlock(
                "intake-stages", into: markdown, command: "pushbox-bench intake-stages \(total) \(rounds)", runs: rounds, rows: rows, goals: summary)
        }
        if lost {
            print("error: a run lost or failed requests")
            exit(1)
        }
    }

    /// The child: serves `socket` with an inbox at `db` set up as serve sets up the bundled
    /// sample app's device, taking each push only as far as `stage`; runs until it is killed.
    static func serveStage(_ name: String, socket: String, db: String) -> Never {
        guard let stage = Stage(rawValue: name), let samples = ResourceLocator.samplesDirectory(),
            let profile = try? AppProfile.load(directory: samples + "/SampleApp"), let store = try? InboxStore(path: db)
        else {
            FileHandle.standardError.write(Data("pushbox-bench stage-server: unknown stage, no sample app, or no inbox at \(db)\n".utf8))
            exit(2)
        }
        let languages = ["en-US"]
        var context = ValidationContext(
            bundleID: profile.bundleID, deviceTopics: DeviceTopics.topics(preferredLanguages: languages, profileTopics: profile.fcmTopics))
        context.fcmTokens = profile.fcmTokens
        context.fcmProject = profile.fcmProject
        context.capabilities = profile.capabilities
        context.apnsEnvironment = profile.apsEnvironment
        let renderer = Renderer(
            context: context, preferredLanguages: languages,
            localizer: Localizer(app: AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion)),
            categories: profile.categories)
        let service = IntakeService(store: store, context: context, renderings: stage == .full ? Renderings(base: renderer, store: store) : nil)
        // The device as serve attaches it: its registration beside the inbox, its languages, a clock.
        let registration = DeviceRegistrationFile(databasePath: db)
        service.phone.registrationFile = registration
        service.phone.deviceLanguagesChanged(to: languages, profileTopics: profile.fcmTopics)
        service.phone.clock = SimulatedClock()
        try? registration.record(app: profile.directory, languages: languages, apnsEnvironment: context.apnsEnvironment)
        let handler = StageHandler(stage: stage, router: APIRouter(service: service))
        let server: HTTPServer
        do {
            let fd = try Listeners.unixSocket(socket)
            server = try HTTPServer(
                listenFD: fd, handler: handler,
                connection: ConnectionInfo(listener: "unix \(socket)", protocolName: "http/1.1", tls: false, requiresAuth: false),
                threads: IntakeServer.Options.defaultThreads)
        } catch {
            FileHandle.standardError.write(Data("pushbox-bench stage-server: \(error)\n".utf8))
            exit(1)
        }
        while true { withExtendedLifetime(server) { _ = pause() } }
    }
}

/// A request handler that lets serve's router decide every head and log every answer, and
/// takes pushes only as far as its stage.
final class StageHandler: HTTPRequestHandler {
    let stage: IntakeStages.Stage
    let router: APIRouter

    init(stage: IntakeStages.Stage, router: APIRouter) {
        self.stage = stage
        self.router = router
    }

    func early(_ head: RequestHead) -> EarlyAnswer { router.early(head) }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        stage == .full || stage == .routed ? router.handle(request) : handle(batch: [request])[0]
    }

    func handle(batch requests: [HTTPRequest]) -> [HTTPResponse] {
        let service = router.service
        switch stage {
        case .routed, .full:
            return router.handle(batch: requests)
        case .answer:
            return requests.map { _ in HTTPResponse(status: 200, headers: [("apns-id", FastUUID.make())]) }
        case .validate:
            let context = service.phone.context
            return requests.map { request in
                let report = Validator.validate(APNsEndpoint.raw(request), context: context)
                return HTTPResponse(status: report.status, headers: [("apns-id", FastUUID.make())])
            }
        case .judge, .store:
            let raws = requests.map(APNsEndpoint.raw)
            let judged = service.phone.deliveries(batch: raws, mode: .live).map { $0[0] }
            if stage == .store { _ = service.store.insertRows(zip(raws, judged).map { ($0, $1.apnsID, $1.verdict) }) }
            return judged.map { HTTPResponse(status: $0.verdict.status, headers: [("apns-id", $0.apnsID)]) }
        }
    }

    func tooLarge(_ head: RequestHead) -> HTTPResponse { router.tooLarge(head) }

    func answered(_ head: RequestHead, _ response: HTTPResponse) { router.answered(head, response) }
}
