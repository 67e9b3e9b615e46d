import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore

/// `GET /pushbox/findings?after=ID&listener=PREFIX`: the fleet's findings in what arrived after
/// row `ID`, as one campaign when `listener` names the requests' listener (`pushbox exec` asks
/// for its run's), and the latest row's id.
public enum FleetRoute {
    /// Rows read at most per question.
    public static let limit = 100_000

    static func route(_ service: IntakeService) -> Route {
        Route(
            "findings", methods: ["GET"], paths: .exact("/pushbox/findings"), maxBody: { _ in 0 }, refusal: APNsEndpoint.refusalWithoutID,
            handle: { request in
                let after = request.query["after"].flatMap { Int64($0) } ?? max(0, service.store.latestID - 1000)
                let listener = request.query["listener"]
                var rows = (try? service.store.rows(after: after, limit: limit)) ?? []
                if let listener { rows = rows.filter { $0.arrival?.listener.hasPrefix(listener) == true } }
                let findings = service.findings(rows, oneCampaign: listener != nil)
                let body = JSONValue.object(
                    JSONObject([
                        ("latest", .number(String(service.store.latestID))), ("findings", .array(findings.map(\.json))),
                    ]))
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(body).utf8))
            })
    }
}
