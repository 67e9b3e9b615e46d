import Foundation
import PushboxInbox
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxStore

/// `pushbox-bench request`: what one push costs `pushbox serve` in its own code, step by step,
/// on one thread and without HTTP or sockets: validation, the store's insert (one commit per
/// row, as at 16 clients, where rows rarely share a commit), and the whole endpoint; against a
/// bare strict parse of the payload in the same run. `intake` measures the real server.
enum RequestBenchmark {
    static func run(count: Int, markdown: String? = nil) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-bench-request-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let payloads = (0..<count).map { Array(SyntheticPayloads.make($0).utf8) }
        let arrival = Arrival(listener: "unix \(dir)/s.sock", protocolName: "http/1.1", tls: false, userAgent: "pb-load/1")
        let token = "5e1ec7ed" + String(repeating: "00", count: 28)
        let raws = payloads.map { RawPayload(bytes: $0, envelope: Envelope(source: .socket, deviceToken: token, arrival: arrival)) }
        let context = ValidationContext()
        print("pushbox-bench request: \(count) of the intake benchmark's payloads, one thread, no HTTP")

        var sink = 0
        let parse = best(of: 3) { for p in payloads where (try? JSONParser.parse(p)) != nil { sink &+= 1 } }
        let validate = best(of: 3) { for r in raws where Validator.validate(r, context: context).ok { sink &+= 1 } }
        var round = 0
        func freshStore() -> InboxStore? {
            round += 1
            return try? InboxStore(path: "\(dir)/insert-\(round).sqlite")
        }
        let insert = best(of: 3) {
            guard let store = freshStore() else { return }
            for r in raws {
                sink &+= Int(
                    (try? store.insert(r, apnsID: "0f9c8a2e-4b4d-4a8e-9f3e-\(String(format: "%012x", sink))", verdict: .init(status: 200))) ?? 0)
            }
        }
        let endpoint = best(of: 3) {
            guard let store = freshStore() else { return }
            let api = APIRouter(service: IntakeService(store: store, context: context, renderings: nil))
            for p in payloads {
                let request = HTTPRequest(
                    method: "POST", path: "/3/device/" + token, headers: [("content-type", "application/json")], body: p, arrival: arrival)
                sink &+= api.handle(request).status
            }
        }
        printSteps(
            [
                ("baseline: strict JSON parse of the payload", parse),
                ("validation", validate),
                ("the store's insert, one commit per row", insert),
                ("the endpoint: request → validated, stored, answer", endpoint),
            ], count: count, block: "request", command: "pushbox-bench request \(count)", markdown: markdown)
        if sink == 0 { print("(nothing measured)") }
    }
}
