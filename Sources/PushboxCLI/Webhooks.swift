import Foundation
import PushboxFetch
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem

/// `--webhook URL` (and `webhooks` in `pushbox.json`): each stored notification's list item —
/// what `GET /api/v1/notifications` gives — POSTed as JSON to every URL. At most `perSecond` a
/// second to each (those beyond are dropped and counted, never queued), a 5 s timeout, never
/// retried; each delivery is a record of the request log (`pushbox requests`, the event stream).
final class Webhooks: Sendable {
    /// Where each notification goes.
    let urls: [String]
    /// Deliveries a second to each URL, at most.
    let perSecond: Int
    /// How long a delivery may take.
    static let timeoutMs = 5000
    private let counts = Locked<[String: Counts]>([:])
    private let queue = DispatchQueue(label: "pushbox.webhooks", attributes: .concurrent)

    /// What became of one URL's deliveries.
    struct Counts: Sendable {
        var second = 0
        var inSecond = 0
        var inFlight = 0
        var sent = 0
        var failed = 0
        var dropped = 0
    }

    /// The options that ask for webhooks.
    static let options = [Options.webhook, Options.webhookAny, Options.webhookRate]

    /// The webhooks the command line and the profile ask for, checked before anything listens
    /// (`start` them once the intake runs); nil for none.
    static func configured(_ args: ParsedArguments, profile: AppProfile?) throws(UsageError) -> Webhooks? {
        let urls = try urls(args, profile: profile)
        guard !urls.isEmpty else { return nil }
        return Webhooks(urls: urls, perSecond: try args.wholeNumber(Options.webhookRate, minimum: 1) ?? 20)
    }

    init(urls: [String], perSecond: Int) {
        self.urls = urls
        self.perSecond = perSecond
    }

    /// The URLs of `--webhook` and the profile's, each an http(s) URL, on this machine unless
    /// `any` (`--webhook-any`): a webhook sends what the inbox holds.
    static func urls(_ args: ParsedArguments, profile: AppProfile?) throws(UsageError) -> [String] {
        let urls = args.all(Options.webhook) + (profile?.webhooks ?? [])
        for url in urls {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), let host = parsed.host, !host.isEmpty else {
                throw UsageError(message: "--webhook \(url) is no http:// or https:// URL")
            }
            if !args.flag(Options.webhookAny), !APIv1.isLoopback(host.contains(":") ? "[\(host)]" : host) {
                throw UsageError(
                    message: "--webhook \(url) is not on this machine: the inbox's notifications would leave it; give --webhook-any to allow it")
            }
        }
        return urls
    }

    /// Posts each arrival from now on; each delivery is told to `router` as a request answered.
    func start(_ service: IntakeService, router: APIRouter) {
        InboxListing.onStored(service) { [self] stored in
            let dates = InboxListing.dateFormatter()
            for (row, shown) in stored {
                let body = Array(JSONWriter.compact(InboxListing.item(row, shown: shown, dates: dates)).utf8)
                for url in urls where admit(url) { queue.async { [self] in post(body, to: url, router: router) } }
            }
        }
    }

    /// Whether one more delivery to `url` fits this second (and the deliveries in flight).
    private func admit(_ url: String) -> Bool {
        let second = Int(Date().timeIntervalSince1970)
        return counts.withLock { all in
            var c = all[url] ?? Counts()
            if c.second != second { (c.second, c.inSecond) = (second, 0) }
            let fits = c.inSecond < perSecond && c.inFlight < perSecond
            if fits {
                c.inSecond += 1
                c.inFlight += 1
            } else {
                c.dropped += 1
            }
            all[url] = c
            return fits
        }
    }

    private func post(_ body: [UInt8], to url: String, router: APIRouter) {
        let headers = [("Content-Type", "application/json"), ("User-Agent", "pushbox/\(PushboxVersion.current)")]
        var status = 502
        var cause: String?
        if let client = UnixHTTPClient(socketPath: nil) {
            switch client.request("POST", url: url, headers: headers, body: body, timeoutMs: Self.timeoutMs) {
            case .success(let answer): status = answer.status
            case .failure(let error):
                cause = "the webhook did not answer: \(error)"
                if case .network(let why) = error, why.lowercased().contains("timeout") || why.lowercased().contains("timed out") { status = 504 }
            }
        } else {
            cause = "libcurl could not start"
        }
        counts.withLock { all in
            all[url]?.inFlight -= 1
            if (200..<300).contains(status) { all[url]?.sent += 1 } else { all[url]?.failed += 1 }
        }
        var head = RequestHead(
            method: "POST", path: url, headers: headers.map { (name: $0.0.lowercased(), value: $0.1) },
            connection: ConnectionInfo(listener: "webhook", protocolName: "http/1.1", tls: url.hasPrefix("https:"), requiresAuth: false))
        head.bodyBytes = body.count
        var response = HTTPResponse(status: status)
        response.cause = cause ?? (status < 300 ? nil : "the webhook answered \(status)")
        router.answered(head, response)
    }

    /// What became of each URL's deliveries: sent, failed, dropped over the rate.
    var summary: [(url: String, counts: Counts)] { counts.withLock { all in urls.map { ($0, all[$0] ?? Counts()) } } }
}
