import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload

/// pushbox's own paths beside the APNs API, for local notifications in the running instance:
///
/// - `POST /pushbox/schedule` — a schedule file; answers what was scheduled, refused and dropped
/// - `GET /pushbox/pending` — the pending set, soonest first, with the clock
/// - `DELETE /pushbox/pending/<identifier or prefix*>` — cancels
/// - `POST /pushbox/clock` — `{"advance": seconds}`, `{"jump": "next"}` or `{"timeZone": "Asia/Seoul"}`
enum ScheduleEndpoint {
    static let prefix = "/pushbox/"
    /// A schedule of thousands of requests fits; more is refused before it is read.
    static let maxBody = 4 << 20
    /// Relative attachment paths in a posted schedule are resolved against this folder.
    static let baseDirectoryHeader = "x-pushbox-base-dir"

    /// The `/pushbox/…` routes: schedule, the pending set, a cancel, the clock; any other
    /// `/pushbox/` path is BadPath.
    static func routes(_ scheduler: LocalScheduler?) -> [Route] {
        let serve: @Sendable (HTTPRequest) -> HTTPResponse = { Self.handle($0, scheduler: scheduler) }
        let refusal = APNsEndpoint.refusalWithoutID
        let limit: @Sendable (RequestHead) -> Int = { _ in maxBody }
        let cancel = "/pushbox/pending/"
        return [
            Route("schedule", methods: ["POST"], paths: .exact("/pushbox/schedule"), maxBody: limit, refusal: refusal, handle: serve),
            Route("pending", methods: ["GET"], paths: .exact("/pushbox/pending"), maxBody: limit, refusal: refusal, handle: serve),
            Route(
                "cancel", methods: ["DELETE"], paths: .prefix(cancel), maxBody: limit,
                check: { head in head.path.count > cancel.count ? .success(.none) : .failure(Refusal(refusal(.methodNotAllowed, head))) },
                refusal: refusal, handle: serve),
            Route("clock", methods: ["GET", "POST"], paths: .exact("/pushbox/clock"), maxBody: limit, refusal: refusal, handle: serve),
            Route(
                "pushbox-unknown", methods: nil, paths: .prefix(prefix), maxBody: { _ in 0 },
                check: { head in .failure(Refusal(refusal(.badPath, head))) }, refusal: refusal, handle: serve),
        ]
    }

    static func handle(_ request: HTTPRequest, scheduler: LocalScheduler?) -> HTTPResponse {
        guard let scheduler else { return answer(404, ["reason": "NoScheduler", "detail": "this pushbox keeps no local notifications"]) }
        // `?device=NAME`: an added device of the fleet's own pending set, on its own clock.
        let device = request.query["device"].flatMap { $0 == FleetDevice.defaultName ? nil : $0 }
        if let device, scheduler.service.phone.registration()?.device(named: device) == nil {
            return answer(404, ["reason": "NoSuchDevice", "detail": "no device named \(device) in this inbox (pushbox device list)"])
        }
        // Times are written in the device's zone, read when the answer is made (the device can travel).
        var deviceZone: TimeZone { scheduler.timeZone(of: device) }
        switch (request.method, request.path) {
        case ("POST", "/pushbox/schedule"):
            let requests: [LocalRequest]
            do { requests = try ScheduleFile.parse(request.body) } catch {
                return answer(400, ["reason": "BadSchedule", "detail": error.description])
            }
            let base = request.headers.last { $0.name == baseDirectoryHeader }?.value
            let outcome = scheduler.schedule(requests, baseDirectory: base, device: device)
            let refusedIDs = Set(outcome.refused.map(\.identifier))
            return answer(
                200,
                JSONObject([
                    ("scheduled", .array(requests.map(\.identifier).filter { !refusedIDs.contains($0) }.map { .string($0) })),
                    ("refused", refusals(outcome.refused)),
                    ("dropped", refusals(outcome.dropped)),
                    ("pending", .number(String(outcome.pending))),
                    ("limit", .number(String(PendingSet.limit))),
                ]))
        case ("GET", "/pushbox/pending"):
            let s = scheduler.snapshot(device: device)
            return answer(
                200,
                JSONObject([
                    ("now", .string(LocalClockText.format(s.now, timeZone: deviceZone))),
                    ("timeZone", .string(deviceZone.identifier)),
                    ("speed", .number(String(scheduler.clock.speed))),
                    ("pending", .array(s.pending.map { $0.json(timeZone: deviceZone) })),
                    ("dropped", refusals(s.dropped)),
                    ("refused", refusals(s.refused)),
                    ("delivered", .number(String(s.delivered))),
                ]))
        case ("POST", "/pushbox/clock"), ("GET", "/pushbox/clock"):
            if request.method == "POST" {
                guard let o = try? JSONParser.parse(request.body).objectValue else {
                    return answer(400, ["reason": "BadClock", "detail": "give {\"advance\": seconds} or {\"jump\": \"next\"}"])
                }
                if let seconds = o["advance"]?.doubleValue, seconds >= 0 {
                    scheduler.advance(by: seconds)
                } else if o["jump"]?.stringValue == "next" {
                    scheduler.jumpToNext()
                } else if let name = o["timeZone"]?.stringValue {
                    guard let zone = TimeZone(identifier: name) else {
                        return answer(400, ["reason": "BadClock", "detail": "unknown time zone \(name)"])
                    }
                    scheduler.changeTimeZone(zone)
                } else {
                    return answer(400, ["reason": "BadClock", "detail": "give {\"advance\": seconds ≥ 0} or {\"jump\": \"next\"}"])
                }
            }
            return answer(
                200,
                JSONObject([
                    ("now", .string(LocalClockText.format(scheduler.clock.now, timeZone: deviceZone))), ("label", .string(scheduler.clock.label)),
                ]))
        default:
            let pattern = String(request.path.dropFirst("/pushbox/pending/".count)).removingPercentEncoding ?? ""
            return answer(200, JSONObject([("cancelled", .array(scheduler.cancel(pattern, device: device).map { .string($0) }))]))
        }
    }

    static func refusals(_ list: [ScheduleRefusal]) -> JSONValue {
        .array(list.map { .object(JSONObject([("identifier", .string($0.identifier)), ("reason", .string($0.reason))])) })
    }

    static func answer(_ status: Int, _ fields: [String: String]) -> HTTPResponse {
        answer(status, JSONObject(fields.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
    }

    static func answer(_ status: Int, _ object: JSONObject) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(JSONWriter.compact(.object(object)).utf8))
    }
}
