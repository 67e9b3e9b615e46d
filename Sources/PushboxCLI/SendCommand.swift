import Foundation
import PushboxFetch
import PushboxIntake
import PushboxJSON
import PushboxPayload

/// `pushbox send`: post payload files to a running pushbox, as a provider posts to APNs.
enum SendCommand {
    static let spec = CommandSpec(
        name: "send",
        summary:
            "Post payload files to a running pushbox over its socket, as a provider posts to APNs; prints APNs' answer per file. Exit 1 on any error.",
        operands: "FILE…",
        options: [
            Options.socket,
            Options.header.with(help: "An APNs request header (overrides NAME.headers beside the file)."),
            Options.token.with(help: "The device token of /3/device/<token>. Default: the file's NAME.headers, else the simulated device's."),
        ]
            + IntakeOptions.providerOptions,
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard !args.operands.isEmpty else {
            io.err("pushbox send: no files given (use - for stdin); see pushbox send --help")
            return 2
        }
        let input: PayloadInput
        var topic: String?
        let socket = IntakeOptions.socketPath(args, io)
        guard let client = UnixHTTPClient(socketPath: socket) else {
            io.err("pushbox send: libcurl could not start")
            return 1
        }
        do {
            input = try PayloadInput(arguments: args)
            // The running pushbox's app, as a provider sends its own app's topic; --app or --topic say otherwise.
            if args.value(Options.topic) == nil, args.value(Options.app) == nil, let running = runningDevice(client) {
                topic = running["bundleID"]?.stringValue
            } else {
                topic = try IntakeOptions.providerTopic(args, io)
            }
        } catch {
            io.err("pushbox send: \(error)")
            return 2
        }
        var failed = false
        for path in args.operands {
            switch input.read(path, io: io) {
            case .failure(let e):
                failed = true
                io.err("pushbox send: \(e.message)")
            case .success(let raw):
                switch post(raw, client: client, topic: topic, extraHeaders: []) {
                case .failure(let e):
                    io.err("pushbox send: cannot reach pushbox on \(socket) (\(e)); is `pushbox serve` running?")
                    return 1
                case .success(let answer):
                    if answer.status != 200 { failed = true }
                    let cause = answer.status == 200 ? nil : self.cause(of: answer, client: client)
                    io.out(TerminalText.sanitize("\(path): \(describe(answer))" + (cause.map { ": \($0)" } ?? "")))
                }
            }
        }
        return failed ? 1 : 0
    }

    /// Posts one raw payload with its envelope's headers and token.
    static func post(_ raw: RawPayload, client: UnixHTTPClient, topic: String?, extraHeaders: [(String, String)]) -> Result<
        UnixHTTPClient.Response, DownloadError
    > {
        let token = raw.envelope.deviceToken ?? IntakeOptions.defaultDeviceToken
        let encoded = token.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? token
        var headers = raw.envelope.headers.fields.map { ($0.name, $0.value) } + extraHeaders
        if let topic, raw.envelope.headers[PushHeaders.topic] == nil { headers.append((PushHeaders.topic, topic)) }
        return client.request("POST", url: "http://localhost/3/device/\(encoded)", headers: headers, body: raw.bytes)
    }

    /// The device the pushbox on the socket runs (`GET /pushbox/device`); nil when none answers.
    static func runningDevice(_ client: UnixHTTPClient) -> JSONObject? {
        guard case .success(let r) = client.request("GET", url: "http://localhost/pushbox/device", headers: [], body: []), r.status == 200 else {
            return nil
        }
        return (try? JSONParser.parse(r.body))?.objectValue
    }

    /// Why pushbox refused, in its own words: the cause its request log kept for this answer's
    /// apns-id (APNs' answer itself carries only the reason).
    static func cause(of answer: UnixHTTPClient.Response, client: UnixHTTPClient) -> String? {
        guard let id = answer.header("apns-id"),
            case .success(let r) = client.request("GET", url: "http://localhost/requests?refused=1&limit=50", headers: [], body: []),
            let list = (try? JSONParser.parse(r.body))?.arrayValue
        else { return nil }
        return list.first { $0.objectValue?["apnsId"]?.stringValue == id }?.objectValue?["cause"]?.stringValue
    }

    static func describe(_ answer: UnixHTTPClient.Response) -> String {
        let id = answer.header("apns-id").map { " apns-id \($0)" } ?? ""
        guard answer.status != 200 else { return "200\(id)" }
        let reason = (try? JSONParser.parse(answer.body))?.objectValue?["reason"]?.stringValue ?? "?"
        return "\(answer.status) \(reason)\(id)"
    }
}
